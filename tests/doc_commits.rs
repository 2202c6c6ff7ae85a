//! Every commit the documents cite is in the history: README.md and docs/*.md are scanned for
//! commit hashes, and each must name a commit `git cat-file -e HASH^{commit}` finds, so that
//! "check out its commit" works for every figure.
//!
//! A hash is a word of 7 to 40 lowercase hexadecimal digits that holds a letter and a digit
//! (`8ee0925`), or of exactly 7 decimal digits (`0682235`, git's shortest abbreviation) not
//! after "seed " nor "problem ". A word is bounded by characters that are not letters, digits
//! or `_` (so `bench_curve_fa52a25.txt` is a file name, not a citation), and one right after `/`
//! or `#` is part of a path, an address or a colour, not a citation.
//!
//! A commit that was made on a branch and landed squashed is not in the history; a document may
//! still name it, for the figures measured on it, only as `HASH (squashed into COMMIT)` (or
//! `HASH, squashed into COMMIT`; the words may wrap onto the next line), where COMMIT is in the
//! history and holds its work.
//!
//! The test is skipped, with a line on stderr saying why, where the history cannot answer: git
//! is missing, the folder is not a git checkout, or the clone is shallow (its older commits are
//! not there).

use std::path::{Path, PathBuf};
use std::process::Command;

/// One hash a document cites: where, and the text right after it.
#[derive(Debug, PartialEq)]
struct Citation {
    line: usize,
    hash: String,
    after: String,
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whether a word reads as a commit hash (see the module's doc); `before` is the text before it
/// on its line.
fn looks_like_a_hash(word: &str, before: &str) -> bool {
    if !(7..=40).contains(&word.len()) || !word.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f'))
    {
        return false;
    }
    if before.ends_with('/') || before.ends_with('#') {
        return false;
    }
    let letters = word.chars().any(|c| c.is_ascii_alphabetic());
    let digits = word.chars().any(|c| c.is_ascii_digit());
    if letters {
        return digits;
    }
    let before = before.to_ascii_lowercase();
    word.len() == 7 && !before.ends_with("seed ") && !before.ends_with("problem ")
}

/// The hashes a Markdown text cites, in order.
fn citations(text: &str) -> Vec<Citation> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (n, line) in lines.iter().enumerate() {
        let mut start = None;
        let chars: Vec<(usize, char)> = line.char_indices().collect();
        for k in 0..=chars.len() {
            let word_char = chars.get(k).is_some_and(|&(_, c)| is_word(c));
            match (start, word_char) {
                (None, true) => start = Some(k),
                (Some(s), false) => {
                    let from = chars[s].0;
                    let to = chars.get(k).map_or(line.len(), |&(i, _)| i);
                    let word = &line[from..to];
                    if looks_like_a_hash(word, &line[..from]) {
                        // The rest of the line and the next, whitespace folded, since a
                        // paragraph wraps anywhere.
                        let next = lines.get(n + 1).copied().unwrap_or("");
                        let after = format!("{}\n{next}", &line[to..]);
                        let lead = if after.starts_with(char::is_whitespace) {
                            " "
                        } else {
                            ""
                        };
                        let folded = after.split_whitespace().collect::<Vec<_>>().join(" ");
                        out.push(Citation {
                            line: n + 1,
                            hash: word.to_string(),
                            after: format!("{lead}{folded}"),
                        });
                    }
                    start = None;
                }
                _ => {}
            }
        }
    }
    out
}

/// The commit a lost hash says it was squashed into: the text right after the hash is
/// ``[`)]`` then one to three of ` ,(-`, then `squashed into ` (or `squashed-into-`, in an
/// anchor) and the commit, in backticks or not.
fn squashed_into(after: &str) -> Option<String> {
    let rest = after.trim_start_matches(['`', ')']);
    let lead = rest.len() - rest.trim_start_matches([' ', ',', '(', '-']).len();
    if !(1..=3).contains(&lead) {
        return None;
    }
    let rest = &rest[lead..];
    let rest = rest
        .strip_prefix("squashed into ")
        .or_else(|| rest.strip_prefix("squashed-into-"))?;
    let rest = rest.trim_start_matches('`');
    let hash: String = rest.chars().take_while(|c| is_word(*c)).collect();
    looks_like_a_hash(&hash, "").then_some(hash)
}

/// Runs git in the checkout; `None` when it cannot run at all. Git looks for the repository
/// no higher than `root` itself, so that a copy of the sources inside another checkout is not
/// judged by that checkout's history.
fn git(root: &Path, args: &[&str]) -> Option<std::process::Output> {
    let mut cmd = Command::new("git");
    if let Some(parent) = root.parent() {
        cmd.env("GIT_CEILING_DIRECTORIES", parent);
    }
    cmd.arg("-C").arg(root).args(args).output().ok()
}

/// Why the history cannot answer here, if it cannot.
fn no_history(root: &Path) -> Option<String> {
    let Some(out) = git(root, &["rev-parse", "--is-shallow-repository"]) else {
        return Some("git is not installed (or cannot run)".into());
    };
    if !out.status.success() {
        return Some(format!(
            "{} is not a git checkout (no .git): {}",
            root.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    if String::from_utf8_lossy(&out.stdout).trim() == "true" {
        return Some("a shallow clone: the older commits are not in it".into());
    }
    None
}

/// Whether `hash` names a commit of the history.
fn in_history(root: &Path, hash: &str) -> bool {
    git(root, &["cat-file", "-e", &format!("{hash}^{{commit}}")])
        .is_some_and(|out| out.status.success())
}

/// README.md and docs/*.md.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

#[test]
fn every_commit_the_docs_cite_is_in_the_history() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if let Some(why) = no_history(root) {
        eprintln!("doc_commits: skipped: {why}");
        return;
    }
    let mut known = std::collections::HashMap::new();
    let mut in_git = |hash: &str| {
        *known
            .entry(hash.to_string())
            .or_insert_with(|| in_history(root, hash))
    };
    let mut cited = 0;
    let mut bad = Vec::new();
    for path in documents(root) {
        let text = std::fs::read_to_string(&path).expect("a document reads");
        let name = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        for c in citations(&text) {
            cited += 1;
            if in_git(&c.hash) {
                continue;
            }
            match squashed_into(&c.after) {
                Some(into) if in_git(&into) => {}
                Some(into) => bad.push(format!(
                    "{name}:{}: {} is said to be squashed into {into}, which is not in the \
                     history either",
                    c.line, c.hash
                )),
                None => bad.push(format!(
                    "{name}:{}: {} is not a commit of the history (`git log`); cite the commit \
                     that holds its work, or write `{} (squashed into COMMIT)`",
                    c.line, c.hash, c.hash
                )),
            }
        }
    }
    // The scan found the citations it should, so that a change of the documents' style cannot
    // make this test pass empty.
    assert!(
        cited >= 50,
        "only {cited} commit hashes found in the documents"
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The scanner on made-up text: what it takes for a citation and what it leaves.
#[test]
fn the_scanner_finds_citations_and_leaves_numbers_words_and_paths() {
    let text = "at commit 8ee0925 (2026-11-26); 0682235, the last; `e403bc3`\n\
                bench_curve_fa52a25.txt, #1f77b4ff, a/b/c91a8110, defaced, seed 2448044822,\n\
                seed 1234567, parallel 20221122, 9602 and 1,588,991; on 2682426.\n\
                fa52a25 (squashed into 09756c0) and [x](r.md#time-b918089-squashed-into-09756c0)\n\
                at 67944d0\n\
                (squashed\n\
                into 09756c0).";
    let found: Vec<(usize, String)> = citations(text)
        .into_iter()
        .map(|c| (c.line, c.hash))
        .collect();
    let expected = [
        (1, "8ee0925"),
        (1, "0682235"),
        (1, "e403bc3"),
        (3, "2682426"),
        (4, "fa52a25"),
        (4, "09756c0"),
        (4, "b918089"),
        (4, "09756c0"),
        (5, "67944d0"),
        (7, "09756c0"),
    ]
    .map(|(l, h)| (l, h.to_string()));
    assert_eq!(found, expected);
    let c = citations(text);
    assert_eq!(squashed_into(&c[4].after).as_deref(), Some("09756c0"));
    assert_eq!(squashed_into(&c[6].after).as_deref(), Some("09756c0"));
    assert_eq!(squashed_into(&c[0].after), None);
    // The marker wrapped onto the next line counts; two lines down it does not.
    assert_eq!(c[8].hash, "67944d0");
    assert_eq!(squashed_into(&c[8].after), None);
    assert_eq!(
        squashed_into(" (squashed into 09756c0)."),
        Some("09756c0".into())
    );
    assert_eq!(
        squashed_into(", squashed into `09756c0`"),
        Some("09756c0".into())
    );
    assert_eq!(squashed_into(" was squashed into 09756c0"), None);
    let wrapped = citations("at 88d7703\n(squashed into 09756c0), then");
    assert_eq!(squashed_into(&wrapped[0].after).as_deref(), Some("09756c0"));
}

/// The test skips where the history cannot answer: a shallow clone of this checkout, and a
/// folder that is not a checkout.
#[test]
fn a_shallow_clone_or_a_folder_without_git_is_skipped() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if let Some(why) = no_history(root) {
        eprintln!("doc_commits: skipped: {why}");
        return;
    }
    let base = std::env::temp_dir().join(format!("hextris_doc_commits_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).expect("a temporary folder");
    let plain = base.join("plain");
    std::fs::create_dir_all(&plain).expect("a folder");
    let shallow = base.join("shallow");
    let url = format!("file://{}", root.display());
    let cloned = git(
        &base,
        &[
            "clone",
            "-q",
            "--depth",
            "1",
            "--no-checkout",
            &url,
            "shallow",
        ],
    )
    .expect("git runs");
    assert!(cloned.status.success(), "{cloned:?}");
    let (shallow_why, plain_why) = (no_history(&shallow), no_history(&plain));
    let _ = std::fs::remove_dir_all(&base);
    assert!(
        shallow_why
            .as_deref()
            .is_some_and(|w| w.contains("shallow")),
        "{shallow_why:?}"
    );
    assert!(
        plain_why
            .as_deref()
            .is_some_and(|w| w.contains("not a git checkout")),
        "{plain_why:?}"
    );
}
