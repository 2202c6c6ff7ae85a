//! The shape of the code, checked as text: no function in `src/` is longer than
//! [`MAX_FUNCTION_LINES`] outside the test modules, no file longer than [`MAX_FILE_LINES`], no
//! two files of `src/` import each other (directly or through others: [`ImportGraph`]), and the
//! puzzles of `src/pack` use nothing of the hex game.
//!
//! The sources are read with a small lexer that knows Rust's comments, strings (raw ones too)
//! and character literals, so that a brace inside them does not count. A function's length is
//! the lines from its `fn` line to its closing brace, both included (its doc comment and
//! attributes not counted). A module under `#[cfg(test)]` is skipped whole.

use std::path::{Path, PathBuf};

/// The most lines a function of `src/` may have: past this a function does several jobs that
/// want names of their own.
const MAX_FUNCTION_LINES: usize = 150;

/// Functions allowed past the limit for now, as (file, function name), each with its reason.
const LONG_FUNCTIONS_ALLOWED: &[(&str, &str)] = &[];

/// The modules of the crate that `src/pack` may use: the shared error type and file reading.
/// The rest (engine, plan, encode, solve, view, store, the command line) is the hex game's.
const PACK_MAY_USE: &[&str] = &["error", "io", "pack"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `.rs` files below `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The `.rs` files below the folder `dir` of the root, as (path from the root with `/`, text).
fn sources(dir: &str) -> Vec<(String, String)> {
    let root = root();
    rust_files(&root.join(dir))
        .into_iter()
        .map(|path| {
            let rel = path.strip_prefix(&root).unwrap().to_string_lossy();
            let text = std::fs::read_to_string(&path).unwrap();
            (rel.replace('\\', "/"), text)
        })
        .collect()
}

/// A token of the lexer: what matters for braces and names.
#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// An identifier or keyword.
    Word(String),
    /// One punctuation character.
    Punct(char),
}

/// The tokens of a source with their line numbers (1-based); comments, strings and character
/// literals are dropped (a literal leaves nothing behind, which is all the checks need).
fn lex(src: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    // Advances over `n` characters, counting the lines.
    let skip = |i: &mut usize, line: &mut usize, n: usize| {
        let end = (*i + n).min(c.len());
        *line += c[*i..end].iter().filter(|&&ch| ch == '\n').count();
        *i += n;
    };
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        if ch == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == Some('*') {
            // Block comments nest in Rust.
            let mut depth = 0;
            loop {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    skip(&mut i, &mut line, 2);
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    skip(&mut i, &mut line, 2);
                    if depth == 0 {
                        break;
                    }
                } else {
                    skip(&mut i, &mut line, 1);
                }
            }
        } else if ch == '"' {
            skip(&mut i, &mut line, 1);
            while c[i] != '"' {
                let n = if c[i] == '\\' { 2 } else { 1 };
                skip(&mut i, &mut line, n);
            }
            i += 1;
        } else if (ch == 'r' || (ch == 'b' && next == Some('r')))
            && !prev_is_word(&c, i)
            && raw_string_start(&c, i + if ch == 'b' { 1 } else { 0 }).is_some()
        {
            let at = i + if ch == 'b' { 1 } else { 0 };
            let hashes = raw_string_start(&c, at).unwrap();
            let n = at - i + 2 + hashes;
            skip(&mut i, &mut line, n);
            loop {
                if c[i] == '"' && (1..=hashes).all(|k| c.get(i + k) == Some(&'#')) {
                    i += 1 + hashes;
                    break;
                }
                skip(&mut i, &mut line, 1);
            }
        } else if ch == '\'' {
            // A character literal ('x', '\n', '\u{..}') or a lifetime ('a).
            if next == Some('\\') {
                skip(&mut i, &mut line, 2);
                while c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if c.get(i + 2) == Some(&'\'') {
                skip(&mut i, &mut line, 3);
            } else {
                i += 1;
            }
        } else if ch.is_alphanumeric() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push((Tok::Word(c[start..i].iter().collect()), line));
        } else {
            if ch == '\n' {
                line += 1;
            } else if !ch.is_whitespace() {
                out.push((Tok::Punct(ch), line));
            }
            i += 1;
        }
    }
    out
}

fn prev_is_word(c: &[char], i: usize) -> bool {
    i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_')
}

/// At `r` starting a raw string (`r"`, `r#"`, ...): the number of `#`.
fn raw_string_start(c: &[char], i: usize) -> Option<usize> {
    if c.get(i) != Some(&'r') {
        return None;
    }
    let mut k = i + 1;
    while c.get(k) == Some(&'#') {
        k += 1;
    }
    (c.get(k) == Some(&'"')).then_some(k - i - 1)
}

/// The index of the token closing the brace at `open`.
fn closing(toks: &[(Tok, usize)], open: usize) -> usize {
    let mut depth = 0;
    for (k, (t, _)) in toks.iter().enumerate().skip(open) {
        match t {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced braces");
}

/// Whether the tokens at `k` are `# [ cfg ( test ) ]`.
fn is_cfg_test(toks: &[(Tok, usize)], k: usize) -> bool {
    let want = [
        Tok::Punct('#'),
        Tok::Punct('['),
        Tok::Word("cfg".into()),
        Tok::Punct('('),
        Tok::Word("test".into()),
        Tok::Punct(')'),
        Tok::Punct(']'),
    ];
    toks.len() >= k + want.len() && toks[k..k + want.len()].iter().map(|t| &t.0).eq(want.iter())
}

/// The index just past the `#[cfg(test)]` item whose attribute starts at `k`: up to its `;` or
/// its braces' end.
fn past_test_item(toks: &[(Tok, usize)], k: usize) -> usize {
    let mut j = k + 7;
    while j < toks.len() && !matches!(toks[j].0, Tok::Punct('{') | Tok::Punct(';')) {
        j += 1;
    }
    if toks.get(j).map(|t| &t.0) == Some(&Tok::Punct('{')) {
        closing(toks, j) + 1
    } else {
        j + 1
    }
}

/// Whether `rel` is a test file: one of `tests` ([`test_module_files`]) or a module below one
/// (`src/solve/policy/tests/traces.rs` below `src/solve/policy/tests/mod.rs`), which compiles
/// only with its parent.
fn is_test_file(rel: &str, tests: &[String]) -> bool {
    tests.iter().any(|t| {
        let dir = t
            .strip_suffix("/mod.rs")
            .or(t.strip_suffix(".rs"))
            .unwrap_or(t);
        rel == t || rel.starts_with(&format!("{dir}/"))
    })
}

/// The files of `files` that are modules declared under `#[cfg(test)]` (`#[cfg(test)] mod
/// tests;` in `src/solve/policy.rs` is `src/solve/policy/tests.rs`), as paths from the root.
fn test_module_files(files: &[(String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (rel, src) in files {
        let toks = lex(src);
        let dir = match rel.rsplit_once('/') {
            Some((dir, "mod.rs" | "lib.rs")) => dir.to_string(),
            _ => rel.trim_end_matches(".rs").to_string(),
        };
        for k in 0..toks.len() {
            if !is_cfg_test(&toks, k) {
                continue;
            }
            if let [(Tok::Word(m), _), (Tok::Word(name), _), (Tok::Punct(';'), _), ..] =
                &toks[k + 7..]
            {
                if m == "mod" {
                    out.push(format!("{dir}/{name}.rs"));
                    out.push(format!("{dir}/{name}/mod.rs"));
                }
            }
        }
    }
    out
}

/// The functions of a source outside `#[cfg(test)]` items, as (name, first line, lines).
fn functions(src: &str) -> Vec<(String, usize, usize)> {
    let toks = lex(src);
    let mut out = Vec::new();
    let mut k = 0;
    while k < toks.len() {
        if is_cfg_test(&toks, k) {
            // Skip the item the attribute applies to.
            k = past_test_item(&toks, k);
            continue;
        }
        if toks[k].0 == Tok::Word("fn".into()) {
            if let Some((Tok::Word(name), line)) = toks.get(k + 1) {
                // The body: the first `{` outside parentheses and brackets, unless a `;` ends a
                // declaration first.
                let mut depth = 0i32;
                let mut j = k + 2;
                while j < toks.len() {
                    match toks[j].0 {
                        Tok::Punct('(') | Tok::Punct('[') => depth += 1,
                        Tok::Punct(')') | Tok::Punct(']') => depth -= 1,
                        Tok::Punct('{') | Tok::Punct(';') if depth == 0 => break,
                        _ => {}
                    }
                    j += 1;
                }
                if toks.get(j).map(|t| &t.0) == Some(&Tok::Punct('{')) {
                    let end = toks[closing(&toks, j)].1;
                    out.push((name.clone(), *line, end - line + 1));
                }
            }
        }
        k += 1;
    }
    out
}

#[test]
fn the_lexer_measures_functions_past_strings_comments_and_test_modules() {
    let src = r####"
fn short() {
    let s = "}}}";
    let r = r#"{ "quoted" }"#;
    let c = '}';
    let e = '\'';
    // }
    /* } /* nested } */ */
}
fn generic<'a>(x: &'a [u8; 4]) -> &'a u8 {
    &x[0]
}
trait T {
    fn declared(&self);
}
#[cfg(test)]
mod tests {
    fn inside_tests() {}
}
fn last() {}
"####;
    let got = functions(src);
    let want: Vec<(String, usize, usize)> = vec![
        ("short".into(), 2, 8),
        ("generic".into(), 10, 3),
        ("last".into(), 20, 1),
    ];
    assert_eq!(got, want);
}

/// No function of `src/` outside the test modules is longer than [`MAX_FUNCTION_LINES`] lines,
/// but for the ones [`LONG_FUNCTIONS_ALLOWED`] names; and each of those is still long (an
/// exception no longer needed is taken out).
#[test]
fn no_function_is_longer_than_the_limit() {
    let mut long = Vec::new();
    let mut allowed_seen = Vec::new();
    for (rel, src) in sources("src") {
        for (name, line, lines) in functions(&src) {
            if lines <= MAX_FUNCTION_LINES {
                continue;
            }
            if LONG_FUNCTIONS_ALLOWED.contains(&(rel.as_str(), name.as_str())) {
                allowed_seen.push((rel.clone(), name));
            } else {
                long.push(format!("{rel}:{line} fn {name}: {lines} lines"));
            }
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_FUNCTION_LINES} lines (cut them into named stages):\n{}",
        long.join("\n")
    );
    for (file, name) in LONG_FUNCTIONS_ALLOWED {
        assert!(
            allowed_seen.iter().any(|(f, n)| f == file && n == name),
            "{file} fn {name} is no longer over {MAX_FUNCTION_LINES} lines: take it out of LONG_FUNCTIONS_ALLOWED"
        );
    }
}

/// The puzzles share nothing with the hex game: `src/pack` names no module of the crate but
/// [`PACK_MAY_USE`], so that it could leave for a crate of its own without a change.
#[test]
fn the_puzzles_use_nothing_of_the_hex_game() {
    let mut wrong = Vec::new();
    for (rel, src) in sources("src/pack") {
        let toks = lex(&src);
        for w in toks.windows(4) {
            if let [(Tok::Word(k), line), (Tok::Punct(':'), _), (Tok::Punct(':'), _), (Tok::Word(m), _)] =
                w
            {
                if k == "crate" && !PACK_MAY_USE.contains(&m.as_str()) {
                    wrong.push(format!("{rel}:{line} uses crate::{m}"));
                }
            }
        }
        // A chain of `super::` as long as the module's depth would reach the crate's root.
        let parts: Vec<&str> = rel.trim_start_matches("src/").split('/').collect();
        let depth = parts.len() - usize::from(parts.last() == Some(&"mod.rs"));
        let mut k = 0;
        while k < toks.len() {
            let mut chain = 0;
            while matches!(
                &toks[k + 3 * chain..],
                [(Tok::Word(w), _), (Tok::Punct(':'), _), (Tok::Punct(':'), _), ..] if w == "super"
            ) {
                chain += 1;
            }
            if chain >= depth {
                wrong.push(format!("{rel}:{} climbs out of src/pack", toks[k].1));
            }
            k += 3 * chain + 1;
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The most lines a file of `src/` may have: past this a file holds several jobs that want
/// files of their own.
const MAX_FILE_LINES: usize = 700;

/// Files allowed past [`MAX_FILE_LINES`] for now, each with its reason (none).
const LONG_FILES_ALLOWED: &[&str] = &[];

/// No file of `src/` is longer than [`MAX_FILE_LINES`] lines, but for the ones
/// [`LONG_FILES_ALLOWED`] names; and each of those is still there and still long (an exception
/// no longer needed is taken out).
#[test]
fn no_file_is_longer_than_the_limit() {
    let files = sources("src");
    let long: Vec<String> = files
        .iter()
        .filter(|(rel, _)| !LONG_FILES_ALLOWED.contains(&rel.as_str()))
        .map(|(rel, text)| (rel, text.lines().count()))
        .filter(|&(_, lines)| lines > MAX_FILE_LINES)
        .map(|(rel, lines)| format!("{rel}: {lines} lines"))
        .collect();
    assert!(
        long.is_empty(),
        "files over {MAX_FILE_LINES} lines (cut them by concern into files of their own):\n{}",
        long.join("\n")
    );
    for allowed in LONG_FILES_ALLOWED {
        let still_long = files
            .iter()
            .any(|(rel, text)| rel == allowed && text.lines().count() > MAX_FILE_LINES);
        assert!(
            still_long,
            "{allowed} is gone or no longer over {MAX_FILE_LINES} lines: take it out of LONG_FILES_ALLOWED"
        );
    }
}

/// The module path of a file of `src/` (`src/plan/mod.rs` and `src/plan.rs`: `plan`;
/// `src/lib.rs`: the crate's root, empty); `None` for the binaries' roots, which are crates of
/// their own.
fn module_of(rel: &str) -> Option<Vec<String>> {
    let inner = rel.strip_prefix("src/")?.strip_suffix(".rs")?;
    if inner == "main" || inner.starts_with("bin/") {
        return None;
    }
    let mut parts: Vec<String> = inner.split('/').map(str::to_string).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    Some(parts)
}

/// The tokens of a source outside its `#[cfg(test)]` items (test modules, test-only imports):
/// what the crate is built from.
fn outside_tests(toks: &[(Tok, usize)]) -> Vec<(Tok, usize)> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < toks.len() {
        if is_cfg_test(toks, k) {
            k = past_test_item(toks, k);
            continue;
        }
        out.push(toks[k].clone());
        k += 1;
    }
    out
}

/// A path a source names: its segments as written (`crate`, `super`, `self` included), the
/// inline modules (`mod name { ... }`) it stands in, and its line. Whether it is a `use`
/// declaration's (a name bound in the module, which other files may reach through it).
#[derive(Clone, Debug, PartialEq)]
struct Named {
    segments: Vec<String>,
    inline: Vec<String>,
    line: usize,
    binding: Option<String>,
}

fn word(t: Option<&(Tok, usize)>) -> Option<&str> {
    match t {
        Some((Tok::Word(w), _)) => Some(w),
        _ => None,
    }
}

fn is_path_sep(toks: &[(Tok, usize)], k: usize) -> bool {
    matches!(
        (toks.get(k), toks.get(k + 1)),
        (Some((Tok::Punct(':'), _)), Some((Tok::Punct(':'), _)))
    )
}

/// Expands the `use` tree starting at `k` (after `use`) under `prefix`; returns the index after
/// the tree. Each leaf is a path and the name it binds (`self` in braces binds the prefix's last
/// segment; a glob binds nothing).
fn use_tree(
    toks: &[(Tok, usize)],
    mut k: usize,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) -> usize {
    let mut path = prefix;
    loop {
        match toks.get(k).map(|t| &t.0) {
            Some(Tok::Punct('{')) => {
                k += 1;
                while !matches!(toks.get(k).map(|t| &t.0), Some(Tok::Punct('}')) | None) {
                    k = use_tree(toks, k, path.clone(), out);
                    if matches!(toks.get(k).map(|t| &t.0), Some(Tok::Punct(','))) {
                        k += 1;
                    }
                }
                return k + 1;
            }
            Some(Tok::Punct('*')) => {
                out.push((path, None));
                return k + 1;
            }
            Some(Tok::Word(w)) => {
                let w = w.clone();
                k += 1;
                if is_path_sep(toks, k) {
                    path.push(w);
                    k += 2;
                    continue;
                }
                let mut bound = if w == "self" {
                    path.last().cloned()
                } else {
                    path.push(w.clone());
                    Some(w)
                };
                if word(toks.get(k)) == Some("as") {
                    bound = word(toks.get(k + 1)).map(str::to_string);
                    k += 2;
                }
                out.push((path, bound.filter(|b| b != "_")));
                return k;
            }
            _ => return k,
        }
    }
}

/// The paths a source names outside its test items (see [`paths_in`]).
fn named_paths(src: &str) -> Vec<Named> {
    paths_in(&outside_tests(&lex(src)))
}

/// The paths the tokens `toks` of a source name: every leaf of their `use` trees, and every
/// path in their code that starts with `crate`, `super` or `self`.
fn paths_in(toks: &[(Tok, usize)]) -> Vec<Named> {
    let mut out = Vec::new();
    // The inline modules open at each point, with the brace depth inside each.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut k = 0;
    while k < toks.len() {
        let line = toks[k].1;
        match &toks[k].0 {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                if inline.last().is_some_and(|&(_, d)| d == depth) {
                    inline.pop();
                }
                depth -= 1;
            }
            Tok::Word(w) if w == "mod" => {
                if let (Some(name), Some((Tok::Punct('{'), _))) =
                    (word(toks.get(k + 1)), toks.get(k + 2))
                {
                    inline.push((name.to_string(), depth + 1));
                }
            }
            Tok::Word(w) if w == "use" => {
                let mut leaves = Vec::new();
                k = use_tree(toks, k + 1, Vec::new(), &mut leaves);
                let here: Vec<String> = inline.iter().map(|(n, _)| n.clone()).collect();
                for (segments, binding) in leaves {
                    out.push(Named {
                        segments,
                        inline: here.clone(),
                        line,
                        binding,
                    });
                }
                continue;
            }
            Tok::Word(w)
                if matches!(w.as_str(), "crate" | "super" | "self")
                    && is_path_sep(toks, k + 1)
                    && !(k >= 2 && is_path_sep(toks, k - 2)) =>
            {
                let mut segments = vec![w.clone()];
                let mut j = k + 1;
                while is_path_sep(toks, j) {
                    let Some(next) = word(toks.get(j + 2)) else {
                        break;
                    };
                    segments.push(next.to_string());
                    j += 3;
                }
                out.push(Named {
                    segments,
                    inline: inline.iter().map(|(n, _)| n.clone()).collect(),
                    line,
                    binding: None,
                });
                k = j;
                continue;
            }
            _ => {}
        }
        k += 1;
    }
    out
}

/// The files of `src/` and their imports of one another: the file each path of a file leads
/// to. A path leads to the file of the deepest module it names, and on through that module's
/// `use` declarations to the file that defines the name (a re-export is not where a name
/// lives). Not an import: a path within the file itself, or one to a module below the file's
/// own (a module declares, re-exports and uses its children: only the children's use of it
/// counts), or anything outside the crate.
struct ImportGraph {
    files: Vec<String>,
    /// Per file: the files it imports, each with the line of its first path there.
    edges: Vec<Vec<(usize, usize)>>,
}

impl ImportGraph {
    /// The graph of what the crate is built from: test items left out.
    fn of(sources: &[(String, String)]) -> ImportGraph {
        let named = sources.iter().map(|(_, s)| named_paths(s)).collect();
        ImportGraph::from_paths(sources, named)
    }

    /// The graph of everything the sources name, their test items included.
    fn with_tests(sources: &[(String, String)]) -> ImportGraph {
        let named = sources.iter().map(|(_, s)| paths_in(&lex(s))).collect();
        ImportGraph::from_paths(sources, named)
    }

    /// The graph of `sources` whose paths are `named` (one list per source).
    fn from_paths(sources: &[(String, String)], named: Vec<Vec<Named>>) -> ImportGraph {
        let modules: Vec<Option<Vec<String>>> =
            sources.iter().map(|(rel, _)| module_of(rel)).collect();
        let file_of = |m: &[String]| modules.iter().position(|x| x.as_deref() == Some(m));
        // Resolves `segments` as seen from `module` (with `inline` modules open): the file it
        // leads to, or None (outside the crate, or inside the file itself).
        let resolve = |file: usize, segments: &[String], inline: &[String]| -> Option<usize> {
            let mut current = file;
            let mut segments = segments.to_vec();
            for _ in 0..8 {
                let own = modules[current].clone()?;
                let (mut base, mut rest) = match segments.first().map(String::as_str) {
                    Some("crate") => (Vec::new(), segments[1..].to_vec()),
                    Some("self" | "super") => {
                        let mut base = own.clone();
                        base.extend(inline.iter().cloned());
                        let mut i = 0;
                        while segments.get(i).is_some_and(|s| s == "self" || s == "super") {
                            if segments[i] == "super" {
                                base.pop()?;
                            }
                            i += 1;
                        }
                        (base, segments[i..].to_vec())
                    }
                    // A relative path names a child of the module (or another crate).
                    Some(first) => {
                        let mut child = own.clone();
                        child.push(first.to_string());
                        file_of(&child)?;
                        (own.clone(), segments.clone())
                    }
                    None => return None,
                };
                if base.len() > own.len() {
                    // Inside an inline module of the file itself.
                    return None;
                }
                while let Some(first) = rest.first() {
                    let mut deeper = base.clone();
                    deeper.push(first.clone());
                    if file_of(&deeper).is_none() {
                        break;
                    }
                    base = deeper;
                    rest.remove(0);
                }
                let target = file_of(&base)?;
                // On through the module's own binding of the name, if it has one.
                let via = rest.first().and_then(|name| {
                    named[target]
                        .iter()
                        .find(|n| n.inline.is_empty() && n.binding.as_ref() == Some(name))
                });
                match via {
                    Some(n) if target != current || n.segments != segments => {
                        let mut next = n.segments.clone();
                        next.extend(rest[1..].iter().cloned());
                        current = target;
                        segments = next;
                    }
                    _ => return Some(target),
                }
            }
            Some(current)
        };
        let mut edges = vec![Vec::new(); sources.len()];
        for (file, paths) in named.iter().enumerate() {
            let Some(own) = &modules[file] else { continue };
            for n in paths {
                let Some(to) = resolve(file, &n.segments, &n.inline) else {
                    continue;
                };
                let below = modules[to]
                    .as_ref()
                    .is_some_and(|m| m.len() > own.len() && m.starts_with(own));
                if to != file && !below && !edges[file].iter().any(|&(t, _)| t == to) {
                    edges[file].push((to, n.line));
                }
            }
        }
        ImportGraph {
            files: sources.iter().map(|(rel, _)| rel.clone()).collect(),
            edges,
        }
    }

    /// The shortest way from `from` back to itself, as files, if there is one.
    fn cycle_through(&self, from: usize) -> Option<Vec<usize>> {
        let mut parent: Vec<Option<usize>> = vec![None; self.files.len()];
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(at) = queue.pop_front() {
            for &(to, _) in &self.edges[at] {
                if to == from {
                    let mut way = vec![at];
                    while let Some(p) = parent[*way.last().unwrap()] {
                        way.push(p);
                    }
                    way.reverse();
                    return Some(way);
                }
                if parent[to].is_none() && to != from {
                    parent[to] = Some(at);
                    queue.push_back(to);
                }
            }
        }
        None
    }

    /// Every circle of imports, once each, as `a.rs:LINE -> b.rs:LINE -> a.rs` (each file with
    /// the line of its first path to the next).
    fn cycles(&self) -> Vec<String> {
        let mut seen = vec![false; self.files.len()];
        let mut out = Vec::new();
        for from in 0..self.files.len() {
            if seen[from] {
                continue;
            }
            let Some(way) = self.cycle_through(from) else {
                continue;
            };
            let mut text = String::new();
            for (i, &at) in way.iter().enumerate() {
                seen[at] = true;
                let next = way.get(i + 1).copied().unwrap_or(from);
                let line = self.edges[at].iter().find(|&&(t, _)| t == next).unwrap().1;
                text += &format!("{}:{line} -> ", self.files[at]);
            }
            text += &self.files[from];
            out.push(text);
        }
        out
    }
}

#[test]
fn the_path_reader_expands_use_trees_and_knows_inline_modules() {
    let src = r#"
use super::{a::B, c as d};
pub use crate::x::{self, y::{Z, *}};
fn f() -> crate::m::T { super::super::g::h(); let s = "crate::no"; self::k() }
#[cfg(test)]
mod tests { use crate::only_in_tests; }
mod inner {
    use super::E;
}
"#;
    let got: Vec<(String, Vec<String>, Option<String>)> = named_paths(src)
        .into_iter()
        .map(|n| (n.segments.join("::"), n.inline, n.binding))
        .collect();
    let s = |x: &str| x.to_string();
    let want = vec![
        (s("super::a::B"), vec![], Some(s("B"))),
        (s("super::c"), vec![], Some(s("d"))),
        (s("crate::x"), vec![], Some(s("x"))),
        (s("crate::x::y::Z"), vec![], Some(s("Z"))),
        (s("crate::x::y"), vec![], None),
        (s("crate::m::T"), vec![], None),
        (s("super::super::g::h"), vec![], None),
        (s("self::k"), vec![], None),
        (s("super::E"), vec![s("inner")], Some(s("E"))),
    ];
    assert_eq!(got, want);
}

/// The import graph on a small tree: a re-export leads to the file that defines the name, a
/// module's use of its own children does not count, and a circle is found with its lines.
#[test]
fn the_import_graph_follows_re_exports_and_finds_circles() {
    let s = |rel: &str, text: &str| (rel.to_string(), text.to_string());
    let tree = [
        s("src/lib.rs", "pub mod a;\npub mod b;\n"),
        s(
            "src/a/mod.rs",
            "mod inner;\npub use inner::Thing;\nuse inner::Other;\n",
        ),
        s("src/a/inner.rs", "use super::Shared;\n"),
        s("src/b.rs", "use crate::a::Thing;\n"),
    ];
    let g = ImportGraph::of(&tree);
    let to = |from: usize| -> Vec<&str> {
        g.edges[from]
            .iter()
            .map(|&(t, _)| g.files[t].as_str())
            .collect()
    };
    assert_eq!(to(3), ["src/a/inner.rs"], "b reaches Thing where it lives");
    assert!(
        to(1).is_empty(),
        "a module's use of its child does not count"
    );
    assert_eq!(to(2), ["src/a/mod.rs"]);
    assert!(g.cycles().is_empty());
    let circle = [
        s("src/lib.rs", "pub mod p;\npub mod q;\n"),
        s("src/p.rs", "use crate::q::f;\n"),
        s("src/q.rs", "\nfn g() { crate::p::h() }\n"),
    ];
    assert_eq!(
        ImportGraph::of(&circle).cycles(),
        ["src/p.rs:1 -> src/q.rs:2 -> src/p.rs"]
    );
}

/// No two files of `src/` import each other, directly or through others: the files can be read
/// (and changed) in an order where each uses only the ones before it. Test items do not count
/// (a test may use what it likes), nor a module's use of its own children.
#[test]
fn no_files_import_each_other() {
    let cycles = ImportGraph::of(&sources("src")).cycles();
    assert!(
        cycles.is_empty(),
        "files of src/ that import each other (each with the line of its import of the next):\n{}",
        cycles.join("\n")
    );
}

/// The rooms of `src/`, from the floor up, by the first segment of their module path: a file
/// may import its own room and the ones below, never one above (a lower room is read, and
/// changed, without the ones above it). `src/pack` stands apart: it uses only
/// [`PACK_MAY_USE`] (checked above) and only the command line uses it. `testkit` is the test
/// kit, which any test may use.
const ROOMS: &[&[&str]] = &[
    &["work", "stop", "error"],
    &["engine"],
    &["io"],
    &["plan"],
    &["encode"],
    &["eval"],
    &["store"],
    &["solve"],
    &["view"],
    &["cli"],
];

/// The room that may use `src/pack`.
const PACK_USED_BY: &str = "cli";

/// Imports upwards allowed for now, as (file, room it imports, reason): none. (`io.rs`, the
/// files at the boundary, sits just above the engine, which is all it imports, so the
/// heuristic's `read_systems` reads its `--weights` file through it.)
const UPWARD_IMPORTS_ALLOWED: &[(&str, &str, &str)] = &[];

/// The imports of `sources` that go up a room ([`ROOMS`]), test items included, as (file,
/// line, room imported); `testkit` imports and is imported freely, and `pack` is checked by
/// its own rule.
fn upward_imports(sources: &[(String, String)]) -> Vec<(String, usize, String)> {
    let graph = ImportGraph::with_tests(sources);
    let room = |file: usize| module_of(&graph.files[file])?.first().cloned();
    let rank = |room: &str| ROOMS.iter().position(|r| r.contains(&room));
    let mut out = Vec::new();
    for (from, edges) in graph.edges.iter().enumerate() {
        let Some(here) = room(from) else { continue };
        if here == "testkit" || here == "pack" {
            continue;
        }
        for &(to, line) in edges {
            let Some(there) = room(to) else { continue };
            let up = match (rank(&here), rank(&there)) {
                _ if there == "testkit" => false,
                _ if there == "pack" => here != PACK_USED_BY,
                (Some(a), Some(b)) => b > a,
                // A room that no list names is a room to add to them.
                _ => true,
            };
            // One line per room imported is enough to find the rest.
            let file = &graph.files[from];
            if up && !out.iter().any(|(f, _, r)| f == file && *r == there) {
                out.push((file.clone(), line, there));
            }
        }
    }
    out
}

/// The room checker on a small tree: a test module's import counts, the test kit and a room
/// below do not, and `pack` is the command line's alone.
#[test]
fn the_room_checker_sees_imports_upwards_in_tests_too() {
    let s = |rel: &str, text: &str| (rel.to_string(), text.to_string());
    let tree = [
        s("src/lib.rs", "pub mod cli;\npub mod encode;\npub mod eval;\npub mod pack;\npub mod plan;\npub mod testkit;\n"),
        s("src/encode.rs", "use crate::plan::f;\n#[cfg(test)]\nmod tests {\n    use crate::eval::g;\n    use crate::testkit::k;\n}\n"),
        s("src/eval.rs", "use crate::encode::h;\nfn g() {}\n"),
        s("src/plan.rs", "fn f() { crate::pack::p() }\n"),
        s("src/cli.rs", "use crate::pack::p;\n"),
        s("src/pack.rs", "fn p() {}\n"),
        s("src/testkit.rs", "use crate::cli::x;\n"),
    ];
    let got = upward_imports(&tree);
    let want = [
        ("src/encode.rs".to_string(), 4, "eval".to_string()),
        ("src/plan.rs".to_string(), 1, "pack".to_string()),
    ];
    assert_eq!(got, want);
}

/// No file of `src/` imports a room above its own ([`ROOMS`]), test code included, but for the
/// imports [`UPWARD_IMPORTS_ALLOWED`] names; and each of those is still made (an exception no
/// longer needed is taken out).
#[test]
fn rooms_import_downwards_only() {
    let found = upward_imports(&sources("src"));
    let wrong: Vec<String> = found
        .iter()
        .filter(|(file, _, room)| {
            !UPWARD_IMPORTS_ALLOWED
                .iter()
                .any(|(f, r, _)| f == file && r == room)
        })
        .map(|(file, line, room)| format!("{file}:{line} imports {room}, a room above its own"))
        .collect();
    assert!(
        wrong.is_empty(),
        "imports upwards (move the code, or what it needs, down; a test's shared helpers go to \
         src/testkit.rs):\n{}",
        wrong.join("\n")
    );
    for (file, room, _) in UPWARD_IMPORTS_ALLOWED {
        assert!(
            found.iter().any(|(f, _, r)| f == file && r == room),
            "{file} no longer imports {room}: take it out of UPWARD_IMPORTS_ALLOWED"
        );
    }
}

/// The rooms where no clock may be read: the planner, its evaluation, the encoders and the
/// policy decide by counted work ([`hextris::work`]), so that a longer run does first what a
/// shorter one does.
/// Only the executor and `src/solve/budget.rs` turn seconds into work; a stop check against a
/// deadline handed in (`crate::stop::passed`) is no reading of the clock here.
const CLOCKLESS: &[&str] = &["src/plan", "src/eval", "src/encode", "src/solve/policy"];

/// Where a file of [`CLOCKLESS`] reads the clock (`Instant::now`, `SystemTime::now`, or
/// `.elapsed()`) outside its tests: none.
#[test]
fn the_search_reads_no_clock() {
    let all = sources("src");
    let tests = test_module_files(&all);
    let mut wrong = Vec::new();
    for (rel, src) in &all {
        let clockless = CLOCKLESS
            .iter()
            .any(|room| rel == &format!("{room}.rs") || rel.starts_with(&format!("{room}/")));
        if !clockless || is_test_file(rel, &tests) {
            continue;
        }
        let toks = outside_tests(&lex(src));
        for w in toks.windows(4) {
            match w {
                [(Tok::Word(t), line), (Tok::Punct(':'), _), (Tok::Punct(':'), _), (Tok::Word(f), _)]
                    if (t == "Instant" || t == "SystemTime") && f == "now" =>
                {
                    wrong.push(format!("{rel}:{line} reads {t}::now"));
                }
                [(Tok::Punct('.'), line), (Tok::Word(f), _), (Tok::Punct('('), _), (Tok::Punct(')'), _)]
                    if f == "elapsed" =>
                {
                    wrong.push(format!("{rel}:{line} reads .elapsed()"));
                }
                _ => {}
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "the search reads the clock (decide by counted work; see src/work.rs):\n{}",
        wrong.join("\n")
    );
}

/// The clock test's scanner finds what it looks for, and skips test items and test files.
#[test]
fn the_clock_scanner_sees_reads_outside_tests_only() {
    let src = "fn f() { let t = std::time::Instant::now(); t.elapsed(); }\n#[cfg(test)]\nmod tests { fn g() { Instant::now(); } }\n#[cfg(test)]\nmod more;\n";
    let toks = outside_tests(&lex(src));
    let words: Vec<&str> = toks
        .iter()
        .filter_map(|(t, _)| match t {
            Tok::Word(w) => Some(w.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(words.iter().filter(|w| **w == "now").count(), 1);
    assert_eq!(words.iter().filter(|w| **w == "elapsed").count(), 1);
    assert!(!words.contains(&"g"));
    let files = vec![("src/a/b.rs".to_string(), src.to_string())];
    assert_eq!(
        test_module_files(&files),
        vec!["src/a/b/more.rs", "src/a/b/more/mod.rs"]
    );
    // A module below a test module is a test file too, whichever way its parent is laid out.
    let tests = test_module_files(&files);
    assert!(is_test_file("src/a/b/more/deeper.rs", &tests));
    assert!(is_test_file("src/a/b/more.rs", &tests));
    assert!(!is_test_file("src/a/b.rs", &tests));
    assert!(!is_test_file("src/a/b/moreover.rs", &tests));
}
