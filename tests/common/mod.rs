//! Helpers shared by the integration tests: where the shared contest data lives.
#![allow(dead_code)]

use std::path::PathBuf;

/// `../shared/icfp2015` beside the checkout, or `None` (with a note on stderr) when it is missing:
/// the project never copies that data in, so tests that need it skip without it.
pub fn icfp_dir(test: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/icfp2015");
    if dir.join("RULES.md").exists() {
        Some(dir)
    } else {
        eprintln!("{test}: SKIPPED, {} is missing", dir.display());
        None
    }
}

/// Reads a JSON file of the shared data.
pub fn read_json(path: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The official problem with this id.
pub fn official_problem(dir: &std::path::Path, id: i64) -> hextris::engine::Problem {
    let path = dir.join(format!("problems/problem_{id}.json"));
    hextris::engine::Problem::load(&path).unwrap()
}
