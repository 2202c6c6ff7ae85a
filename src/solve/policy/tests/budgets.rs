//! Budget-independence on the simulated clock: the same run gives the same trace, a longer or
//! slower run plays a shorter one's rounds first, and every round fits before its horizon.

use super::*;

/// The rounds a run plays before its first tail round (the tail is the budget's own).
fn before_tail(trace: &[Step]) -> &[Step] {
    let end = trace
        .iter()
        .position(|s| s.kind == RoundKind::Tail)
        .unwrap_or(trace.len());
    &trace[..end]
}

#[test]
fn the_same_run_gives_the_same_trace() {
    for world in [problem_24_like(), survival_like(), small()] {
        let a = simulate(std::slice::from_ref(&world), 2, Some(30.0), None, 1.0);
        let b = simulate(std::slice::from_ref(&world), 2, Some(30.0), None, 1.0);
        assert_eq!(a, b);
        assert!(a.0.len() > 3, "{world:?}: {} rounds", a.0.len());
    }
}

/// A longer budget first plays every round a shorter one plays: all of them, the tail included,
/// when the shorter budget is one of the checkpoints (as 10, 30, 100 s are on the command
/// line), and those before its tail otherwise. So it holds every game the shorter run found.
#[test]
fn a_longer_budget_plays_the_shorter_ones_rounds_first() {
    for world in [problem_24_like(), survival_like(), small()] {
        let worlds = std::slice::from_ref(&world);
        for (short, long) in [
            (1.0, 10.0),
            (10.0, 60.0),
            (3.0, 6.0),
            (20.0, 21.0),
            (3.0, 100.0),
        ] {
            let (a, best_a) = simulate(worlds, 2, Some(short), None, 1.0);
            let (b, best_b) = simulate(worlds, 2, Some(long), None, 1.0);
            let head = if CHECKS.contains(&short) {
                assert!(best_b >= best_a, "{world:?} at {short} s and {long} s");
                &a[..]
            } else {
                before_tail(&a)
            };
            let strip = |s: &[Step]| -> Vec<(usize, RoundKind, Vec<Task>)> {
                s.iter()
                    .map(|s| (s.seed, s.kind, s.tasks.clone()))
                    .collect()
            };
            assert_eq!(
                strip(head),
                strip(&b[..head.len()]),
                "{world:?} at {short} s and {long} s"
            );
        }
    }
}

/// The machine's speed changes only where the deadlines fall, not the rounds: a machine twice
/// as slow, given twice the time (and its checkpoints twice as late), plays the same rounds.
#[test]
fn a_slower_machine_plays_the_same_rounds_in_more_time() {
    let world = problem_24_like();
    let worlds = std::slice::from_ref(&world);
    let (fast, _) = simulate(worlds, 2, Some(30.0), None, 1.0);
    let (slow, _) = simulate(worlds, 2, Some(60.0), None, 2.0);
    let (a, b) = (&fast[..], &slow[..]);
    let n = a.len().min(b.len());
    assert!(n >= 8, "{n} rounds");
    assert_eq!(a.len(), b.len());
    for (x, y) in a[..n].iter().zip(&b[..n]) {
        assert_eq!((x.seed, &x.tasks), (y.seed, &y.tasks));
    }
}

/// The end of the time goes to rounds that fit: a round that would not end before the deadline
/// is replaced by a tail round, and nothing starts that the model says cannot end in time.
#[test]
fn rounds_fit_before_the_deadline() {
    for world in [problem_24_like(), small()] {
        let budget = 12.0;
        let (trace, _) = simulate(std::slice::from_ref(&world), 2, Some(budget), None, 1.0);
        assert!(trace.iter().any(|s| s.kind == RoundKind::Tail), "{world:?}");
    }
}

/// Each round takes as its deadline the horizon it is planned to end before: the quick answer
/// the first checkpoint's, the rounds before a checkpoint that one's, a tail included, so that a
/// run of 60 s plays up to 10 s the cuts a run of 10 s plays.
#[test]
fn rounds_take_their_horizon_as_their_deadline() {
    for world in [problem_24_like(), small()] {
        let (trace, _) = simulate(std::slice::from_ref(&world), 2, Some(60.0), None, 1.0);
        let ends: Vec<f64> = trace.iter().map(|s| s.until.expect("a deadline")).collect();
        for (s, &end) in trace.iter().zip(&ends) {
            assert!(
                [10.0, 30.0, 60.0].iter().any(|c| (c - end).abs() < 1e-9),
                "{world:?}: {s:?}"
            );
            assert!(end >= s.at, "{s:?}");
        }
        assert!(
            (ends[0] - 10.0).abs() < 1e-9,
            "the quick answer: {:?}",
            trace[0]
        );
        // The horizons follow one another: a round never goes back to an earlier one.
        assert!(ends.windows(2).all(|w| w[0] <= w[1] + 1e-9), "{ends:?}");
        let tail_at_10 = trace
            .iter()
            .zip(&ends)
            .any(|(s, &e)| s.kind == RoundKind::Tail && (e - 10.0).abs() < 1e-9);
        assert!(tail_at_10, "{world:?}: no tail before the 10 s checkpoint");
        // Without a deadline, no horizon.
        let (untimed, _) = simulate(std::slice::from_ref(&world), 2, None, Some(3), 1.0);
        assert!(untimed.iter().all(|s| s.until.is_none()));
    }
}

/// Regression: with seeds of different sizes, a longer run plays every round of a shorter one,
/// in the same order. A seed whose every round misses the first horizon proposes one for a later
/// horizon in the longer run; that round must not go before the other seeds' rounds (their tails
/// included) for the first horizon, which the shorter run plays (in it the first seed is
/// finished). It may fill a worker the shorter run leaves idle.
#[test]
fn a_round_for_a_later_horizon_waits_for_the_earlier_ones() {
    let sets = [
        vec![problem_24_like(), small()],
        vec![survival_like(), small()],
        vec![problem_24_like(), survival_like(), small()],
    ];
    let strip = |s: &[Step], until: f64| -> Vec<(usize, RoundKind, Vec<Task>)> {
        s.iter()
            .filter(|s| s.until.is_some_and(|u| u <= until + 1e-9))
            .map(|s| (s.seed, s.kind, s.tasks.clone()))
            .collect()
    };
    let mut later = 0;
    for worlds in &sets {
        for short in [0.2, 0.5, 1.0, 2.0, 4.0] {
            for long in [short * 2.0, short * 6.0] {
                let checks = [short];
                let run = |b: f64| {
                    let opts = SearchOptions::default();
                    simulate_with(worlds, 2, Some(b), None, 1.0, Checks::hard(&checks), opts)
                };
                let (a, _) = run(short);
                let (b, _) = run(long);
                let first = strip(&b, short);
                assert_eq!(
                    strip(&a, short),
                    first,
                    "{worlds:?} at {short} s and {long} s"
                );
                // The rounds for the later horizon start once no round for the first is left.
                let at = b
                    .iter()
                    .filter(|s| s.until.is_some_and(|u| u > short + 1e-9))
                    .map(|s| s.at)
                    .fold(f64::INFINITY, f64::min);
                later += b
                    .iter()
                    .filter(|s| s.at >= at && s.until.is_some_and(|u| u <= short + 1e-9))
                    .count();
            }
        }
    }
    // Some runs interleave the two horizons (a worker the shorter run leaves idle), so the
    // test reaches the case the fault was in.
    assert!(
        later > 0,
        "no run started a later round before an earlier one"
    );
}

/// A seed whose beams die early but for the survival system's wide ones (problem 18's kind):
/// its short runs end in revivals.
fn dying(survive: usize, base: f64) -> World {
    World {
        base,
        source: 1000,
        survive,
        plan_unit: 30e-6,
        spell_unit: 40e-6,
        survival: 1,
        greedy_dies: true,
        quick_unfinished: false,
    }
}

/// With a revive checkpoint at a shorter budget, a longer run owes the shorter run's revival
/// (its revive tail or its last round): it plays the same attempts, their ids marked owed and
/// their random seeds kept, once nothing of its own fits, so that it answers at least as well as
/// the revival's games; and it owes nothing where the shorter run played no revival.
#[test]
fn a_longer_run_pays_the_revivals_it_owes() {
    let attempts =
        |t: &[Step]| -> Vec<Attempt> { t.iter().flat_map(|s| attempts_of(&s.tasks)).collect() };
    let (mut owing, mut none) = (0, 0);
    for world in [
        dying(64, 90_000.0),
        dying(128, 60_000.0),
        dying(256, 30_000.0),
    ] {
        for short in [0.3, 0.6, 1.0, 1.5, 2.5] {
            for long in [short * 1.5, short * 4.0] {
                let worlds = [world.clone()];
                let (a, _) = simulate_with(
                    &worlds,
                    2,
                    Some(short),
                    None,
                    1.0,
                    Checks::hard(&[]),
                    SearchOptions::default(),
                );
                let opts = SearchOptions {
                    revive_checkpoints: vec![short],
                    ..SearchOptions::default()
                };
                let checks = Checks {
                    hard: &[],
                    revive: &[short],
                };
                let (b, best) = simulate_with(&worlds, 2, Some(long), None, 1.0, checks, opts);
                // The rounds of the shorter run whose attempts revive to its end, whole.
                let revives = |s: &&Step| {
                    attempts_of(&s.tasks)
                        .iter()
                        .any(|a| a.revive == crate::plan::REVIVE_TO_HORIZON)
                };
                let revivals: Vec<Step> = a.iter().filter(revives).cloned().collect();
                let revivals = attempts(&revivals);
                let owed: Vec<Attempt> = attempts(&b)
                    .into_iter()
                    .filter(|a| a.id & Attempt::OWED != 0)
                    .map(|a| Attempt { id: a.rng(), ..a })
                    .collect();
                let case = format!("{world:?} at {short} and {long} s");
                for o in &owed {
                    assert!(revivals.contains(o), "{case}: {o:?} owed, not played");
                }
                if owed.is_empty() {
                    none += 1;
                    continue;
                }
                owing += 1;
                // Its owed games are the shorter run's: the longer run answers at least as well.
                let games = owed.iter().map(|o| {
                    match world.run(0, &Task::Attempt(o.clone()), &[]).outcome {
                        Outcome::Spelt(g) => g.score,
                        _ => 0,
                    }
                });
                let most = games.max().unwrap_or(0);
                assert!(
                    best[0] >= most,
                    "{case}: {} below a revival's {most}",
                    best[0]
                );
                // The seed's own attempts keep their ids: none is owed twice or taken twice.
                let mut ids: Vec<u32> = attempts(&b).iter().map(|a| a.id).collect();
                let n = ids.len();
                ids.sort_unstable();
                ids.dedup();
                assert_eq!(ids.len(), n, "{case}: an id taken twice");
            }
        }
    }
    assert!(owing > 0 && none > 0, "{owing} runs owed, {none} did not");
}
