//! The original program's ten tests (`../shared/pack/drop/test_cases.json`): the canonical optimum
//! must give exactly the expected columns, rotations and heights. The data is read from the shared
//! folder beside the repository; when it is missing the test says it skipped.

use hextris::pack::drop::{permutation_line, simulate, solve, stack_height, Problem};
use std::path::PathBuf;
use std::process::Command;

fn shared(rel: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/pack")
        .join(rel);
    // The tests that call this are ignored when the data is missing (build.rs); run anyway,
    // they fail rather than pass empty.
    assert!(p.exists(), "{} is missing", p.display());
    Some(p)
}

#[test]
#[cfg_attr(no_shared_pack, ignore = "needs ../shared/pack")]
fn the_ten_original_tests_give_the_expected_placements() {
    let Some(path) = shared("drop/test_cases.json") else {
        eprintln!("skipped: ../shared/pack/drop/test_cases.json is missing");
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let tests = doc["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 10);
    for t in tests {
        let seq = t["sequence"].as_str().unwrap();
        let width = t["grid_width"].as_u64().unwrap() as usize;
        let rot = t["allow_rotation"].as_bool().unwrap();
        let cols: Vec<usize> = t["expected_columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        let rots: Vec<usize> = t["expected_rotation_indices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        let degs: Vec<usize> = t["expected_rotations_deg_acw"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        let height = t["min_stack_height"].as_u64().unwrap() as usize;
        let problem = Problem::new(seq, width, rot).unwrap();
        let sol = solve(&problem);
        let got_cols: Vec<usize> = sol.placements.iter().map(|p| p.column).collect();
        let got_rots: Vec<usize> = sol.placements.iter().map(|p| p.rotation).collect();
        let got_degs: Vec<usize> = sol.placements.iter().map(|p| p.rotation * 90).collect();
        let name = format!("test {} ({seq})", t["test"]);
        assert_eq!(sol.height, height, "{name}: height");
        assert_eq!(got_cols, cols, "{name}: columns");
        assert_eq!(got_rots, rots, "{name}: rotation indices");
        assert_eq!(got_degs, degs, "{name}: degrees");
        // The height the solver claims is the height the placements really leave.
        assert_eq!(stack_height(width, &sol.placements), Some(height), "{name}");
        assert!(simulate(width, &sol.placements).is_some());
    }
}

#[test]
fn cli_prints_grid_summary_and_json() {
    let exe = env!("CARGO_BIN_EXE_hextris");
    let out = Command::new(exe)
        .args(["pack", "drop", "ZOZS", "--width", "6"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Best permutation: Z:0(0) O:0(0) Z:2(0) S:2(0)"),
        "{text}"
    );
    assert!(text.contains("Minimum stack height: 4"), "{text}");
    // Four grid rows, the floor, and the two summary lines.
    assert_eq!(text.lines().count(), 7, "{text}");

    let out = Command::new(exe)
        .args([
            "pack",
            "drop",
            "ZISS",
            "--width",
            "6",
            "--rotations",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["height"], 3);
    assert_eq!(v["placements"][0]["piece"], "Z");
    assert_eq!(v["placements"][0]["column"], 4);
    assert_eq!(v["placements"][0]["rotation"], 1);
    let p = Problem::new("ZISS", 6, true).unwrap();
    assert_eq!(
        permutation_line(&solve(&p).placements),
        "Best permutation: Z:4(90) I:0(90) S:2(0) S:0(0)"
    );
}

#[test]
fn cli_bad_input_is_one_line_and_exit_code_2() {
    let exe = env!("CARGO_BIN_EXE_hextris");
    for args in [
        vec!["pack", "drop", "ZQS", "--width", "6"],
        vec!["pack", "drop", "TTT", "--width", "2"],
        vec!["pack", "drop", "TTT", "--width", "40"],
    ] {
        let out = Command::new(exe).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("SEQUENCE") || err.contains("--width"), "{err}");
    }
}

mod property {
    use hextris::pack::drop::{solve, stack_height, Piece, Placement, Problem};
    use proptest::prelude::*;

    fn problem() -> impl Strategy<Value = Problem> {
        (
            prop::collection::vec(0usize..7, 1..9),
            4usize..9,
            any::<bool>(),
        )
            .prop_map(|(idx, width, rotations)| {
                let seq: String = idx.iter().map(|&i| Piece::ALL[i].letter()).collect();
                Problem::new(&seq, width, rotations).unwrap()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// No random placement vector ends lower than the optimum, and the optimum's placements
        /// really leave the height claimed.
        #[test]
        fn optimum_is_never_beaten_by_a_random_placement(p in problem(), choices in prop::collection::vec((0usize..4, 0usize..16), 8)) {
            let best = solve(&p);
            prop_assert_eq!(stack_height(p.width, &best.placements), Some(best.height));
            let random: Vec<Placement> = p
                .pieces
                .iter()
                .zip(&choices)
                .map(|(&piece, &(r, c))| {
                    let rots = piece.rotations();
                    let rotation = if p.rotations { r % rots.len() } else { 0 };
                    let column = c % (p.width - rots[rotation].width + 1);
                    Placement { piece, column, rotation }
                })
                .collect();
            let h = stack_height(p.width, &random).unwrap();
            prop_assert!(h >= best.height, "random {h} < optimum {}", best.height);
        }
    }
}
