//! Golden solver runs: `hextris solve --attempts N` is deterministic to the character, so its
//! total score and a hash of its JSON output are pinned on a few problems. A refactoring must keep
//! both; a change to the solver that moves them must say so by updating the table below (each
//! failure prints the expected and the obtained values, and the line to paste).
//!
//! The scores are checked twice: the solver's own summary and `hextris score` on its output.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// One pinned run: a label, the problem files, the attempts per seed, and what it must give.
struct Golden {
    label: &'static str,
    files: Vec<PathBuf>,
    attempts: u32,
    total: u64,
    hash: u64,
}

/// FNV-1a, 64 bits: a stable hash (the standard library's hasher may change between releases).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The total of the summary that `hextris solve` prints on stderr (`total N`).
fn reported_total(stderr: &str) -> u64 {
    stderr
        .lines()
        .find_map(|l| l.strip_prefix("total "))
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or_else(|| panic!("no total line in the solver's stderr:\n{stderr}"))
}

/// Runs the pinned cases; returns a description of each mismatch (empty when all agree).
fn check(test: &str, cases: &[Golden]) -> Vec<String> {
    // A folder per test: the tests run at once.
    let dir = std::env::temp_dir().join(format!("hextris-golden-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut wrong = Vec::new();
    for g in cases {
        let out = dir.join(format!("{}.json", g.label));
        let o = Command::new(env!("CARGO_BIN_EXE_hextris"))
            .arg("solve")
            .args(&g.files)
            .args(["--attempts", &g.attempts.to_string(), "-o"])
            .arg(&out)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{}: {stderr}", g.label);
        let json = std::fs::read(&out).unwrap();
        let total = reported_total(&stderr);
        let hash = fnv1a(&json);

        // The evaluator agrees with the solver's own total.
        let mut score = Command::new(env!("CARGO_BIN_EXE_hextris"));
        score.arg("score").arg(&out).arg("--json");
        for f in &g.files {
            score.arg("-f").arg(f);
        }
        let s = score.output().unwrap();
        assert_eq!(s.status.code(), Some(0), "{}", g.label);
        let v: serde_json::Value = serde_json::from_slice(&s.stdout).unwrap();
        assert_eq!(
            v["total"].as_u64(),
            Some(total),
            "{}: score vs solve",
            g.label
        );

        if (total, hash) != (g.total, g.hash) {
            wrong.push(format!(
                "{}: expected total {} hash {:#018x}, got total {} hash {:#018x} \
                 (to accept: total: {}, hash: {:#018x})",
                g.label, g.total, g.hash, total, hash, total, hash
            ));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    wrong
}

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

#[test]
fn golden_runs_on_the_sample_problems() {
    let cases = [
        Golden {
            label: "sample_hex",
            files: vec![repo("problems/sample_hex.json")],
            attempts: 4,
            total: 14569,
            hash: 0xc0f1_3ff7_e71c_da54,
        },
        Golden {
            label: "sample_wide",
            files: vec![repo("problems/sample_wide.json")],
            attempts: 4,
            total: 16784,
            hash: 0x15f1_ccae_9ffd_11a4,
        },
    ];
    let wrong = check("samples", &cases);
    assert!(
        wrong.is_empty(),
        "golden runs differ:\n{}",
        wrong.join("\n")
    );
}

#[test]
#[cfg_attr(no_shared_icfp, ignore = "needs ../shared/icfp2015")]
fn golden_runs_on_official_problems() {
    let dir = common::icfp_dir();
    let p = |id: u32| dir.join(format!("problems/problem_{id}.json"));
    let cases = [
        Golden {
            label: "official_0",
            files: vec![p(0)],
            attempts: 4,
            total: 13047,
            hash: 0xe6a9_dc92_aa49_9ac5,
        },
        // Re-pinned on branch i36-survival (after the merge of issue 35's encoder): every other
        // attempt of a seed whose best game ends before its source does now plans with the
        // survival system `survive` (problem 13, whose games all end after 11 or 12 of its 100
        // units: 13,164 -> 13,156 for the three problems; problem 11, whose first games end
        // early on some seeds: 8,019 -> 8,098). The other cases keep main's values. Re-pinned
        // on branch i36-fit: every attempt of such a seed, not every other, now plans with
        // `survive` (`survival_every` 1): 13,156 -> 12,712 (problem 13, whose games never
        // last its source, loses the other systems' games) and 8,098 -> 8,088. Re-pinned for
        // issue 44: the survival systems plan without the phrase valuer (`survival_valuer`
        // false; problem 11's survival attempts of its seeds whose first games die early):
        // 8,088 -> 8,077, the other cases unchanged. Re-pinned again for issue 44: the same
        // games, but a survival attempt is tagged `survive`, no longer `survive/words`, since
        // it values no phrase (the hash covers the tags; official_11's one survival game).
        // Re-pinned for issue 44's eighth session: every other dying attempt plans with the
        // survival systems again (`survival_every` 2), so problem 13 gets the other systems'
        // games back: 12,712 -> 13,156, and problem 11 8,077 -> 8,087. Re-pinned for issue 71's
        // twenty-seventh session: `balanced` and `fill` tuned again for whole games (other
        // games): 13,156 -> 13,152 and 8,087 -> 8,062.
        Golden {
            label: "official_1_13_21",
            files: vec![p(1), p(13), p(21)],
            attempts: 4,
            total: 13152,
            hash: 0xf397_f4a9_178d_8c4b,
        },
        Golden {
            label: "official_11",
            files: vec![p(11)],
            attempts: 3,
            total: 8062,
            hash: 0x975f_4bce_986b_719c,
        },
    ];
    let wrong = check("official", &cases);
    assert!(
        wrong.is_empty(),
        "golden runs differ:\n{}",
        wrong.join("\n")
    );
}
