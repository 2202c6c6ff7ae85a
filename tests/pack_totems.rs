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
