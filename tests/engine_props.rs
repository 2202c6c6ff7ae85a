//! Property tests of the engine on random problems and random command strings: replay never
//! panics, is deterministic, and keeps its score invariants.

use hextris::engine::{replay, Command, End, Game, Phrases, Problem};
use proptest::prelude::*;
use std::path::Path;

/// A random problem as JSON: small boards, odd units (pivots far away, negative members),
/// random filled cells, short sources.
fn problem_json() -> impl Strategy<Value = String> {
    let cell = (-3i64..4, -3i64..4);
    let unit = (
        prop::collection::btree_set(cell, 1..6),
        (-8i64..9, -8i64..9),
    );
    (
        1i64..10,
        1i64..10,
        prop::collection::vec(unit, 1..4),
        prop::collection::vec((0i64..10, 0i64..10), 0..12),
        0i64..12,
        prop::collection::vec(0i64..100_000, 1..3),
    )
        .prop_map(|(w, h, units, filled, len, seeds)| {
            let units: Vec<String> = units
                .iter()
                .map(|(members, pivot)| {
                    let m: Vec<(i64, i64)> = members.iter().copied().collect();
                    hextris::testkit::unit_json(&m, *pivot)
                })
                .collect();
            let filled: Vec<(i64, i64)> = filled
                .into_iter()
                .filter(|&(x, y)| x < w && y < h)
                .collect();
            hextris::testkit::problem_json((w, h), &units, &filled, len, &seeds)
        })
}

fn solution_text() -> impl Strategy<Value = String> {
    // Mostly command characters, some ignored ones, now and then an invalid one.
    let chars: Vec<char> = "pbalmdkPBALMDK !'ei\n\t\r-?"
        .chars()
        .chain(std::iter::once('\u{212A}'))
        .collect();
    prop::collection::vec(prop::sample::select(chars), 0..80).prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn replay_never_panics_and_is_deterministic(json in problem_json(), text in solution_text()) {
        let p = Problem::from_json(&json, Path::new("random.json")).unwrap();
        let phrases = Phrases::official();
        let seed = p.seeds[0];
        let a = replay(&p, seed, &text, &phrases);
        let b = replay(&p, seed, &text, &phrases);
        prop_assert_eq!(&a, &b);
        if a.end.is_error() {
            prop_assert_eq!(a.score, 0);
        } else {
            prop_assert_eq!(a.score, a.move_score + a.power_score);
        }
        prop_assert!(a.locked <= p.source_length);
        if a.end == End::OutOfUnits {
            prop_assert_eq!(a.locked, p.source_length);
        }
    }

    #[test]
    fn commands_that_do_not_repeat_never_error(json in problem_json(), picks in prop::collection::vec(0usize..6, 0..120)) {
        // A player that avoids repeats by asking the engine plays until the game ends, error-free.
        let p = Problem::from_json(&json, Path::new("random.json")).unwrap();
        let mut g = Game::new(&p, p.seeds[0]);
        let mut text = String::new();
        for k in picks {
            if g.piece().is_none() {
                break;
            }
            let cmd = (0..6).map(|d| Command::ALL[(k + d) % 6]).find(|&c| !g.would_repeat(c));
            let Some(cmd) = cmd else { break };
            prop_assert!(g.step(cmd).is_ok());
            text.push(cmd.char());
        }
        let e = replay(&p, p.seeds[0], &text, &Phrases::official());
        prop_assert!(!e.end.is_error(), "{:?} for {:?}", e.end, text);
        prop_assert_eq!(e.move_score, g.move_score());
        prop_assert_eq!(e.locked, g.locked());
    }
}
