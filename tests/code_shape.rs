//! The shape of the code, checked as text: no function in `src/` is longer than
//! [`MAX_FUNCTION_LINES`] outside the test modules, and the puzzles of `src/pack` use nothing of
//! the hex game.
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

/// The functions of a source outside `#[cfg(test)]` items, as (name, first line, lines).
fn functions(src: &str) -> Vec<(String, usize, usize)> {
    let toks = lex(src);
    let mut out = Vec::new();
    let mut k = 0;
    while k < toks.len() {
        if is_cfg_test(&toks, k) {
            // Skip the item the attribute applies to: up to its `;` or its braces' end.
            let mut j = k + 7;
            while j < toks.len() && !matches!(toks[j].0, Tok::Punct('{') | Tok::Punct(';')) {
                j += 1;
            }
            k = if toks.get(j).map(|t| &t.0) == Some(&Tok::Punct('{')) {
                closing(&toks, j) + 1
            } else {
                j + 1
            };
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
