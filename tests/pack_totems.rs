//! Totems: the exact block search against an independent brute force on small boxes, the validity
//! of every answer on random bags (property test), and the command line (answer, --check, errors).

use hextris::pack::totems::block::{self, Limits, Outcome};
use hextris::pack::totems::shapes::{normalise, Kind, KINDS};
use hextris::pack::totems::{answer_json, packer, parse_answer, to_answer, validate};
use proptest::prelude::*;
use std::collections::HashSet;
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Brute force, written independently of the block search: place the pieces of the multiset in a
/// fixed order, each anywhere it fits (every rotation, every offset), with sets of cells.
fn brute_fits(w: i32, h: i32, pieces: &[Kind]) -> bool {
    fn rec(w: i32, h: i32, pieces: &[Kind], used: &mut HashSet<(i32, i32)>) -> bool {
        let Some((&k, rest)) = pieces.split_first() else {
            return true;
        };
        for o in k.orientations() {
            for dy in 0..h {
                for dx in 0..w {
                    let cells: Vec<(i32, i32)> = o.iter().map(|&(x, y)| (x + dx, y + dy)).collect();
                    if cells
                        .iter()
                        .all(|&(x, y)| x < w && y < h && !used.contains(&(x, y)))
                    {
                        cells.iter().for_each(|&c| {
                            used.insert(c);
                        });
                        let ok = rec(w, h, rest, used);
                        cells.iter().for_each(|c| {
                            used.remove(c);
                        });
                        if ok {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }
    rec(w, h, pieces, &mut HashSet::new())
}

/// Every multiset of `n` shapes, as counts.
fn multisets(n: u32) -> Vec<[u32; KINDS]> {
    fn rec(k: usize, left: u32, cur: &mut [u32; KINDS], out: &mut Vec<[u32; KINDS]>) {
        if k + 1 == KINDS {
            cur[k] = left;
            out.push(*cur);
            return;
        }
        for c in 0..=left {
            cur[k] = c;
            rec(k + 1, left - c, cur, out);
        }
    }
    let mut out = Vec::new();
    rec(0, n, &mut [0; KINDS], &mut out);
    out
}

fn pieces_of(counts: &[u32; KINDS]) -> Vec<Kind> {
    Kind::ALL
        .iter()
        .flat_map(|&k| std::iter::repeat_n(k, counts[k.index()] as usize))
        .collect()
}

/// The probability that n uniform draws give this multiset.
fn probability(counts: &[u32; KINDS]) -> f64 {
    let n: u32 = counts.iter().sum();
    let fact = |m: u32| (1..=m).map(f64::from).product::<f64>();
    let ways = fact(n) / counts.iter().map(|&c| fact(c)).product::<f64>();
    ways / 7f64.powi(n as i32)
}

#[test]
fn block_search_agrees_with_brute_force_on_3x3_3x4_and_4x4() {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: u64::MAX,
        deadline: Instant::now() + Duration::from_secs(60),
        stop: &stop,
    };
    let mut rates = Vec::new();
    for (w, h, n) in [(3, 3, 2), (4, 3, 3), (4, 4, 4)] {
        let mut rate = 0.0;
        for counts in multisets(n) {
            let pieces = pieces_of(&counts);
            let want = brute_fits(w, h, &pieces);
            let got = block::solve(w as usize, h as usize, counts, 1, limits);
            match (&got, want) {
                (Outcome::Solved(_), true) => rate += probability(&counts),
                (Outcome::Infeasible, false) => {}
                _ => panic!("{w}x{h} {pieces:?}: search {got:?}, brute force {want}"),
            }
        }
        rates.push(rate);
    }
    // The exact chance that a random bag reaches the best box at levels 2 (3x3) and 3 (4x4).
    eprintln!(
        "P(2 totems fit 3x3) = {:.4}, P(4 totems tile 4x4) = {:.4}",
        rates[0], rates[2]
    );
    assert!(rates[0] > 0.0 && rates[0] < 1.0);
    assert!(rates[2] > 0.0 && rates[2] < 0.5);
}

fn kind_strategy() -> impl Strategy<Value = Kind> {
    (0..KINDS).prop_map(|i| Kind::ALL[i])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every answer is valid whatever the bag and however short the time.
    #[test]
    fn every_answer_is_valid(bag in prop::collection::vec(kind_strategy(), 1..140), ms in 0u64..40, seed in 0u64..1000) {
        let report = packer::solve(&bag, Instant::now() + Duration::from_millis(ms), seed);
        let answer = to_answer(&bag, &report.packing);
        let parsed = parse_answer(&answer_json(&answer)).unwrap();
        let (w, h) = validate(&bag, &parsed).unwrap();
        prop_assert!((packer::score(bag.len(), w, h) - report.score).abs() < 1e-9);
        // The fallback alone always scores positive, so the answer does too.
        prop_assert!(report.score > 0.0);
    }
}

#[test]
fn perfect_boxes_are_found_for_even_t_bags_and_skipped_for_odd() {
    let far = Instant::now() + Duration::from_secs(20);
    // 64 totems, 10 T (even): the 16x16 box.
    let mut bag: Vec<Kind> = Vec::new();
    for (k, c) in Kind::ALL.iter().zip([9, 9, 9, 9, 9, 10, 9]) {
        bag.extend(std::iter::repeat_n(*k, c));
    }
    let r = packer::solve(&bag, far, 3);
    assert_eq!(r.score, 384.0);
    // One T more, one I less: odd T, so no perfect box; 17x17 is next best.
    bag[0] = Kind::T;
    let r = packer::solve(&bag, far, 3);
    assert_eq!(r.score, 640.0 - 289.0);
    assert!(r.tried.iter().all(|(b, _)| b.a * b.b != 256));
}

fn write_tmp(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("hextris-pack-totems-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn cli_answers_and_checks() {
    let exe = env!("CARGO_BIN_EXE_hextris");
    let q = write_tmp(
        "q.json",
        r#"{"tick": 3, "payload": {"totems": [{"shape": "L"}, {"shape": "J"}, {"shape": "L"}, {"shape": "J"}]}}"#,
    );
    let out = Command::new(exe)
        .args(["pack", "totems"])
        .arg(&q)
        .args(["--time", "0.5", "--threads", "1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let a = write_tmp("a.json", &String::from_utf8(out.stdout).unwrap());
    let out = Command::new(exe)
        .args(["pack", "totems", "--check"])
        .arg(&q)
        .arg(&a)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["valid"], true);
    // L, J, L, J tile the 4x4 box (two 2x4 rectangles).
    assert_eq!(v["score"], 24.0);
    assert_eq!(v["optimal"], true);

    // An answer with an overlap is reported invalid, exit code 1.
    let bad = write_tmp(
        "bad.json",
        r#"{"totems": [{"shape": "L", "coordinates": [[0,0],[1,0],[0,1],[0,2]]},
                       {"shape": "J", "coordinates": [[0,0],[1,0],[1,1],[1,2]]},
                       {"shape": "L", "coordinates": [[4,0],[5,0],[4,1],[4,2]]},
                       {"shape": "J", "coordinates": [[6,0],[7,0],[7,1],[7,2]]}]}"#,
    );
    let out = Command::new(exe)
        .args(["pack", "totems", "--check"])
        .arg(&q)
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["valid"], false);
}

#[test]
fn cli_bad_input_is_one_line_and_exit_code_2() {
    let exe = env!("CARGO_BIN_EXE_hextris");
    let badq = write_tmp("badq.json", r#"{"payload": {"totems": [{"shape": "X"}]}}"#);
    let cases: Vec<Vec<String>> = vec![
        vec!["pack".into(), "totems".into(), badq.display().to_string()],
        vec!["pack".into(), "totems".into(), "/nonexistent/q.json".into()],
        vec!["pack".into(), "totems".into(), "--eval".into(), "11".into()],
        vec![
            "pack".into(),
            "totems".into(),
            badq.display().to_string(),
            "--time".into(),
            "0".into(),
        ],
    ];
    for args in cases {
        let out = Command::new(exe).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}

/// Regression: a limit shorter than the safety margin (here 1 ms) made the deadline computation
/// underflow and panic; it must still print a valid answer.
#[test]
fn cli_tiny_time_limit_still_answers() {
    let exe = env!("CARGO_BIN_EXE_hextris");
    let q = write_tmp(
        "tiny.json",
        r#"{"tick": 4, "payload": {"totems": [{"shape": "S"}, {"shape": "Z"}, {"shape": "T"}, {"shape": "O"}, {"shape": "I"}, {"shape": "J"}, {"shape": "L"}, {"shape": "T"}]}}"#,
    );
    let out = Command::new(exe)
        .args(["pack", "totems"])
        .arg(&q)
        .args(["--time", "0.001"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bag = hextris::pack::totems::read_question(&q).unwrap();
    let answer = parse_answer(&String::from_utf8(out.stdout).unwrap()).unwrap();
    assert!(validate(&bag, &answer).is_ok());
}

#[test]
fn normalise_is_translation_invariant() {
    let o = Kind::S.orientations()[0];
    assert_eq!(normalise(o.map(|(x, y)| (x + 5, y + 9))), o);
}

/// The plain reference of PUZZLES.md puzzle 4 and differential tests against it.
mod reference {
    use hextris::pack::totems::shapes::Kind;
    use hextris::pack::totems::{answer_json, packer, parse_question, to_answer, validate};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;
    use std::collections::HashSet;
    use std::time::{Duration, Instant};

    /// The chirality of PUZZLES.md, copied from the text: (x, y) sets with y up.
    fn server_cells(name: &str) -> Vec<(i64, i64)> {
        match name {
            "I" => vec![(0, 0), (0, 1), (0, 2), (0, 3)],
            "O" => vec![(0, 0), (1, 0), (0, 1), (1, 1)],
            "J" => vec![(0, 0), (1, 0), (1, 1), (1, 2)],
            "L" => vec![(0, 0), (1, 0), (0, 1), (0, 2)],
            "S" => vec![(1, 0), (0, 1), (1, 1), (0, 2)],
            "Z" => vec![(0, 0), (0, 1), (1, 1), (1, 2)],
            "T" => vec![(0, 1), (1, 1), (2, 1), (1, 0)],
            _ => unreachable!(),
        }
    }

    /// Cells shifted to the origin, as a sorted list.
    fn normal(cells: &[(i64, i64)]) -> Vec<(i64, i64)> {
        let mx = cells.iter().map(|c| c.0).min().unwrap();
        let my = cells.iter().map(|c| c.1).min().unwrap();
        let mut v: Vec<(i64, i64)> = cells.iter().map(|&(x, y)| (x - mx, y - my)).collect();
        v.sort();
        v
    }

    /// Whether four cells are a rotation (quarter turns, no mirror) of a shape.
    fn is_rotation_of(name: &str, cells: &[(i64, i64)]) -> bool {
        let mut cur = server_cells(name);
        (0..4).any(|_| {
            let hit = normal(&cur) == normal(cells);
            cur = cur.iter().map(|&(x, y)| (-y, x)).collect();
            hit
        })
    }

    /// The validator, stated plainly: the same multiset of shapes, each totem four distinct
    /// cells that are a rotation of its shape, coordinates from 0 to 2^20 (hextris's bound on
    /// what it reads), no cell used twice. Returns the box (max x + 1, max y + 1).
    pub fn box_of(question: &[&str], answer: &[(&str, Vec<(i64, i64)>)]) -> Option<(i64, i64)> {
        let mut want: Vec<&str> = question.to_vec();
        let mut got: Vec<&str> = answer.iter().map(|a| a.0).collect();
        want.sort();
        got.sort();
        if want != got {
            return None;
        }
        let mut used = HashSet::new();
        for (name, cells) in answer {
            if cells.len() != 4 || !is_rotation_of(name, cells) {
                return None;
            }
            for &c in cells {
                if c.0 < 0 || c.1 < 0 || c.0 > 1 << 20 || c.1 > 1 << 20 || !used.insert(c) {
                    return None;
                }
            }
        }
        let w = used.iter().map(|c| c.0).max()? + 1;
        let h = used.iter().map(|c| c.1).max()? + 1;
        Some((w, h))
    }

    fn score(n: usize, w: i64, h: i64) -> f64 {
        let (a, b) = (w.min(h) as f64, w.max(h) as f64);
        (10.0 * n as f64 - a * b) * a / b
    }

    /// Whether the bag fits a w x h box: the first empty cell in reading order is either left
    /// empty (while the area allows) or covered by a rotation of a remaining shape whose first
    /// cell in reading order lands there.
    pub fn fits(w: i64, h: i64, bag: &[&str]) -> bool {
        fn rotations(name: &str) -> Vec<Vec<(i64, i64)>> {
            let mut out: Vec<Vec<(i64, i64)>> = Vec::new();
            let mut cur = server_cells(name);
            for _ in 0..4 {
                // Reading order here: by y, then x.
                let mut n = normal(&cur);
                n.sort_by_key(|&(x, y)| (y, x));
                if !out.contains(&n) {
                    out.push(n);
                }
                cur = cur.iter().map(|&(x, y)| (-y, x)).collect();
            }
            out
        }
        fn go(grid: &mut Vec<bool>, w: i64, h: i64, left: &mut Vec<&str>, holes: i64) -> bool {
            let Some(i) = grid.iter().position(|&g| !g) else {
                return left.is_empty();
            };
            let (x, y) = (i as i64 % w, i as i64 / w);
            for j in 0..left.len() {
                if left[..j].contains(&left[j]) {
                    continue; // The same shape again gives the same subtrees.
                }
                for rot in rotations(left[j]) {
                    let (fx, fy) = rot[0];
                    let spots: Option<Vec<usize>> = rot
                        .iter()
                        .map(|&(cx, cy)| {
                            let (u, v) = (x + cx - fx, y + cy - fy);
                            let ok = u >= 0 && u < w && v < h && !grid[(v * w + u) as usize];
                            ok.then_some((v * w + u) as usize)
                        })
                        .collect();
                    let Some(spots) = spots else { continue };
                    spots.iter().for_each(|&s| grid[s] = true);
                    let shape = left.remove(j);
                    let ok = go(grid, w, h, left, holes);
                    left.insert(j, shape);
                    spots.iter().for_each(|&s| grid[s] = false);
                    if ok {
                        return true;
                    }
                }
            }
            if holes > 0 {
                grid[i] = true;
                let ok = go(grid, w, h, left, holes - 1);
                grid[i] = false;
                return ok;
            }
            false
        }
        let holes = w * h - 4 * bag.len() as i64;
        holes >= 0
            && go(
                &mut vec![false; (w * h) as usize],
                w,
                h,
                &mut bag.to_vec(),
                holes,
            )
    }

    /// The exact optimum: the best score over every box the bag fits (a packing whose cells
    /// span w x h scores as that box, and fits it).
    pub fn optimum(bag: &[&str]) -> f64 {
        let n = bag.len() as i64;
        let mut best = 0.0;
        for w in 1..=10 * n {
            for h in w..=10 * n {
                let s = score(bag.len(), w, h);
                if w * h >= 4 * n && s > best && fits(w, h, bag) {
                    best = s;
                }
            }
        }
        best
    }

    const NAMES: [&str; 7] = ["I", "J", "L", "O", "S", "T", "Z"];

    /// A packing: each piece's name and cells.
    type Placed = Vec<(String, Vec<(i64, i64)>)>;

    fn hextris_answer(bag: &[&str], seed: u64) -> (f64, Placed) {
        let kinds: Vec<Kind> = bag.iter().map(|n| Kind::from_name(n).unwrap()).collect();
        let report = packer::solve(&kinds, Instant::now() + Duration::from_secs(20), seed);
        let text = answer_json(&to_answer(&kinds, &report.packing));
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let answer = v["totems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                let cells = t["coordinates"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| (c[0].as_i64().unwrap(), c[1].as_i64().unwrap()))
                    .collect();
                (t["shape"].as_str().unwrap().to_string(), cells)
            })
            .collect();
        (report.score, answer)
    }

    /// Differential: every bag of 1 to 3 totems and random bags of 4 and 5: hextris's answer is
    /// valid by the plain validator, its score is that of its box, and it is the exact optimum.
    #[test]
    fn differential_tiny_bags_reach_the_optimum() {
        let mut rng = Pcg64Mcg::seed_from_u64(4);
        let start = Instant::now();
        let mut bags: Vec<Vec<&str>> = Vec::new();
        for n in 1..=3u32 {
            for code in 0..7usize.pow(n) {
                bags.push((0..n).map(|i| NAMES[code / 7usize.pow(i) % 7]).collect());
            }
        }
        for _ in 0..150 {
            let n = rng.gen_range(4..=5);
            bags.push((0..n).map(|_| NAMES[rng.gen_range(0..7)]).collect());
        }
        for (i, bag) in bags.iter().enumerate() {
            let (s, answer) = hextris_answer(bag, i as u64);
            let named: Vec<(&str, Vec<(i64, i64)>)> = answer
                .iter()
                .map(|(n, c)| (n.as_str(), c.clone()))
                .collect();
            let (w, h) =
                box_of(bag, &named).unwrap_or_else(|| panic!("{bag:?}: invalid {answer:?}"));
            assert!(
                (score(bag.len(), w, h) - s).abs() < 1e-9,
                "{bag:?}: claimed {s}"
            );
            let best = optimum(bag);
            assert!(
                (s - best).abs() < 1e-9,
                "{bag:?}: {s}, optimum {best} ({answer:?})"
            );
        }
        eprintln!(
            "totems tiny bags: {} cases in {:.2} s",
            bags.len(),
            start.elapsed().as_secs_f64()
        );
    }

    /// Differential on answers: a valid answer from hextris, then broken at random (a totem
    /// mirrored, turned, moved, shifted below 0, its shape renamed, a cell repeated, one
    /// totem dropped or repeated, a coordinate far out); `validate` agrees with the plain
    /// validator on validity and on the box.
    #[test]
    fn differential_answer_checking() {
        let mut rng = Pcg64Mcg::seed_from_u64(44);
        let start = Instant::now();
        let cases = 3000;
        for case in 0..cases {
            let n = rng.gen_range(1..=8);
            let bag: Vec<&str> = (0..n).map(|_| NAMES[rng.gen_range(0..7)]).collect();
            let (_, mut answer) = hextris_answer(&bag, case);
            for _ in 0..rng.gen_range(0..=2) {
                let i = rng.gen_range(0..answer.len());
                let cells = &mut answer[i].1;
                match rng.gen_range(0..9) {
                    0 => cells.iter_mut().for_each(|c| c.0 = -c.0 + 10),
                    1 => cells.iter_mut().for_each(|c| *c = (-c.1 + 10, c.0)),
                    2 => cells.iter_mut().for_each(|c| *c = (-c.0 + 10, -c.1 + 10)),
                    3 => {
                        let (dx, dy) = (rng.gen_range(-3..=3), rng.gen_range(-3..=3));
                        cells.iter_mut().for_each(|c| *c = (c.0 + dx, c.1 + dy));
                    }
                    4 => answer[i].0 = NAMES[rng.gen_range(0..7)].to_string(),
                    5 => cells[3] = cells[0],
                    6 => cells[rng.gen_range(0..4)] = (1 << 21, 0),
                    7 => {
                        if answer.len() > 1 {
                            answer.remove(i);
                        }
                    }
                    _ => answer.push(answer[i].clone()),
                }
            }
            let named: Vec<(&str, Vec<(i64, i64)>)> = answer
                .iter()
                .map(|(n, c)| (n.as_str(), c.clone()))
                .collect();
            let want = box_of(&bag, &named);
            let kinds: Vec<Kind> = bag.iter().map(|n| Kind::from_name(n).unwrap()).collect();
            let raw: Vec<(Kind, Vec<(i64, i64)>)> = answer
                .iter()
                .map(|(n, c)| (Kind::from_name(n).unwrap(), c.clone()))
                .collect();
            let got = validate(&kinds, &raw)
                .ok()
                .map(|(w, h)| (w as i64, h as i64));
            assert_eq!(got, want, "{bag:?} {answer:?}");
        }
        eprintln!(
            "totems answer checking: {cases} cases in {:.2} s",
            start.elapsed().as_secs_f64()
        );
    }

    /// Differential on questions: random documents, good and bad; hextris accepts exactly an
    /// object whose `payload.totems` is a non-empty array of `{"shape": one of IJLOSTZ}`.
    #[test]
    fn differential_question_rules() {
        let mut rng = Pcg64Mcg::seed_from_u64(444);
        let start = Instant::now();
        let shapes = [
            "\"I\"", "\"T\"", "\"Z\"", "\"X\"", "\"i\"", "\"\"", "4", "null", "\"IJ\"",
        ];
        let cases = 3000;
        for _ in 0..cases {
            let n = rng.gen_range(0..4);
            let items: Vec<String> = (0..n)
                .map(|_| match rng.gen_range(0..10) {
                    0 => "{}".to_string(),
                    1 => "\"I\"".to_string(),
                    _ => format!("{{\"shape\": {}}}", shapes[rng.gen_range(0..shapes.len())]),
                })
                .collect();
            let list = format!("[{}]", items.join(", "));
            let text = match rng.gen_range(0..8) {
                0 => format!("{{\"tick\": 1, \"totems\": {list}}}"),
                1 => format!("{{\"payload\": {list}}}"),
                2 => format!("[{list}]"),
                3 => "{\"payload\": {\"totems\": ".to_string(),
                _ => format!("{{\"tick\": 3, \"payload\": {{\"totems\": {list}}}}}"),
            };
            let want: Option<Vec<String>> = serde_json::from_str::<serde_json::Value>(&text)
                .ok()
                .and_then(|v| {
                    let list = v.get("payload")?.get("totems")?.as_array()?.clone();
                    let names: Option<Vec<String>> = list
                        .iter()
                        .map(|t| {
                            let s = t.get("shape")?.as_str()?;
                            NAMES.contains(&s).then(|| s.to_string())
                        })
                        .collect();
                    names.filter(|n| !n.is_empty())
                });
            let got = parse_question(&text)
                .ok()
                .map(|ks| ks.iter().map(|k| k.name().to_string()).collect());
            assert_eq!(got, want, "{text}");
        }
        eprintln!(
            "totems question rules: {cases} cases in {:.2} s",
            start.elapsed().as_secs_f64()
        );
    }

    /// The reference is right on the puzzle's published facts.
    #[test]
    fn reference_knows_the_published_best_boxes() {
        assert_eq!(optimum(&["I"]), 1.5);
        assert!(fits(3, 3, &["L", "T"]) && !fits(3, 3, &["O", "O"]));
        assert!(!fits(4, 4, &["T", "I", "I", "I"])); // An odd number of T.
        let j = vec![("J", vec![(0, 0), (1, 0), (1, 1), (1, 2)])];
        assert_eq!(box_of(&["J"], &j), Some((2, 3)));
        let mirrored = vec![("J", vec![(0, 0), (1, 0), (0, 1), (0, 2)])];
        assert_eq!(box_of(&["J"], &mirrored), None);
    }
}
