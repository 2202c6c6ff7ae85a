//! `hextris pack square`: the original's 20 instances and the organisers' 12 x 13 example, read
//! from `../shared/pack/square/` (skipped with a message when that directory is missing), the
//! command line's exit codes, and a property test on random tilings.

use hextris::pack::square::shapes::Figure;
use hextris::pack::square::{check, parse_instance, solve, Instance, Piece, Verdict};
use proptest::prelude::*;
use std::path::PathBuf;
use std::process::Command;

fn shared() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/pack/square");
    if dir.is_dir() {
        Some(dir)
    } else {
        // The tests that call this are ignored when the data is missing (build.rs); run
        // anyway, they fail rather than pass empty.
        panic!("{} is missing", dir.display())
    }
}

fn hextris() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hextris"))
}

fn tmp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hextris-pack-square-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
#[cfg_attr(no_shared_pack, ignore = "needs ../shared/pack")]
fn every_original_instance_is_solved_and_valid() {
    let Some(dir) = shared() else { return };
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("instances.json")).unwrap())
            .unwrap();
    let list = doc["instances"].as_array().unwrap();
    assert_eq!(list.len(), 20);
    for item in list {
        let inst = parse_instance(item).unwrap();
        match solve(&inst, None) {
            Verdict::Solved(pieces) => {
                assert_eq!(
                    check(&inst, &pieces),
                    Vec::<String>::new(),
                    "{}",
                    item["name"]
                );
                assert_eq!(pieces.len() * 4, inst.width * inst.height);
            }
            v => panic!("{}: {v:?}", item["name"]),
        }
    }
}

#[test]
#[cfg_attr(no_shared_pack, ignore = "needs ../shared/pack")]
fn cli_solves_then_checks_test8() {
    let Some(dir) = shared() else { return };
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("instances.json")).unwrap())
            .unwrap();
    let test8 = doc["instances"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == "test8")
        .unwrap();
    let input = tmp("test8.json", &test8.to_string());
    let out = hextris()
        .args(["pack", "square"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answer = tmp("test8.answer.json", &String::from_utf8(out.stdout).unwrap());
    let out = hextris()
        .args(["pack", "square"])
        .arg(&input)
        .arg("--check")
        .arg(&answer)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("valid: 225 pieces"));
}

#[test]
#[cfg_attr(no_shared_pack, ignore = "needs ../shared/pack")]
fn the_organisers_example_validates_and_solves() {
    let Some(dir) = shared() else { return };
    let path = dir.join("example_12x13.json");
    // Its own "solution" field, with and without naming the file twice.
    for extra in [vec![], vec![path.clone()]] {
        let out = hextris()
            .args(["pack", "square"])
            .arg(&path)
            .arg("--check")
            .args(&extra)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "valid: 39 pieces tile the 12 x 13 board exactly\n"
        );
    }
    // Solving the 12 wide x 13 high rectangle gives a valid answer too.
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let inst = parse_instance(&doc).unwrap();
    assert_eq!((inst.width, inst.height), (12, 13));
    let Verdict::Solved(p) = solve(&inst, None) else {
        panic!("12 x 13 is solvable")
    };
    assert!(check(&inst, &p).is_empty());
}

#[test]
#[cfg_attr(no_shared_pack, ignore = "needs ../shared/pack")]
fn a_broken_answer_is_explained() {
    let Some(dir) = shared() else { return };
    let path = dir.join("example_12x13.json");
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    // Turn the first piece (["I", 1, 0, 0]) upright: it now overlaps and leaves holes.
    doc["solution"][0][1] = 0.into();
    let answer = tmp("broken.json", &doc["solution"].to_string());
    let out = hextris()
        .args(["pack", "square"])
        .arg(&path)
        .arg("--check")
        .arg(&answer)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("invalid:"), "{text}");
    assert!(text.contains("already covered by piece"), "{text}");
    assert!(text.contains("not covered"), "{text}");
}

#[test]
fn impossible_and_malformed_inputs() {
    let cases = [
        (
            r#"{"size": 5, "signature": "I6"}"#,
            1,
            "impossible: the signature has 6 pieces",
        ),
        (r#"{"size": 7, "signature": "O12"}"#, 1, "impossible"),
        (
            r#"{"size": 6, "signature": "T1,O4,S4"}"#,
            1,
            "impossible: 1 T pieces",
        ),
        (
            r#"{"size": 4, "signature": "S4"}"#,
            1,
            "impossible: the search is exhausted",
        ),
        (
            r#"{"size": 8, "signature": "S8,Z8"}"#,
            1,
            "impossible: the search is exhausted",
        ),
    ];
    for (i, (json, code, start)) in cases.iter().enumerate() {
        let p = tmp(&format!("case{i}.json"), json);
        let out = hextris().args(["pack", "square"]).arg(&p).output().unwrap();
        assert_eq!(out.status.code(), Some(*code), "{json}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.starts_with(start), "{json}: {text}");
    }
    for (i, json) in [
        r#"{"size": 4, "signature": "Q4"}"#,
        r#"{"size": 4"#,
        r#"{"size": 0, "signature": ""}"#,
        r#"{"size": 4, "signature": "I2,I2"}"#,
    ]
    .iter()
    .enumerate()
    {
        let p = tmp(&format!("bad{i}.json"), json);
        let out = hextris().args(["pack", "square"]).arg(&p).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{json}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(&format!("bad{i}.json")), "{err}");
    }
}

#[test]
fn a_200_by_200_square() {
    let inst = Instance {
        width: 200,
        height: 200,
        counts: [1600, 1500, 1500, 1400, 1400, 1400, 1200],
    };
    let Verdict::Solved(p) = solve(&inst, None) else {
        panic!("solvable")
    };
    assert!(check(&inst, &p).is_empty());
}

#[test]
fn single_figure_squares_up_to_200() {
    // All L, or all T: hard for the whole-board search, easy block by block.
    for (n, counts) in [
        (200, [0, 0, 10000, 0, 0, 0, 0]),
        (100, [0, 0, 0, 0, 0, 2500, 0]),
    ] {
        let inst = Instance {
            width: n,
            height: n,
            counts,
        };
        let Verdict::Solved(p) = solve(&inst, None) else {
            panic!("{n} x {n} {counts:?} is tileable")
        };
        assert!(check(&inst, &p).is_empty());
    }
}

/// A random tiling of a w x h board, by a naive backtracking filler independent of the solver:
/// first empty cell in row-major order, the 19 fixed shapes in a random order. `None` if it
/// takes too long.
fn random_tiling(w: usize, h: usize, seed: u64) -> Option<Vec<Piece>> {
    use rand::{seq::SliceRandom, SeedableRng};
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let all: Vec<(Figure, usize)> = Figure::ALL
        .iter()
        .flat_map(|&f| (0..f.angles().len()).map(move |a| (f, a)))
        .collect();
    let mut grid = vec![false; w * h];
    let mut out = Vec::new();
    let mut budget = 200_000u32;
    fn go(
        grid: &mut Vec<bool>,
        w: usize,
        h: usize,
        all: &[(Figure, usize)],
        rng: &mut rand_pcg::Pcg64Mcg,
        out: &mut Vec<Piece>,
        budget: &mut u32,
    ) -> bool {
        let Some(c) = grid.iter().position(|&g| !g) else {
            return true;
        };
        let (cx, cy) = (c % w, c / w);
        let mut order = all.to_vec();
        order.shuffle(rng);
        for (f, a) in order {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            let shape = f.angles()[a];
            // The shape's first cell (row-major) goes on the empty cell.
            let (fx, fy) = (shape.cells[0].0 as usize, shape.cells[0].1 as usize);
            if cx < fx {
                continue;
            }
            let (x0, y0) = (cx - fx, cy - fy);
            let cells: Vec<usize> = shape
                .cells
                .iter()
                .map(|&(dx, dy)| (x0 + dx as usize, y0 + dy as usize))
                .filter(|&(x, y)| x < w && y < h)
                .map(|(x, y)| y * w + x)
                .collect();
            if cells.len() < 4 || cells.iter().any(|&i| grid[i]) {
                continue;
            }
            cells.iter().for_each(|&i| grid[i] = true);
            out.push(Piece {
                figure: f,
                angle: a,
                x: x0,
                y: y0,
            });
            if go(grid, w, h, all, rng, out, budget) {
                return true;
            }
            out.pop();
            cells.iter().for_each(|&i| grid[i] = false);
        }
        false
    }
    go(&mut grid, w, h, &all, &mut rng, &mut out, &mut budget).then_some(out)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Tile a random board at random, keep only the multiset: the solver must find a tiling
    /// that the validator accepts, and the validator must accept the original tiling in any
    /// order and refuse it with one piece moved.
    #[test]
    fn random_tilings_are_found_again(w in 2usize..11, h in 2usize..11, seed in any::<u64>(), shift in 0usize..64) {
        prop_assume!((w * h) % 4 == 0);
        let tiling = random_tiling(w, h, seed);
        prop_assume!(tiling.is_some());
        let mut tiling = tiling.unwrap();
        let mut counts = [0u32; 7];
        for p in &tiling {
            counts[p.figure as usize] += 1;
        }
        let inst = Instance { width: w, height: h, counts };
        prop_assert!(check(&inst, &tiling).is_empty());
        let n = tiling.len();
        tiling.rotate_left(shift % n);
        prop_assert!(check(&inst, &tiling).is_empty());
        tiling[0].x += 1;
        prop_assert!(!check(&inst, &tiling).is_empty());
        match solve(&inst, None) {
            Verdict::Solved(p) => prop_assert_eq!(check(&inst, &p), Vec::<String>::new()),
            v => prop_assert!(false, "{}x{} {:?}: {:?}", w, h, counts, v),
        }
    }
}
