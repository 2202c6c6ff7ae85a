//! The "## Layout" section of `docs/design.md` names every part of `src/`: each folder, each
//! top-level file, and each `.rs` file directly in a folder, so that the map a reader is given
//! cannot fall behind the code without a test failing.
//!
//! A name counts when it stands in backticks: a folder as `` `plan/` `` or as the start of a
//! path (`` `store/report.rs` ``); a top-level file as `` `io.rs` ``; a file of a folder as its
//! name or a path ending in it (`` `beam.rs` ``, `` `bin/play_icfp2015.rs` ``), in a block of
//! the section (a list item with its continuation lines, or a paragraph) that names its
//! folder. A folder's `mod.rs` is the folder itself and need not be named.

use std::path::Path;

/// The text of the section headed `## {title}` of a Markdown text, up to the next `## ` heading.
fn section<'t>(text: &'t str, title: &str) -> Option<&'t str> {
    let head = format!("## {title}\n");
    let start = text.find(&head)? + head.len();
    let rest = &text[start..];
    Some(match rest.find("\n## ") {
        Some(end) => &rest[..end],
        None => rest,
    })
}

/// The blocks of a section: each list item with the lines that continue it, and each paragraph.
fn blocks(section: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for line in section.lines() {
        if line.trim().is_empty() {
            open = false;
        } else if line.starts_with("- ") || !open {
            out.push(line.to_string());
            open = true;
        } else if let Some(last) = out.last_mut() {
            last.push('\n');
            last.push_str(line);
        }
    }
    out
}

/// The words in backticks of a text.
fn quoted(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// What `src/` holds, as the test sees it: its folders (each with the `.rs` files directly in
/// it) and its top-level files, sorted.
struct Tree {
    folders: Vec<(String, Vec<String>)>,
    files: Vec<String>,
}

fn names_in(dir: &Path) -> Vec<(String, bool)> {
    let mut out: Vec<(String, bool)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().to_string();
            (name, e.path().is_dir())
        })
        .collect();
    out.sort();
    out
}

fn src_tree() -> Tree {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut tree = Tree {
        folders: Vec::new(),
        files: Vec::new(),
    };
    for (name, is_dir) in names_in(&src) {
        if is_dir {
            let rs = names_in(&src.join(&name))
                .into_iter()
                .filter(|(n, d)| !d && n.ends_with(".rs"))
                .map(|(n, _)| n)
                .collect();
            tree.folders.push((name, rs));
        } else {
            tree.files.push(name);
        }
    }
    tree
}

/// The parts of `tree` that the Layout section `layout` does not name (see the module doc).
fn unnamed(tree: &Tree, layout: &str) -> Vec<String> {
    let blocks = blocks(layout);
    let names_folder = |block: &str, folder: &str| {
        let dir = format!("{folder}/");
        quoted(block).iter().any(|q| q.starts_with(&dir))
    };
    let mut out = Vec::new();
    for file in &tree.files {
        if !quoted(layout).contains(&file.as_str()) {
            out.push(file.clone());
        }
    }
    for (folder, files) in &tree.folders {
        let homes: Vec<&String> = blocks.iter().filter(|b| names_folder(b, folder)).collect();
        if homes.is_empty() {
            out.push(format!("{folder}/"));
            continue;
        }
        for file in files.iter().filter(|f| *f != "mod.rs") {
            let tail = format!("/{file}");
            let named = homes
                .iter()
                .any(|b| quoted(b).iter().any(|q| q == file || q.ends_with(&tail)));
            if !named {
                out.push(format!("{folder}/{file}"));
            }
        }
    }
    out
}

/// The checker on a made-up tree: a folder, a file of a folder and a top-level file each fail
/// when the section leaves them out, and a file named only outside its folder's block fails.
#[test]
fn the_layout_checker_finds_what_is_not_named() {
    let tree = Tree {
        folders: vec![
            ("plan".into(), vec!["mod.rs".into(), "beam.rs".into()]),
            ("bin".into(), vec!["tool.rs".into()]),
            ("view".into(), vec!["svg.rs".into()]),
        ],
        files: vec!["io.rs".into(), "lib.rs".into()],
    };
    let layout = "Intro naming `io.rs`.\n\n- `plan/` — the beam in `beam.rs`,\n  and more.\n\
                  - `cli/` — commands; `bin/tool.rs` calls it; `svg.rs` is not here.\n";
    assert_eq!(unnamed(&tree, layout), ["lib.rs", "view/"]);
    let layout =
        "- `plan/` — nothing.\n- `bin/x.rs`, `view/`, `svg.rs`, `tool.rs`, `lib.rs`, `io.rs`.\n";
    assert_eq!(unnamed(&tree, layout), ["plan/beam.rs"]);
    let text = "# T\n\n## Layout\n\nbody\n\n## Next\n\nmore\n";
    assert_eq!(section(text, "Layout"), Some("\nbody\n"));
}

/// The Layout section of `docs/design.md` names every folder and top-level file of `src/`, and
/// every `.rs` file directly in a folder (see the module doc).
#[test]
fn the_layout_names_every_part_of_src() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/design.md");
    let text = std::fs::read_to_string(path).unwrap();
    let layout = section(&text, "Layout").expect("docs/design.md has a \"## Layout\" section");
    let missing = unnamed(&src_tree(), layout);
    assert!(
        missing.is_empty(),
        "parts of src/ that the Layout section of docs/design.md does not name:\n{}",
        missing.join("\n")
    );
}
