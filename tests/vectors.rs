//! Golden tests: the engine against the shared test vectors (`vectors.json`,
//! `vectors_natsubate.json`). They read `../shared/icfp2015/` and skip when it is missing.

mod common;

use common::{icfp_dir, official_problem, read_json};
use hextris::engine::{replay, Cell, End, Phrases, Piece, Problem, Source};
use serde_json::Value;
use std::path::Path;

fn check_vector(dir: &Path, v: &Value) {
    let name = v["name"].as_str().unwrap();
    // Derived vectors carry their problem; the others (and some derived ones, with a null
    // problem) refer to an official problem by id.
    let problem = match v.get("problem").filter(|p| !p.is_null()) {
        Some(p) => Problem::from_json(&p.to_string(), Path::new(name)).unwrap(),
        None => official_problem(dir, v["problemId"].as_i64().unwrap()),
    };
    let seed = v["seed"].as_u64().unwrap() as u32;
    let solution = v["solution"].as_str().unwrap();
    let e = replay(&problem, seed, solution, &Phrases::official());
    assert_eq!(
        e.score,
        v["expected_score"].as_u64().unwrap(),
        "{name}: {e:?}"
    );
    assert_eq!(
        e.end.is_error(),
        v["expected_error"].as_bool().unwrap(),
        "{name}: {e:?}"
    );
    if let Some(m) = v.get("expected_move_score").and_then(Value::as_u64) {
        assert_eq!(e.move_score, m, "{name}");
    }
    if let Some(p) = v.get("expected_power_score").and_then(Value::as_u64) {
        assert_eq!(e.power_score, p, "{name}");
    }
    let Some(detail) = v.get("detail") else {
        return;
    };
    if let Some(moves) = detail.get("moves").and_then(Value::as_u64) {
        assert_eq!(e.commands as u64, moves, "{name}: commands");
    }
    if let Some(locked) = detail.get("locked").and_then(Value::as_u64) {
        assert_eq!(e.locked as u64, locked, "{name}: locked");
    }
    if let Some(state) = detail.get("state").and_then(Value::as_str) {
        let want = match state {
            "end" => End::OutOfUnits,
            "full" => End::BoardFull,
            "in progress" => End::InProgress,
            other => panic!("{name}: unknown state {other}"),
        };
        assert_eq!(e.end, want, "{name}");
    }
    if let Some(err) = detail.get("error").and_then(Value::as_str) {
        let kind = match e.end {
            End::Error { kind, .. } => kind.name(),
            _ => panic!("{name}: expected error {err}, got {:?}", e.end),
        };
        let want = if err.starts_with("invalid character") {
            "invalid-character"
        } else if err == "repeated position" {
            "repeated-position"
        } else if err == "command after end of game" {
            "command-after-end"
        } else if err == "seed not in problem" {
            "seed-not-in-problem"
        } else {
            panic!("{name}: unknown error {err}")
        };
        assert_eq!(kind, want, "{name}");
    }
    if let Some(phrases) = detail.get("phrases").and_then(Value::as_array) {
        let p = Phrases::official();
        let used: Vec<&str> = (0..p.len())
            .filter(|&i| e.phrase_counts[i] > 0)
            .map(|i| p.get(i))
            .collect();
        let want: Vec<&str> = phrases.iter().map(|x| x.as_str().unwrap()).collect();
        assert_eq!(used, want, "{name}");
    }
}

#[test]
#[cfg_attr(no_shared_icfp, ignore = "needs ../shared/icfp2015")]
fn official_and_derived_vectors() {
    let dir = icfp_dir();
    let v = read_json(&dir.join("vectors.json"));
    let phrases: Vec<String> = v["phrases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect();
    assert_eq!(Phrases::new(phrases), Phrases::official());
    let mut n = 0;
    for group in ["official", "derived"] {
        for vector in v[group].as_array().unwrap() {
            check_vector(&dir, vector);
            n += 1;
        }
    }
    assert_eq!(n, 27);
}

#[test]
#[cfg_attr(no_shared_icfp, ignore = "needs ../shared/icfp2015")]
fn official_phrases_match_phrases_txt() {
    let dir = icfp_dir();
    let text = std::fs::read_to_string(dir.join("phrases.txt")).unwrap();
    let from_file = Phrases::new(text.lines().map(str::to_string));
    assert_eq!(from_file, Phrases::official());
    assert_eq!(from_file.len(), 18);
}

#[test]
#[cfg_attr(no_shared_icfp, ignore = "needs ../shared/icfp2015")]
fn rng_outputs() {
    let dir = icfp_dir();
    let v = read_json(&dir.join("vectors.json"));
    for (key, seed) in [
        ("seed17_first10", 17),
        ("seed0_first10", 0),
        ("seed18_first10", 18),
    ] {
        let mut g = hextris::engine::Lcg::new(seed);
        let got: Vec<u64> = (0..10).map(|_| g.next_output() as u64).collect();
        let want: Vec<u64> = v["rng"][key]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        assert_eq!(got, want, "{key}");
    }
}

#[test]
#[cfg_attr(no_shared_icfp, ignore = "needs ../shared/icfp2015")]
fn spawn_positions_of_every_unit() {
    let dir = icfp_dir();
    let v = read_json(&dir.join("vectors.json"));
    let spawns = v["spawn_positions_on_empty_board"].as_object().unwrap();
    assert_eq!(spawns.len(), 25);
    for (id, units) in spawns {
        let p = official_problem(&dir, id.parse().unwrap());
        for u in units.as_array().unwrap() {
            let i = u["unit"].as_u64().unwrap() as usize;
            let unit = &p.units[i];
            let piece = Piece::spawn(i, unit);
            let pivot = &u["pivot"];
            assert_eq!(
                piece.pivot,
                Cell::new(pivot[0].as_i64().unwrap(), pivot[1].as_i64().unwrap())
            );
            let mut got: Vec<(i64, i64)> = unit.cells(piece.pivot, 0).map(|c| (c.x, c.y)).collect();
            let mut want: Vec<(i64, i64)> = u["members"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| (m[0].as_i64().unwrap(), m[1].as_i64().unwrap()))
                .collect();
            got.sort();
            want.sort();
            assert_eq!(got, want, "problem {id} unit {i}");
        }
    }
}

#[test]
#[cfg_attr(no_shared_icfp, ignore = "needs ../shared/icfp2015")]
fn source_unit_indices() {
    let dir = icfp_dir();
    let v = read_json(&dir.join("vectors.json"));
    for (id, seeds) in v["source_unit_indices_first20"].as_object().unwrap() {
        let p = official_problem(&dir, id.parse().unwrap());
        for (seed, want) in seeds.as_object().unwrap() {
            let got: Vec<u64> =
                Source::new(seed.parse().unwrap(), p.source_length as u64, p.units.len())
                    .take(20)
                    .map(|i| i as u64)
                    .collect();
            let want: Vec<u64> = want
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap())
                .collect();
            assert_eq!(got, want, "problem {id} seed {seed}");
        }
    }
}

#[test]
#[cfg_attr(no_shared_icfp, ignore = "needs ../shared/icfp2015")]
fn natsubate_solutions_score_as_officially() {
    let dir = icfp_dir();
    let v = read_json(&dir.join("vectors_natsubate.json"));
    let vectors = v["vectors"].as_array().unwrap();
    assert_eq!(vectors.len(), 174);
    let problems: Vec<Problem> = (0..25).map(|id| official_problem(&dir, id)).collect();
    let phrases = Phrases::official();
    for x in vectors {
        let id = x["problemId"].as_u64().unwrap() as usize;
        let seed = x["seed"].as_u64().unwrap() as u32;
        let e = replay(
            &problems[id],
            seed,
            x["solution"].as_str().unwrap(),
            &phrases,
        );
        assert_eq!(
            e.score,
            x["expected_score"].as_u64().unwrap(),
            "problem {id} seed {seed}: {e:?}"
        );
    }
}
