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

/// The plain reference of PUZZLES.md puzzle 3 and differential tests against it.
mod reference {
    use hextris::pack::drop::{solve, Piece, Problem, MAX_PIECES, MAX_WIDTH};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;
    use std::time::Instant;

    /// The rotation table of PUZZLES.md puzzle 3, copied from the text: index r is r quarter
    /// turns anticlockwise, rows top to bottom.
    fn table(letter: char) -> &'static [&'static str] {
        match letter {
            'I' => &["#/#/#/#", "####"],
            'O' => &["##/##"],
            'T' => &["###/.#.", "#./##/#.", ".#./###", ".#/##/.#"],
            'J' => &[".#/.#/##", "###/..#", "##/#./#.", "#../###"],
            'L' => &["#./#./##", "..#/###", "##/.#/.#", "###/#.."],
            'S' => &[".##/##.", "#./##/.#"],
            'Z' => &["##./.##", ".#/##/#."],
            _ => unreachable!(),
        }
    }

    /// A picture's cells as (column, row counted upwards from the picture's bottom), and its
    /// width.
    fn cells(picture: &str) -> (Vec<(usize, usize)>, usize) {
        let rows: Vec<&str> = picture.split('/').collect();
        let mut out = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                if ch == '#' {
                    out.push((x, rows.len() - 1 - i));
                }
            }
        }
        (out, rows[0].len())
    }

    /// Drops a piece on a grid of rows (bottom first): it starts above everything and moves
    /// down one row at a time while the row below is free and above the floor.
    fn drop_piece(grid: &mut Vec<Vec<bool>>, width: usize, picture: &str, column: usize) {
        let (cs, _) = cells(picture);
        let free = |grid: &Vec<Vec<bool>>, base: usize| {
            cs.iter()
                .all(|&(x, y)| grid.get(base + y).is_none_or(|row| !row[column + x]))
        };
        let mut base = grid.len();
        while base > 0 && free(grid, base - 1) {
            base -= 1;
        }
        for &(x, y) in &cs {
            while grid.len() <= base + y {
                grid.push(vec![false; width]);
            }
            grid[base + y][column + x] = true;
        }
    }

    /// Every placement vector in lexicographic order of (rotation, column) pairs, piece 0
    /// first; the first one reaching the least height wins. Returns the height and the pairs.
    pub fn best(letters: &[char], width: usize, rotations: bool) -> (usize, Vec<(usize, usize)>) {
        fn go(
            grid: &[Vec<bool>],
            letters: &[char],
            width: usize,
            rotations: bool,
            path: &mut Vec<(usize, usize)>,
            best: &mut Option<(usize, Vec<(usize, usize)>)>,
        ) {
            let Some(&letter) = letters.get(path.len()) else {
                if best.as_ref().is_none_or(|b| grid.len() < b.0) {
                    *best = Some((grid.len(), path.clone()));
                }
                return;
            };
            let pictures = table(letter);
            let n = if rotations { pictures.len() } else { 1 };
            for (r, picture) in pictures.iter().enumerate().take(n) {
                let (_, w) = cells(picture);
                for column in 0..(width + 1).saturating_sub(w) {
                    let mut next = grid.to_vec();
                    drop_piece(&mut next, width, picture, column);
                    path.push((r, column));
                    go(&next, letters, width, rotations, path, best);
                    path.pop();
                }
            }
        }
        let mut best = None;
        go(&[], letters, width, rotations, &mut Vec::new(), &mut best);
        best.expect("every piece fits the well")
    }

    /// The input rules of `hextris pack drop`, stated plainly: 1 to 63 letters from IJLOSTZ
    /// (either case), a width of at most 16 that holds every piece in some allowed rotation.
    fn valid(sequence: &str, width: usize, rotations: bool) -> bool {
        let letters: Vec<char> = sequence.chars().map(|c| c.to_ascii_uppercase()).collect();
        !letters.is_empty()
            && letters.len() <= MAX_PIECES
            && width <= MAX_WIDTH
            && letters.iter().all(|c| "IJLOSTZ".contains(*c))
            && letters.iter().all(|&c| {
                let pictures = table(c);
                let n = if rotations { pictures.len() } else { 1 };
                pictures[..n].iter().any(|p| cells(p).1 <= width)
            })
    }

    fn random_letters(rng: &mut Pcg64Mcg, n: usize) -> Vec<char> {
        (0..n)
            .map(|_| "IJLOSTZ".as_bytes()[rng.gen_range(0..7)] as char)
            .collect()
    }

    fn assert_same(letters: &[char], width: usize, rotations: bool) {
        let seq: String = letters.iter().collect();
        let problem = Problem::new(&seq, width, rotations).unwrap();
        let got = solve(&problem);
        let (height, pairs) = best(letters, width, rotations);
        let got_pairs: Vec<(usize, usize)> = got
            .placements
            .iter()
            .map(|p| (p.rotation, p.column))
            .collect();
        assert_eq!(
            (got.height, got_pairs),
            (height, pairs),
            "{seq} width {width} rotations {rotations}"
        );
    }

    /// Differential: random sequences, widths 1 to 8, with and without rotations; the sizes
    /// are those the exhaustive reference does in about a millisecond (up to about 10^4 leaves).
    #[test]
    fn differential_random_sequences() {
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        let start = Instant::now();
        let mut cases = 0;
        while cases < 2000 {
            let rotations = rng.gen_bool(0.5);
            let width = rng.gen_range(1..=8);
            let n = if rotations {
                rng.gen_range(1..=if width <= 4 { 4 } else { 3 })
            } else {
                rng.gen_range(1..=if width <= 4 { 7 } else { 5 })
            };
            let letters = random_letters(&mut rng, n);
            if !valid(&letters.iter().collect::<String>(), width, rotations) {
                continue;
            }
            assert_same(&letters, width, rotations);
            cases += 1;
        }
        eprintln!(
            "drop random sequences: {cases} cases in {:.2} s",
            start.elapsed().as_secs_f64()
        );
    }

    /// Differential: repeated identical pieces (one or two letters), where many placement
    /// vectors tie and only the order decides.
    #[test]
    fn differential_repeated_pieces() {
        let mut rng = Pcg64Mcg::seed_from_u64(33);
        let start = Instant::now();
        let mut cases = 0;
        while cases < 1000 {
            let rotations = rng.gen_bool(0.5);
            let width = rng.gen_range(2..=8);
            let kinds = rng.gen_range(1..=2);
            let pool = random_letters(&mut rng, kinds);
            let n = rng.gen_range(2..=if rotations { 3 } else { 5 });
            let letters: Vec<char> = (0..n).map(|_| pool[rng.gen_range(0..pool.len())]).collect();
            if !valid(&letters.iter().collect::<String>(), width, rotations) {
                continue;
            }
            assert_same(&letters, width, rotations);
            cases += 1;
        }
        eprintln!(
            "drop repeated pieces: {cases} cases in {:.2} s",
            start.elapsed().as_secs_f64()
        );
    }

    /// Differential on the input rules: random sequences over letters, other characters and
    /// lower case, random widths from 0 to 20, both rotation settings: hextris accepts exactly
    /// what the rules allow.
    #[test]
    fn differential_input_rules() {
        let mut rng = Pcg64Mcg::seed_from_u64(333);
        let alphabet: Vec<char> = "IJLOSTZijlostzXx0 -é".chars().collect();
        let start = Instant::now();
        let cases = 5000;
        for _ in 0..cases {
            let n = match rng.gen_range(0..10) {
                0 => 0,
                1 => rng.gen_range(60..=66),
                _ => rng.gen_range(1..=6),
            };
            let seq: String = (0..n)
                .map(|_| {
                    if rng.gen_bool(0.9) {
                        alphabet[rng.gen_range(0..7)]
                    } else {
                        alphabet[rng.gen_range(0..alphabet.len())]
                    }
                })
                .collect();
            let width = rng.gen_range(0..=20);
            let rotations = rng.gen_bool(0.5);
            let got = Problem::new(&seq, width, rotations);
            assert_eq!(
                got.is_ok(),
                valid(&seq, width, rotations),
                "{seq:?} width {width} rotations {rotations}: {got:?}"
            );
            if let Ok(p) = got {
                let want: Vec<Piece> = seq
                    .chars()
                    .map(|c| Piece::from_letter(c).unwrap())
                    .collect();
                assert_eq!(p.pieces, want);
            }
        }
        eprintln!(
            "drop input rules: {cases} cases in {:.2} s",
            start.elapsed().as_secs_f64()
        );
    }

    /// The reference agrees with the original's own first test (ZOZS, width 6, no rotations:
    /// columns 0 0 2 2, height 4), so it is not merely agreeing with hextris.
    #[test]
    fn reference_reproduces_the_originals_first_test() {
        assert_eq!(
            best(&['Z', 'O', 'Z', 'S'], 6, false),
            (4, vec![(0, 0), (0, 0), (0, 2), (0, 2)])
        );
    }
}
