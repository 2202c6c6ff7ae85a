//! docs/commands.md names every option of every command: the built binaries' `--help` is read
//! for `hextris`, each of its subcommands (recursively: `store merge`, `pack square`, ...) and
//! `play_icfp2015`, and each long (`--xxx`) and short (`-x`) option it lists must appear in the
//! section of commands.md whose heading is that command (`` ## `hextris store merge` ``).
//! `-h`/`--help`, which every command has, is named once at the top of the file instead.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// What one command's `--help` lists.
#[derive(Debug, Default)]
struct Help {
    options: Vec<String>,
    subcommands: Vec<String>,
}

/// Runs `bin args... --help` and returns its stdout.
fn help_text(bin: &str, args: &[String]) -> String {
    let out = Command::new(bin)
        .args(args)
        .arg("--help")
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{bin} {} --help failed: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("help is UTF-8")
}

/// The options and subcommands a help text lists. Sections start with an unindented line ending
/// in ':' ("Options:", "Commands:"); an option's line starts with '-' after at most 6 spaces
/// (its description, and the lists of possible values, are indented further).
fn parse(help: &str) -> Help {
    let mut h = Help::default();
    let mut section = "";
    for line in help.lines() {
        if !line.starts_with(' ') && line.ends_with(':') {
            section = line;
            continue;
        }
        let body = line.trim_start();
        let indent = line.len() - body.len();
        match section {
            "Options:" if indent <= 6 && body.starts_with('-') => {
                for token in body.split([',', ' ']) {
                    let name: String = token
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                        .collect();
                    let is_option = name.len() > 1
                        && name.starts_with('-')
                        && name.trim_start_matches('-').chars().next().is_some();
                    if is_option {
                        h.options.push(name);
                    }
                }
            }
            "Commands:" if indent == 2 => {
                let name = body.split_whitespace().next().unwrap_or("");
                if !name.is_empty() && name != "help" {
                    h.subcommands.push(name.to_string());
                }
            }
            _ => {}
        }
    }
    h
}

/// Every command, as its name ("hextris store merge") and its options, walking the subcommands.
fn commands() -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    let hextris = env!("CARGO_BIN_EXE_hextris");
    let mut stack: Vec<Vec<String>> = vec![Vec::new()];
    while let Some(path) = stack.pop() {
        let h = parse(&help_text(hextris, &path));
        for sub in &h.subcommands {
            let mut p = path.clone();
            p.push(sub.clone());
            stack.push(p);
        }
        let name = std::iter::once("hextris".to_string())
            .chain(path)
            .collect::<Vec<_>>()
            .join(" ");
        out.insert(name, h.options);
    }
    let play = parse(&help_text(env!("CARGO_BIN_EXE_play_icfp2015"), &[]));
    out.insert("play_icfp2015".to_string(), play.options);
    out
}

/// The sections of a Markdown file whose heading starts with a name in backticks, by that name:
/// each holds its text up to the next heading of any level.
fn sections(markdown: &str) -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    let mut current: Option<String> = None;
    let mut fenced = false;
    for line in markdown.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        if !fenced && line.starts_with('#') {
            let heading = line.trim_start_matches('#').trim();
            current = heading
                .strip_prefix('`')
                .and_then(|rest| rest.split('`').next())
                .map(str::to_string);
            if let Some(name) = &current {
                out.entry(name.clone()).or_default();
            }
            continue;
        }
        if let Some(name) = &current {
            let text = out.get_mut(name).expect("entered above");
            text.push_str(line);
            text.push('\n');
        }
    }
    out
}

/// Whether `text` names `option` as a word of its own: not inside a longer option (`-t` in
/// `--time`) nor followed by more of a name (`--store` in `--stores`).
fn names(text: &str, option: &str) -> bool {
    let part = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    text.match_indices(option).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + option.len()..].chars().next();
        !before.is_some_and(part) && !after.is_some_and(part)
    })
}

#[test]
fn commands_md_names_every_option_of_every_command() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/commands.md");
    let doc = std::fs::read_to_string(&path).expect("docs/commands.md exists");
    let sections = sections(&doc);
    let commands = commands();
    // The walk found the commands it should, so that a change of the help's layout cannot
    // make this test pass empty.
    for known in [
        "hextris solve",
        "hextris store merge",
        "hextris pack totems",
    ] {
        assert!(commands.contains_key(known), "no {known} in {commands:?}");
    }
    assert!(commands["hextris solve"].contains(&"--store".to_string()));
    assert!(commands["play_icfp2015"].contains(&"-f".to_string()));
    let mut missing = Vec::new();
    for (command, options) in &commands {
        let Some(text) = sections.get(command) else {
            missing.push(format!("no section headed `{command}`"));
            continue;
        };
        for option in options {
            if option != "--help" && option != "-h" && !names(text, option) {
                missing.push(format!("{command}: {option}"));
            }
        }
    }
    // Every section headed with a command names one that exists.
    for name in sections.keys() {
        if (name.starts_with("hextris") || name.starts_with("play_icfp2015"))
            && !commands.contains_key(name)
        {
            missing.push(format!("a section for `{name}`, which is no command"));
        }
    }
    assert!(
        missing.is_empty(),
        "docs/commands.md lacks (each option belongs in its command's section):\n{}",
        missing.join("\n")
    );
    assert!(names(&doc, "--help") && names(&doc, "-h"));
}

#[test]
fn the_help_parser_reads_options_and_subcommands() {
    let h = parse(
        "Usage: x [OPTIONS]\n\nCommands:\n  merge  Merge\n  help   Print\n\nOptions:\n  \
         -t, --time <TIME>  Seconds\n      --letters[=<SYMBOLS>]  Allow\n  -f <FILE>  A file\n  \
         --color <COLOR>\n          Colour\n\n          Possible values:\n          - auto: \
         x\n",
    );
    assert_eq!(h.subcommands, ["merge"]);
    assert_eq!(h.options, ["-t", "--time", "--letters", "-f", "--color"]);
    assert!(names("`-t`, `--time S`", "-t"));
    assert!(!names("`--time S`", "-t"));
    assert!(!names("`--stores`", "--store"));
    let s = sections("# Commands\n## `hextris a`\nx `--a`\n### `hextris a b`\ny\n");
    assert_eq!(s["hextris a"], "x `--a`\n");
    assert_eq!(s["hextris a b"], "y\n");
}
