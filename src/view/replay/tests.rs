//! The replay model against the engine: frames, owners, undo, checkpoints and phrase counts.

use super::*;
use crate::engine::replay;
use std::path::Path;

fn problem() -> Problem {
    crate::testkit::two_unit_problem(40)
}

/// Every frame of the replay against a fresh engine game stepped command by command.
fn check_frames(r: &Replay, p: &Problem, seed: u32) {
    let mut g = Game::new(p, seed);
    let mut forward = r.state_at(0);
    for i in 0..=r.len() {
        let s = r.state_at(i);
        for st in [&s, &forward] {
            assert_eq!(st.frame(), i);
            assert_eq!(st.game().board(), g.board(), "frame {i}");
            assert_eq!(st.game().piece(), g.piece(), "frame {i}");
            assert_eq!(st.game().move_score(), g.move_score(), "frame {i}");
            assert_eq!(st.game().locked(), g.locked(), "frame {i}");
            assert_eq!(st.game().status(), g.status(), "frame {i}");
            assert!(st.owners().matches(&g), "frame {i}");
        }
        if let Some(p) = r.played().get(i) {
            g.step(p.cmd).unwrap();
            assert!(r.forward(&mut forward));
        } else {
            assert!(!r.forward(&mut forward));
        }
    }
}

#[test]
fn frames_follow_the_engine_and_owners_survive_line_clears() {
    // Units dropped straight down fill the gap of the two bottom rows, clearing them.
    let p = Problem::from_json(
        r#"{"id":8,"width":4,"height":6,"sourceLength":10,"sourceSeeds":[0],
        "filled":[{"x":0,"y":5},{"x":3,"y":5},{"x":0,"y":4},{"x":3,"y":4}],
        "units":[{"members":[{"x":0,"y":0},{"x":1,"y":0}],"pivot":{"x":0,"y":0}}]}"#,
        Path::new("t.json"),
    )
    .unwrap();
    let mut grown = Replay::new(&p, 0, Phrases::official());
    let mut n = 0;
    while grown.tail().game().status() == Status::Playing {
        // SE from an even row and SW from an odd row keep the columns.
        let row = grown.tail().game().piece().unwrap().pivot.y;
        grown
            .try_push(if row % 2 == 0 { 'l' } else { 'a' })
            .unwrap();
        n += 1;
        if n == 7 {
            grown.try_push('\n').unwrap();
        }
    }
    let text = grown.text_string() + "\t";
    let r = Replay::load(&p, 0, &text, Phrases::official());
    assert!(r.stop().is_none(), "{:?}", r.stop());
    assert!(r.tail().lines() >= 2, "{} lines", r.tail().lines());
    check_frames(&r, &p, 0);
    let e = replay(&p, 0, &text, &Phrases::official());
    assert_eq!(r.final_score(), e.score);
    assert_eq!(r.tail().game().move_score(), e.move_score);
    assert_eq!(r.power_at(r.len()), e.power_score);
    assert_eq!(r.len() as u32, e.commands);
    assert_eq!(r.end(), e.end);
}

#[test]
fn owners_record_the_unit_and_shift_down_on_a_clear() {
    let p = problem();
    // Seed 0 deals unit 0 first. Unit 0 spawns with cells (1,0),(2,0) on a 5-wide board.
    let mut r = Replay::new(&p, 0, Phrases::official());
    let first = r.tail().game().piece().unwrap().unit;
    // Drop the unit straight down (SE then SW keeps the columns) until it locks.
    let mut n = 0;
    loop {
        let cmd = if n % 2 == 0 { 'l' } else { 'a' };
        n += 1;
        if let Pushed::Played(_, Outcome::Locked { .. }) = r.try_push(cmd).unwrap() {
            break;
        }
    }
    let s = r.tail();
    let cells: Vec<(i64, i64)> = (0..6)
        .flat_map(|y| (0..5).map(move |x| (x, y)))
        .filter(|&(x, y)| s.owners().get(x, y) == Owner::Unit(first))
        .collect();
    assert_eq!(cells.len(), p.units[first].size());
    assert!(s.owners().matches(s.game()));
    assert_eq!(s.owners().get(0, 5), Owner::Start);
}

#[test]
fn an_error_stops_the_replay_where_the_evaluator_does() {
    let p = problem();
    // E then W returns the unit to its spawn position.
    let r = Replay::load(&p, 0, "bbp!", Phrases::official());
    let e = replay(&p, 0, "bbp!", &Phrases::official());
    let (end, c) = r.stop().unwrap();
    assert_eq!(end, e.end);
    assert_eq!(r.end(), e.end);
    assert_eq!(c, Some('p'));
    assert_eq!(r.len(), 2);
    assert_eq!(r.text_string(), "bb");
    assert_eq!(r.final_score(), 0);
    check_frames(&r, &p, 0);

    let r = Replay::load(&p, 0, "b-b", Phrases::official());
    assert_eq!(r.end(), replay(&p, 0, "b-b", &Phrases::official()).end);
    assert_eq!(r.len(), 1);

    let r = Replay::load(&p, 9, "b", Phrases::official());
    assert_eq!(r.end(), replay(&p, 9, "b", &Phrases::official()).end);
    assert_eq!(r.len(), 0);
}

#[test]
fn refused_commands_change_nothing_and_undo_restores_earlier_frames() {
    let p = problem();
    let mut r = Replay::new(&p, 3, Phrases::official());
    for c in "ei! ".chars() {
        r.try_push(c).unwrap();
    }
    let before = r.state_at(r.len());
    // W after E returns to a held position (E then W on the same row): refused.
    r.try_push('b').unwrap();
    let refused = r.try_push('p').unwrap_err();
    assert_eq!(
        refused,
        Refused::Game(Command::W, GameError::RepeatedPosition)
    );
    assert!(refused.reason().contains("repeated position"));
    assert_eq!(r.try_push('-'), Err(Refused::InvalidCharacter('-')));
    assert_eq!(r.text_string(), "ei! b");
    assert_eq!(r.tail().game().commands() as usize, r.len());
    assert_eq!(r.undo(), Some(Command::E));
    assert_eq!(r.text_string(), "ei! ");
    assert_eq!(r.tail().game().piece(), before.game().piece());
    assert_eq!(r.counts_at(r.len())[0], 1, "ei! is still spelt");
    // Undo everything, then more than everything.
    while r.undo().is_some() {}
    assert_eq!(r.len(), 0);
    assert_eq!(r.undo(), None);
    assert_eq!(r.counts_at(0)[0], 0);
    check_frames(&r, &p, 3);
}

#[test]
fn long_games_thin_their_checkpoints_and_still_seek_exactly() {
    let p = problem();
    let mut r = Replay::new(&p, 0, Phrases::official());
    // A budget of about four states, and a stride of one to start with.
    r.budget = 4 * r.tail.bytes();
    r.stride = 1;
    // SE until the unit locks, unit after unit, to the end of the game.
    while r.tail().game().status() == Status::Playing {
        r.try_push('l').unwrap();
    }
    assert!(r.len() > 8, "{} commands", r.len());
    assert!(
        r.checkpoints.len() <= 4,
        "{} checkpoints",
        r.checkpoints.len()
    );
    assert!(r.stride > 1);
    for (k, c) in r.checkpoints.iter().enumerate() {
        assert_eq!(c.frame(), k * r.stride);
    }
    check_frames(&r, &p, 0);
    // Undo back across checkpoints keeps seeking exact.
    for _ in 0..5 {
        r.undo().unwrap();
    }
    check_frames(&r, &p, 0);
}

#[test]
fn counts_of_prefixes_match_the_engine() {
    let phrases = Phrases::new(["ia! ia!".to_string(), "ei!".to_string(), "a".into()]);
    let mut s = Spelt::new(&phrases);
    let text = "IA! ia! ia!\nei!ei!a";
    for (n, c) in text.chars().enumerate() {
        s.push(c);
        let prefix: String = text.chars().take(n + 1).collect();
        assert_eq!(s.counts(n + 1), phrases.count(&prefix), "{prefix:?}");
    }
    assert_eq!(s.counts(7), vec![1, 0, 2], "two a's in IA! ia!");
    let over: Vec<_> = s.overlapping(text.len(), 5, 6).map(|o| o.start).collect();
    assert_eq!(over, vec![5, 0, 4], "a and both ia! ia! cover character 5");
    s.truncate(9);
    assert_eq!(s.counts(100), phrases.count(&text[..9]));
}
