//! Helpers shared by the integration tests: where the shared contest data lives.
#![allow(dead_code)]

use std::path::PathBuf;

/// `../shared/icfp2015` beside the checkout. The project never copies that data in: the tests
/// that need it carry `#[cfg_attr(no_shared_icfp, ignore = "needs ../shared/icfp2015")]`
/// (`build.rs` sets that cfg when the folder is missing), so without it they are reported as
/// ignored, with the reason; run anyway (`--ignored`), they fail here rather than pass empty.
pub fn icfp_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/icfp2015");
    assert!(
        dir.join("RULES.md").exists(),
        "{} is missing: this test needs the official contest data",
        dir.display()
    );
    dir
}

/// Reads a JSON file of the shared data.
pub fn read_json(path: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The official problem with this id.
pub fn official_problem(dir: &std::path::Path, id: i64) -> hextris::engine::Problem {
    let path = dir.join(format!("problems/problem_{id}.json"));
    hextris::io::read_problem(&path).unwrap()
}
