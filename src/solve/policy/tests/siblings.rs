//! What the seeds of one problem learn from each other ([`super::share`]): a dying seed's round
//! of fresh games weighed by its siblings' whole games.

use super::*;
use rand::{Rng, SeedableRng};

/// A seed of `problem` (1,000 units, `survival_like`'s source, with a survival system) that
/// holds one game of `units` units scoring `score` (the model's game, [`World::game`]).
fn lone_with_game(problem: usize, units: usize, score: u64) -> SeedState {
    let mut s = SeedState::new(SeedSetup {
        problem,
        survival: 1,
        ..lone_seed(&survival_like(), 1)
    });
    let game = survival_like().game(GameId::Planned(0), units, score as f64, Mode::Dp, 0);
    s.start_from(game);
    s
}

/// The one pass over the seeds gives what its slow twin gives seed by seed, on random runs: up to
/// 12 seeds of up to 5 problems, whole games or dying ones, scores that tie.
#[test]
fn whole_siblings_in_one_pass_as_one_by_one() {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(71);
    for case in 0..2000 {
        let n = rng.gen_range(0..=12);
        let problems = rng.gen_range(1..=5);
        let seeds: Vec<SeedState> = (0..n)
            .map(|_| {
                let units = if rng.gen_bool(0.5) {
                    1000
                } else {
                    rng.gen_range(1..1000)
                };
                lone_with_game(
                    rng.gen_range(0..problems),
                    units,
                    rng.gen_range(0..8) * 1000,
                )
            })
            .collect();
        let twin: Vec<Option<u64>> = seeds
            .iter()
            .map(|s| share::whole_sibling_score(&seeds, s.setup.problem))
            .collect();
        assert_eq!(share::whole_sibling_scores(&seeds), twin, "case {case}");
    }
}

/// Where a seed's beams die early and its siblings' (the seeds of its problem) live the whole
/// source, a round of its fresh games is weighed by what the siblings' whole games promise
/// ([`SearchOptions::sibling_promise`]): the lowest whole sibling's score less the seed's best,
/// over the round's price; not a round of cuts, not a seed whose game is whole, not a sibling of
/// another problem, not with the option off. (Regression: on the held-out problem 4704 a seed
/// whose width-16 beams died at 632 units was weighed at its past rounds' rate, as its siblings'
/// polishes and tails were, and its width-64 round never ran in 10 s.)
#[test]
fn a_dying_seed_is_weighed_by_its_siblings_whole_games() {
    let seed = lone_with_game;
    let seeds = vec![
        seed(0, 1000, 600_000),
        seed(0, 1000, 650_000),
        seed(0, 200, 100_000),
        seed(1, 1000, 900_000),
        seed(2, 300, 50_000),
    ];
    assert_eq!(share::whole_sibling_score(&seeds, 0), Some(600_000));
    assert_eq!(share::whole_sibling_score(&seeds, 1), Some(900_000));
    assert_eq!(share::whole_sibling_score(&seeds, 2), None);
    let by_seed = share::whole_sibling_scores(&seeds);
    let one_by_one: Vec<Option<u64>> = seeds
        .iter()
        .map(|s| share::whole_sibling_score(&seeds, s.setup.problem))
        .collect();
    assert_eq!(by_seed, one_by_one);
    let attempt = |base: Option<(GameId, usize)>| {
        Task::Attempt(Attempt {
            id: 3,
            system: 0,
            width: 64,
            mode: Mode::Dp,
            base,
            screen: Screen::NONE,
            valuer: crate::solve::stage::Valuer::Words,
            revive: 0,
        })
    };
    let proposal = |kind: RoundKind, base: Option<(GameId, usize)>| seed::Proposal {
        tasks: vec![attempt(base)],
        width: 64,
        kind,
        cost: Cost {
            plan: 1.9,
            spell: 0.1,
        },
    };
    let fresh = proposal(RoundKind::Fresh, None);
    let cuts = proposal(RoundKind::Cuts, Some((GameId::Planned(0), 100)));
    let on = SearchOptions::default();
    assert!(on.sibling_promise);
    let off = SearchOptions {
        sibling_promise: false,
        ..SearchOptions::default()
    };
    let whole = share::whole_sibling_score(&seeds, 0);
    // 500,000 points over 2 work seconds.
    assert_eq!(
        share::revival_promise(&on, &seeds[2], &fresh, whole),
        250_000.0
    );
    assert_eq!(share::revival_promise(&off, &seeds[2], &fresh, whole), 0.0);
    assert_eq!(share::revival_promise(&on, &seeds[2], &cuts, whole), 0.0);
    // A whole game promises nothing more; nor does a seed without a whole sibling.
    assert_eq!(share::revival_promise(&on, &seeds[0], &fresh, whole), 0.0);
    assert_eq!(share::revival_promise(&on, &seeds[4], &fresh, None), 0.0);
    // A sibling that scores less than the dying seed promises nothing.
    assert_eq!(
        share::revival_promise(&on, &seeds[2], &fresh, Some(90_000)),
        0.0
    );
}
