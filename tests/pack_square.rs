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

/// The plain reference of PUZZLES.md puzzle 1 and differential tests against it.
mod reference {
    use hextris::pack::square::shapes::Figure;
    use hextris::pack::square::{check, parse_instance, solve, Instance, Piece, Verdict};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;
    use std::time::Instant;

    /// The angle table of PUZZLES.md puzzle 1, copied from the text, in signature order
    /// (I, J, L, O, S, T, Z): angle k is k quarter turns clockwise, rows top to bottom.
    const TABLE: [&[&str]; 7] = [
        &["#/#/#/#", "####"],
        &[".#/.#/##", "#../###", "##/#./#.", "###/..#"],
        &["#./#./##", "###/#..", "##/.#/.#", "..#/###"],
        &["##/##"],
        &[".##/##.", "#./##/.#"],
        &["###/.#.", ".#/##/.#", ".#./###", "#./##/#."],
        &["##./.##", ".#/##/#."],
    ];

    /// A picture's cells (x, y), y down, in reading order.
    fn cells(picture: &str) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (y, row) in picture.split('/').enumerate() {
            for (x, ch) in row.chars().enumerate() {
                if ch == '#' {
                    out.push((x, y));
                }
            }
        }
        out
    }

    /// The validator, stated plainly: every angle in the table, every cell inside the board,
    /// no cell twice, every cell once, and the figures exactly the counts.
    pub fn valid(w: usize, h: usize, counts: &[u32; 7], pieces: &[Piece]) -> bool {
        let mut covered = vec![0u32; w * h];
        let mut used = [0u32; 7];
        for p in pieces {
            let f = p.figure as usize;
            used[f] += 1;
            let Some(picture) = TABLE[f].get(p.angle) else {
                return false;
            };
            for (dx, dy) in cells(picture) {
                let (Some(x), Some(y)) = (p.x.checked_add(dx), p.y.checked_add(dy)) else {
                    return false;
                };
                if x >= w || y >= h {
                    return false;
                }
                covered[y * w + x] += 1;
            }
        }
        covered.iter().all(|&c| c == 1) && used == *counts
    }

    /// Exhaustive search: the first empty cell in reading order is covered by some figure
    /// left, at some angle, placed so that its first cell in reading order lands there (any
    /// covering piece has all its other cells later, so no tiling is missed).
    pub fn tileable(w: usize, h: usize, counts: &[u32; 7]) -> bool {
        fn go(grid: &mut Vec<bool>, w: usize, h: usize, counts: &mut [u32; 7]) -> bool {
            let Some(i) = grid.iter().position(|&g| !g) else {
                return counts.iter().all(|&c| c == 0);
            };
            let (x, y) = (i % w, i / w);
            for f in 0..7 {
                if counts[f] == 0 {
                    continue;
                }
                for picture in TABLE[f] {
                    let cs = cells(picture);
                    let (fx, fy) = cs[0];
                    let spots: Option<Vec<usize>> = cs
                        .iter()
                        .map(|&(cx, cy)| {
                            let (u, v) = ((x + cx).checked_sub(fx)?, y + cy - fy);
                            (u < w && v < h && !grid[v * w + u]).then_some(v * w + u)
                        })
                        .collect();
                    let Some(spots) = spots else { continue };
                    spots.iter().for_each(|&s| grid[s] = true);
                    counts[f] -= 1;
                    let ok = go(grid, w, h, counts);
                    counts[f] += 1;
                    spots.iter().for_each(|&s| grid[s] = false);
                    if ok {
                        return true;
                    }
                }
            }
            false
        }
        let pieces: u32 = counts.iter().sum();
        4 * pieces as usize == w * h && go(&mut vec![false; w * h], w, h, &mut counts.clone())
    }

    fn assert_agrees(w: usize, h: usize, counts: [u32; 7]) -> bool {
        let inst = Instance {
            width: w,
            height: h,
            counts,
        };
        let want = tileable(w, h, &counts);
        match solve(&inst, None) {
            Verdict::Solved(p) => {
                assert!(
                    want,
                    "{w}x{h} {counts:?}: hextris tiles what the reference cannot"
                );
                assert!(
                    valid(w, h, &counts, &p),
                    "{w}x{h} {counts:?}: invalid tiling {p:?}"
                );
            }
            Verdict::Impossible(why) => {
                assert!(!want, "{w}x{h} {counts:?}: hextris says impossible ({why})")
            }
            Verdict::Undecided => panic!("{w}x{h} {counts:?}: undecided without a limit"),
        }
        want
    }

    /// Random counts of `pieces` pieces.
    fn random_counts(rng: &mut Pcg64Mcg, pieces: usize, figures: &[usize]) -> [u32; 7] {
        let mut counts = [0u32; 7];
        for _ in 0..pieces {
            counts[figures[rng.gen_range(0..figures.len())]] += 1;
        }
        counts
    }

    /// Differential: random boards of area 4 to 32 (sides 1 to 8) with random signatures of the
    /// right area, so that both answers are common; and a few with the wrong area.
    #[test]
    fn differential_random_boards() {
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        let start = Instant::now();
        let (mut cases, mut yes) = (0, 0);
        let all: Vec<usize> = (0..7).collect();
        while cases < 3000 {
            let (w, h) = (rng.gen_range(1..=8), rng.gen_range(1..=8));
            if w * h > 32 || w * h < 4 {
                continue;
            }
            let pieces = if w * h % 4 == 0 && rng.gen_bool(0.9) {
                w * h / 4
            } else {
                (w * h / 4).max(1)
            };
            // Sometimes only two or three figures, repeated.
            let figures: Vec<usize> = if rng.gen_bool(0.3) {
                (0..rng.gen_range(1..=3))
                    .map(|_| rng.gen_range(0..7))
                    .collect()
            } else {
                all.clone()
            };
            let counts = random_counts(&mut rng, pieces, &figures);
            yes += usize::from(assert_agrees(w, h, counts));
            cases += 1;
        }
        eprintln!(
            "square random boards: {cases} cases ({yes} tileable) in {:.2} s",
            start.elapsed().as_secs_f64()
        );
    }

    /// Differential: the largest boards the reference decides quickly, 6 x 6 and 4 x 10 (9 and
    /// 10 pieces), where impossible signatures take the reference a full exhaustion.
    #[test]
    fn differential_larger_boards() {
        let mut rng = Pcg64Mcg::seed_from_u64(11);
        let start = Instant::now();
        let (mut cases, mut yes) = (0, 0);
        let all: Vec<usize> = (0..7).collect();
        for (w, h, count) in [(6, 6, 150), (4, 10, 100), (10, 4, 100), (2, 16, 50)] {
            for _ in 0..count {
                let counts = random_counts(&mut rng, w * h / 4, &all);
                yes += usize::from(assert_agrees(w, h, counts));
                cases += 1;
            }
        }
        eprintln!(
            "square larger boards: {cases} cases ({yes} tileable) in {:.2} s",
            start.elapsed().as_secs_f64()
        );
    }

    /// Differential on answers: a tiling found by hextris, then broken at random (an angle out
    /// of the table, a piece moved or turned, one dropped or repeated, a figure changed, a
    /// coordinate off the board); `check` accepts exactly what the plain validator accepts.
    #[test]
    fn differential_answer_checking() {
        let mut rng = Pcg64Mcg::seed_from_u64(111);
        let start = Instant::now();
        let mut cases = 0;
        while cases < 4000 {
            let (w, h) = (rng.gen_range(2..=8), rng.gen_range(2..=8));
            if w * h % 4 != 0 {
                continue;
            }
            let counts = random_counts(&mut rng, w * h / 4, &(0..7).collect::<Vec<_>>());
            let inst = Instance {
                width: w,
                height: h,
                counts,
            };
            let Verdict::Solved(mut p) = solve(&inst, None) else {
                continue;
            };
            for _ in 0..rng.gen_range(0..=2) {
                let i = rng.gen_range(0..p.len());
                match rng.gen_range(0..7) {
                    0 => p[i].angle = rng.gen_range(0..6),
                    1 => p[i].x = rng.gen_range(0..w + 2),
                    2 => p[i].y = rng.gen_range(0..h + 2),
                    3 => {
                        p.remove(i);
                    }
                    4 => p.push(p[i]),
                    5 => p[i].figure = Figure::ALL[rng.gen_range(0..7)],
                    _ => p[i].x = usize::MAX - rng.gen_range(0..4),
                }
                if p.is_empty() {
                    break;
                }
            }
            assert_eq!(
                check(&inst, &p).is_empty(),
                valid(w, h, &counts, &p),
                "{w}x{h} {counts:?} {p:?}: {:?}",
                check(&inst, &p)
            );
            cases += 1;
        }
        eprintln!(
            "square answer checking: {cases} cases in {:.2} s",
            start.elapsed().as_secs_f64()
        );
    }

    /// The instance rules, stated plainly: an object with `size`, or `width` and `height`
    /// (never both), each an integer in 1..=200, and a `signature` string of comma-separated
    /// items `FIGURE COUNT` (spaces around items allowed, each figure at most once, counts that
    /// fit 32 bits), or a blank signature for no pieces.
    fn instance_ok(doc: &serde_json::Value) -> Option<Instance> {
        let obj = doc.as_object()?;
        let side = |k: &str| -> Option<Option<usize>> {
            match obj.get(k) {
                None => Some(None),
                Some(v) => {
                    let n = v.as_u64()?;
                    (1..=200).contains(&n).then_some(Some(n as usize))
                }
            }
        };
        let (width, height) = match (side("size")?, side("width")?, side("height")?) {
            (Some(n), None, None) => (n, n),
            (None, Some(w), Some(h)) => (w, h),
            _ => return None,
        };
        let sig = obj.get("signature")?.as_str()?;
        let mut counts = [0u32; 7];
        let mut seen = [false; 7];
        if !sig.trim().is_empty() {
            for item in sig.split(',') {
                let item = item.trim();
                let f = "IJLOSTZ".find(item.chars().next()?)?;
                let digits = &item[1..];
                if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) || seen[f] {
                    return None;
                }
                seen[f] = true;
                counts[f] = digits.parse().ok()?;
            }
        }
        Some(Instance {
            width,
            height,
            counts,
        })
    }

    /// Differential on instances: random documents mixing good and bad fields and signatures.
    #[test]
    fn differential_instance_rules() {
        let mut rng = Pcg64Mcg::seed_from_u64(1111);
        let start = Instant::now();
        let numbers = [
            "0",
            "1",
            "4",
            "6",
            "200",
            "201",
            "-4",
            "4.5",
            "\"4\"",
            "null",
            "99999999999999999999",
        ];
        let items = [
            "I1",
            "J2",
            "L0",
            "O13",
            "S4",
            "T3",
            "Z1",
            " I2 ",
            "Q1",
            "I",
            "1I",
            "I-1",
            "",
            "I4294967296",
            "T4294967295",
            "i1",
        ];
        let cases = 5000;
        for _ in 0..cases {
            let mut fields = Vec::new();
            for key in ["size", "width", "height"] {
                if rng.gen_bool(0.4) {
                    fields.push(format!(
                        "\"{key}\": {}",
                        numbers[rng.gen_range(0..numbers.len())]
                    ));
                }
            }
            match rng.gen_range(0..10) {
                0 => {}
                1 => fields.push("\"signature\": 4".into()),
                _ => {
                    let n = rng.gen_range(0..4);
                    let sig: Vec<&str> = (0..n)
                        .map(|_| items[rng.gen_range(0..items.len())])
                        .collect();
                    fields.push(format!("\"signature\": \"{}\"", sig.join(",")));
                }
            }
            let text = if rng.gen_bool(0.03) {
                format!("[{}]", fields.len())
            } else {
                format!("{{{}}}", fields.join(", "))
            };
            let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(parse_instance(&doc).ok(), instance_ok(&doc), "{text}");
        }
        eprintln!(
            "square instance rules: {cases} cases in {:.2} s",
            start.elapsed().as_secs_f64()
        );
    }

    /// The reference is right on the puzzle's known facts, not only in agreement with hextris.
    #[test]
    fn reference_knows_small_facts() {
        assert!(tileable(4, 4, &[1, 1, 1, 0, 0, 0, 1])); // The original's test0.
        assert!(!tileable(4, 4, &[0, 0, 0, 0, 4, 0, 0])); // Four S never tile a square.
        assert!(!tileable(4, 4, &[0, 0, 0, 3, 0, 1, 0])); // An odd number of T.
        assert!(tileable(4, 2, &[0, 2, 0, 0, 0, 0, 0])); // Two J make a 4 x 2.
        assert!(!tileable(4, 2, &[0, 1, 1, 0, 0, 0, 0])); // A J and an L do not.
        let i = Piece {
            figure: Figure::I,
            angle: 1,
            x: 0,
            y: 0,
        };
        assert!(valid(
            4,
            2,
            &[2, 0, 0, 0, 0, 0, 0],
            &[i, Piece { y: 1, ..i }]
        ));
        assert!(!valid(4, 2, &[2, 0, 0, 0, 0, 0, 0], &[i, i]));
    }
}
