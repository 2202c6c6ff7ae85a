//! The viewer against the engine, headless: the frames a replay steps through (forward, by
//! seeking, backward, by unit, and in play mode with undo) are the engine's states command by
//! command, on every shared test vector; and the `view`, `render` and `play` subcommands' contracts
//! (piped output whose score equals `hextris score`, one-line errors with exit code 2, no partial
//! files). Tests that need `../shared/icfp2015` skip without it.

mod common;

use common::{icfp_dir, official_problem, read_json};
use hextris::engine::{replay, Command, Decoded, Game, Phrases, Problem};
use hextris::view::{Frame, Replay};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

/// Checks a state against an engine game at the same frame.
fn same(s: &Frame, g: &Game, what: &str) {
    assert_eq!(s.game().board(), g.board(), "{what}: board");
    assert_eq!(s.game().piece(), g.piece(), "{what}: piece");
    assert_eq!(s.game().move_score(), g.move_score(), "{what}: move score");
    assert_eq!(s.game().locked(), g.locked(), "{what}: locked");
    assert_eq!(s.game().status(), g.status(), "{what}: status");
    assert_eq!(s.game().units_left(), g.units_left(), "{what}: units left");
}

/// Replays `text` in the viewer model and checks every frame against a fresh engine game.
fn check_replay(problem: &Problem, seed: u32, text: &str, name: &str) {
    let phrases = Phrases::official();
    let r = Replay::load(problem, seed, text, phrases.clone());
    let e = replay(problem, seed, text, &phrases);
    assert_eq!(r.end(), e.end, "{name}");
    assert_eq!(r.final_score(), e.score, "{name}");
    if !e.end.is_error() {
        assert_eq!(r.tail().game().commands(), e.commands, "{name}");
        // Frames count every command of the text, the one the evaluator ignores included.
        let decoded = text
            .chars()
            .filter(|&c| matches!(Command::decode(c), Decoded::Command(_)))
            .count();
        assert_eq!(r.len(), decoded, "{name}");
        assert_eq!(r.tail().game().move_score(), e.move_score, "{name}");
        assert_eq!(r.power_at(r.len()), e.power_score, "{name}");
        assert_eq!(r.counts_at(r.len()), e.phrase_counts, "{name}");
    }
    // Forward, frame by frame, against the engine stepping the same commands.
    let mut g = Game::new(problem, seed);
    let mut s = r.state_at(0);
    let mut states_at_units: Vec<(usize, Game)> = vec![(0, g.clone())];
    let sample = (r.len() / 16).max(1);
    for i in 0..=r.len() {
        assert_eq!(s.frame(), i);
        same(&s, &g, &format!("{name} frame {i} (forward)"));
        let new_unit = i > 0 && r.played()[i - 1].locked;
        if new_unit || i == r.len() {
            assert!(s.owners().matches(&g), "{name} frame {i}: owners");
            states_at_units.push((i, g.clone()));
        }
        if i % sample == 0 || new_unit && i % 7 == 0 {
            // Seeking from the checkpoints lands on the same state.
            same(&r.state_at(i), &g, &format!("{name} frame {i} (seek)"));
            // The power so far is the engine's count on the text spelt so far.
            let prefix: String = r.text()[..r.prefix_len(i)].iter().collect();
            assert_eq!(r.counts_at(i), phrases.count(&prefix), "{name} frame {i}");
        }
        if let Some(p) = r.played().get(i) {
            g.step(p.cmd).unwrap();
            assert!(r.forward(&mut s));
        } else {
            assert!(!r.forward(&mut s));
        }
    }
    // Backward by units from the end lands on each unit's first frame, in reverse order.
    let mut f = r.len();
    for (want, game) in states_at_units.iter().rev().skip(1) {
        f = r.previous_unit(f);
        assert_eq!(f, *want, "{name}: previous unit");
        same(
            &r.state_at(f),
            game,
            &format!("{name} frame {f} (back by unit)"),
        );
    }
    assert_eq!(r.previous_unit(0), 0);
}

#[test]
#[cfg_attr(no_shared_icfp, ignore = "needs ../shared/icfp2015")]
fn frames_match_the_engine_on_every_test_vector() {
    let dir = icfp_dir();
    let v = read_json(&dir.join("vectors.json"));
    let mut n = 0;
    for group in ["official", "derived"] {
        for vector in v[group].as_array().unwrap() {
            let name = vector["name"].as_str().unwrap();
            let problem = match vector.get("problem").filter(|p| !p.is_null()) {
                Some(p) => Problem::from_json(&p.to_string(), Path::new(name)).unwrap(),
                None => official_problem(&dir, vector["problemId"].as_i64().unwrap()),
            };
            let seed = vector["seed"].as_u64().unwrap() as u32;
            check_replay(&problem, seed, vector["solution"].as_str().unwrap(), name);
            n += 1;
        }
    }
    let nat = read_json(&dir.join("vectors_natsubate.json"));
    let mut problems: Vec<Option<Problem>> = (0..25).map(|_| None).collect();
    for vector in nat["vectors"].as_array().unwrap() {
        let id = vector["problemId"].as_i64().unwrap();
        let problem = problems[id as usize].get_or_insert_with(|| official_problem(&dir, id));
        let seed = vector["seed"].as_u64().unwrap() as u32;
        let name = format!("natsubate problem {id} seed {seed}");
        check_replay(problem, seed, vector["solution"].as_str().unwrap(), &name);
        n += 1;
    }
    assert_eq!(n, 27 + 174);
}

#[test]
#[cfg_attr(no_shared_icfp, ignore = "needs ../shared/icfp2015")]
fn play_mode_with_undo_matches_the_engine() {
    let dir = icfp_dir();
    let p = official_problem(&dir, 1);
    let phrases = Phrases::official();
    let seed = p.seeds[0];
    // Type a real solution's commands with detours: each detour is a command typed then undone,
    // or one the player refuses; the result must be the solution itself, frame for frame.
    let nat = read_json(&dir.join("vectors_natsubate.json"));
    let text = nat["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["problemId"] == 1 && v["seed"].as_u64() == Some(seed as u64))
        .map(|v| v["solution"].as_str().unwrap().to_string())
        .unwrap();
    let mut r = Replay::new(&p, seed, phrases.clone());
    let (mut undos, mut refusals) = (0, 0);
    for (k, c) in text.chars().enumerate() {
        if k % 5 == 0 {
            for detour in Command::ALL {
                let before = (r.len(), r.text_string());
                match r.try_push(detour.char()) {
                    Ok(_) => {
                        assert_eq!(r.undo(), Some(detour));
                        undos += 1;
                    }
                    Err(_) => refusals += 1,
                }
                assert_eq!((r.len(), r.text_string()), before);
                if k % 15 == 0 {
                    break;
                }
            }
        }
        r.try_push(c).unwrap();
    }
    assert!(
        undos > 100 && refusals > 0,
        "{undos} undos, {refusals} refusals"
    );
    assert_eq!(r.text_string(), text);
    check_replay(&p, seed, &r.text_string(), "typed natsubate problem 1");
    let e = replay(&p, seed, &text, &phrases);
    assert_eq!(r.final_score(), e.score);
    let mut g = Game::new(&p, seed);
    for c in text.chars() {
        if let Decoded::Command(cmd) = Command::decode(c) {
            g.step(cmd).unwrap();
        }
    }
    same(r.tail(), &g, "typed game, last frame");
}

fn hextris() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_hextris"))
}

fn tmp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hextris-view-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

#[test]
#[cfg_attr(no_shared_icfp, ignore = "needs ../shared/icfp2015")]
fn piped_view_of_problem_24_shows_the_board_and_the_score_of_hextris_score() {
    let dir = icfp_dir();
    let problem = dir.join("problems/problem_24.json");
    let tmp = tmp_dir("p24");
    let sol = tmp.join("p24.json");
    let o = hextris()
        .args(["solve", "--attempts", "1", "-o"])
        .arg(&sol)
        .arg(&problem)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let o = hextris()
        .args(["score", "--json", "-f"])
        .arg(&problem)
        .arg(&sol)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&o.stdout).unwrap();
    let entry = &report["results"][0];
    let (score, mv, power) = (
        entry["score"].as_u64().unwrap(),
        entry["move_score"].as_u64().unwrap(),
        entry["power_score"].as_u64().unwrap(),
    );
    assert!(score > 0);

    let o = hextris()
        .args(["view", "-f"])
        .arg(&problem)
        .arg(&sol)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(!out.contains('\x1b'), "no escape codes in a pipe");
    let lines: Vec<&str> = out.lines().collect();
    // 40 rows of 100 cells, the floor, then the status, the phrases and the last command.
    assert_eq!(lines.len(), 40 + 1 + 3, "{out}");
    for (y, l) in lines[..40].iter().enumerate() {
        assert_eq!(l.chars().count(), 202, "row {y}: {l}");
        let cells: Vec<char> = l.chars().skip(1 + y % 2).step_by(2).take(100).collect();
        assert!(cells
            .iter()
            .all(|c| *c == '.' || c.is_ascii_alphabetic() || *c == '#'));
    }
    let status = lines[41];
    let want = format!("score {score} = {mv} move + {power} power");
    assert!(status.contains(&want), "{status} should say {want}");
    assert!(status.starts_with("problem 24 seed 18: unit 1620 of 1620 · command "));
    assert!(lines[42].starts_with("phrases: \"ei!\"x"));

    let o = hextris()
        .args(["view", "--color", "always", "--step", "100", "-f"])
        .arg(&problem)
        .arg(&sol)
        .output()
        .unwrap();
    let out = stdout(&o);
    assert!(out.contains("\x1b[") && out.contains('⬢'));
    assert!(out.contains("command 100 of "), "{out}");
    std::fs::remove_dir_all(&tmp).unwrap();
}

const SMALL: &str = r#"{"id":3,"width":5,"height":6,"sourceLength":5,"sourceSeeds":[0,7],
    "filled":[{"x":0,"y":5}],
    "units":[{"members":[{"x":0,"y":0},{"x":1,"y":0}],"pivot":{"x":0,"y":0}}]}"#;

#[test]
fn view_shows_where_an_erroneous_solution_stopped() {
    let tmp = tmp_dir("error");
    let problem = tmp.join("p.json");
    std::fs::write(&problem, SMALL).unwrap();
    let sol = tmp.join("s.json");
    // E then W repeats the spawn position.
    std::fs::write(
        &sol,
        r#"[{"problemId":3,"seed":0,"solution":"ei!ei!"},{"problemId":3,"seed":7,"solution":"bbp"}]"#,
    )
    .unwrap();
    let o = hextris()
        .args(["view", "--seed", "7", "-f"])
        .arg(&problem)
        .arg(&sol)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("command 2 of 2"), "{out}");
    assert!(
        out.contains("stopped: error:repeated-position at command 2 (char 2) on \"p\"; the whole solution scores 0"),
        "{out}"
    );
    // Without --seed, the problem's first entry: seed 0.
    let o = hextris()
        .args(["view", "-f"])
        .arg(&problem)
        .arg(&sol)
        .output()
        .unwrap();
    assert!(stdout(&o).contains("problem 3 seed 0:"), "{}", stdout(&o));
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn render_writes_an_svg_and_bad_input_writes_nothing() {
    let tmp = tmp_dir("render");
    let problem = tmp.join("p.json");
    std::fs::write(&problem, SMALL).unwrap();
    let sol = tmp.join("s.json");
    std::fs::write(&sol, r#"[{"problemId":3,"seed":0,"solution":"ei!"}]"#).unwrap();
    let svg = tmp.join("board.svg");
    let o = hextris()
        .args(["render", "--seed", "0", "--step", "1", "--svg"])
        .arg(&svg)
        .arg("-f")
        .arg(&problem)
        .arg(&sol)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.contains("<svg") && text.contains("command 1 of 3"),
        "{text}"
    );
    assert_eq!(text.matches("<polygon").count(), 30 + 2);

    // Each bad input: one line naming what is wrong, exit code 2, no file written.
    let bad_json = tmp.join("bad.json");
    std::fs::write(&bad_json, "[{").unwrap();
    // The last case is clap's: several lines of usage, but exit code 2 all the same.
    let cases: Vec<(Vec<String>, &str, bool)> = vec![
        (
            vec!["--seed".into(), "5".into()],
            "no entry for problem 3 seed 5",
            true,
        ),
        (
            vec!["--step".into(), "9".into()],
            "--step 9 is past the end",
            true,
        ),
        (
            vec!["-f".into(), bad_json.display().to_string()],
            "bad.json: invalid JSON",
            true,
        ),
        (vec!["--seed".into(), "-1".into()], "-1", false),
    ];
    for (extra, want, one_line) in cases {
        let out = tmp.join("never.svg");
        let mut cmd = hextris();
        cmd.arg("render").arg("--svg").arg(&out);
        if !extra.contains(&"-f".to_string()) {
            cmd.arg("-f").arg(&problem);
        }
        let o = cmd.args(&extra).arg(&sol).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{extra:?}: {}", stderr(&o));
        if one_line {
            assert_eq!(stderr(&o).trim_end().lines().count(), 1, "{}", stderr(&o));
        }
        assert!(!out.exists(), "{extra:?} wrote a file");
    }
    let names: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn play_needs_a_terminal_and_a_listed_seed() {
    let tmp = tmp_dir("play");
    let problem = tmp.join("p.json");
    std::fs::write(&problem, SMALL).unwrap();
    let o = hextris()
        .args(["play", "--seed", "3", "-f"])
        .arg(&problem)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("seed 3 is not one of the seeds of problem 3 (0, 7)"));
    let o = hextris()
        .args(["play", "-f"])
        .arg(&problem)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("needs a terminal"), "{}", stderr(&o));
    let huge = tmp.join("huge.json");
    std::fs::write(
        &huge,
        SMALL.replace("\"width\":5,\"height\":6", "\"width\":2000,\"height\":1000"),
    )
    .unwrap();
    let o = hextris().args(["play", "-f"]).arg(&huge).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("huge.json: the 2000x1000 board is too large to draw"),
        "{}",
        stderr(&o)
    );
    let o = hextris()
        .args(["play", "-o", "/nonexistent-dir/x.json", "-f"])
        .arg(&problem)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/nonexistent-dir/x.json: cannot write"));
    std::fs::remove_dir_all(&tmp).unwrap();
}
