//! A seed's rounds and the order across seeds on the simulated clock: quick answers first, time
//! where the gains are, beams that widen, survival systems, polish, the greedy spelling's fit and
//! the exhaustive search.

use super::*;
use crate::solve::{WideFirst, WideRule};

/// Every seed gets its quick answer, then its greedy spelling, before any seed gets more.
#[test]
fn every_seed_is_answered_before_any_seed_gets_more() {
    let worlds: Vec<World> = (0..7)
        .map(|i| World {
            base: 10_000.0 * (i + 1) as f64,
            source: 100 + 50 * i,
            ..small()
        })
        .collect();
    for workers in [1, 2, 4] {
        let (trace, best) = simulate(&worlds, workers, Some(5.0), None, 1.0);
        let quick = |s: &Step| s.tasks.iter().any(|t| matches!(t, Task::Quick { .. }));
        let answered = trace.iter().take_while(|s| quick(s)).count();
        assert_eq!(answered, worlds.len(), "{workers} workers");
        assert!(trace.iter().skip(answered).all(|s| !quick(s)));
        // Then every quick answer is spelt greedily, before any beam.
        let spell = |s: &Step| {
            s.tasks
                == [Task::SpellGreedy {
                    game: GameId::Planned(0),
                }]
        };
        let spelt = trace[answered..].iter().take_while(|s| spell(s)).count();
        assert_eq!(spelt, worlds.len(), "{workers} workers");
        // Smallest first.
        let order: Vec<usize> = trace[..answered].iter().map(|s| s.seed).collect();
        assert_eq!(order, (0..worlds.len()).collect::<Vec<_>>());
        assert!(best.iter().all(|&b| b > 0));
    }
}

/// Time goes where the gains are: a seed whose games keep improving gets more rounds than one
/// that stopped improving, but the second is not starved.
#[test]
fn time_goes_to_the_seed_whose_rounds_gain() {
    let flat = World {
        base: 5_000.0,
        ..small()
    };
    let rich = World {
        base: 50_000.0,
        ..small()
    };
    let (trace, _) = simulate(&[flat, rich], 1, Some(20.0), None, 1.0);
    let rounds = |seed: usize| trace.iter().filter(|s| s.seed == seed).count();
    assert!(rounds(1) > rounds(0), "{} vs {}", rounds(1), rounds(0));
    assert!(rounds(0) >= 5, "{}", rounds(0));
}

/// With a budget of attempts every seed plans exactly that many games, whatever the workers.
#[test]
fn a_budget_of_attempts_plans_that_many_games() {
    let worlds = [small(), survival_like()];
    for workers in [1, 3] {
        let (trace, _) = simulate(&worlds, workers, None, Some(6), 1.0);
        for seed in 0..2 {
            let planned = trace
                .iter()
                .filter(|s| s.seed == seed)
                .flat_map(|s| &s.tasks)
                .filter(|t| matches!(t, Task::Quick { .. } | Task::Attempt(_)))
                .count();
            assert_eq!(planned, 6, "seed {seed}, {workers} workers");
        }
    }
    // One thread or three: each seed's rounds are the same.
    let one = simulate(&worlds, 1, None, Some(6), 1.0).0;
    let three = simulate(&worlds, 3, None, Some(6), 1.0).0;
    let of = |t: &[Step], seed: usize| -> Vec<Vec<Task>> {
        t.iter()
            .filter(|s| s.seed == seed)
            .map(|s| s.tasks.clone())
            .collect()
    };
    assert_eq!(of(&one, 0), of(&three, 0));
    assert_eq!(of(&one, 1), of(&three, 1));
}

/// Beams whose games die early widen until they survive; on a board where every game is
/// whole, the rounds settle at a width and turn to neighbourhoods and polish.
#[test]
fn dying_games_widen_and_whole_ones_turn_to_neighbourhoods() {
    let (trace, _) = simulate(&[survival_like()], 2, Some(30.0), None, 1.0);
    let widest = trace.iter().map(fresh_width).max().unwrap_or(0);
    assert!(widest >= 64, "widest fresh beam {widest}");
    let (trace, _) = simulate(&[small()], 2, Some(10.0), None, 1.0);
    assert!(trace.iter().any(|s| s.kind == RoundKind::Cuts));
    assert!(trace
        .iter()
        .any(|s| s.tasks.iter().any(|t| matches!(t, Task::Polish { .. }))));
}

/// While the best game dies early, every attempt goes to the survival system (with
/// `survival_every` 1), and the wide fresh ones revive their beams; once a game is whole, none
/// does. Where that system keeps games alive at a quarter of the width, the first whole game
/// comes at a narrower beam than without it.
#[test]
fn dying_games_turn_to_the_survival_systems() {
    let with = World {
        survival: 1,
        greedy_dies: true,
        ..survival_like()
    };
    let o = SearchOptions {
        survival_every: 1,
        ..SearchOptions::default()
    };
    let (trace, _) = simulate_opts(std::slice::from_ref(&with), 2, 30.0, 1.0, o.clone());
    let attempts = |s: &Step| -> Vec<Attempt> { crate::solve::policy::attempts_of(&s.tasks) };
    let survival: Vec<Attempt> = trace
        .iter()
        .flat_map(attempts)
        .filter(|a| a.system == 5)
        .collect();
    assert!(!survival.is_empty());
    // The first round's greedy games come before any survival attempt.
    assert!(survival.iter().all(|a| a.width > 1));
    // The first whole game: a fresh survival attempt of width 16 (64 / 4) or more.
    let whole = survival
        .iter()
        .find(|a| a.base.is_none() && a.width >= 16)
        .expect("a survival beam wide enough to survive");
    assert!(whole.width < 64, "{whole:?}");
    // After it, no survival attempt.
    let last = trace
        .iter()
        .rposition(|s| attempts(s).iter().any(|a| a.system == 5))
        .unwrap();
    let first_whole = trace
        .iter()
        .position(|s| attempts(s).iter().any(|a| a.id == whole.id))
        .unwrap();
    assert_eq!(
        last, first_whole,
        "no survival attempt after the first whole game"
    );
    // Until then, every attempt after the first round plans with the survival system.
    assert!(trace[1..=first_whole]
        .iter()
        .flat_map(attempts)
        .all(|a| a.system == 5));
    // And the fresh attempts of width 16 or more revive their beams, within the work
    // the cost model counts on for them; narrower ones, re-plans from cuts, and every attempt
    // after, do not.
    let before: Vec<Attempt> = trace[..=first_whole].iter().flat_map(attempts).collect();
    assert!(before.iter().any(|a| a.revive > 0));
    for a in &before {
        let fresh_and_wide = a.base.is_none() && a.width >= o.revive_width;
        assert_eq!(a.revive > 0, fresh_and_wide, "{a:?}");
        assert!(a.revive <= a.width * 1000 * 2, "{a:?}");
    }
    assert!(trace[first_whole + 1..]
        .iter()
        .flat_map(attempts)
        .all(|a| a.revive == 0));
    // The survival system's attempts value no phrase (`survival_valuer` false by default); the
    // others value them by words while the best game dies early, by characters once one is
    // whole.
    assert!(!o.survival_valuer);
    for (i, s) in trace.iter().enumerate().skip(1) {
        for a in attempts(s) {
            let expected = match (a.system == 5, i > first_whole) {
                (true, _) => Valuer::Off,
                (false, false) => Valuer::Words,
                (false, true) => Valuer::Chars,
            };
            assert_eq!(a.valuer, expected, "{a:?}");
        }
    }
    // Without survival systems, no beam narrower than 64 makes a whole game.
    let without = World {
        greedy_dies: true,
        ..survival_like()
    };
    let (trace, _) = simulate_opts(&[without], 2, 30.0, 1.0, o);
    assert!(trace.iter().flat_map(attempts).all(|a| a.system < 5));
    assert!(trace.iter().map(fresh_width).max().unwrap_or(0) >= 64);
}

/// With [`SearchOptions::dying_cuts`], while the best game dies early, each width's round of
/// fresh games is followed by a round of re-plans of the best game from cuts at that width, and
/// only then do the beams widen; a run by attempts widens at once, as before.
#[test]
fn dying_games_are_repaired_at_each_width_before_the_beams_widen() {
    let world = World {
        survival: 1,
        greedy_dies: true,
        ..survival_like()
    };
    let cuts = SearchOptions {
        dying_cuts: true,
        ..SearchOptions::default()
    };
    let (trace, _) = simulate_opts(std::slice::from_ref(&world), 2, 30.0, 1.0, cuts.clone());
    let beam = |s: &&Step| {
        s.kind != RoundKind::Tail
            && !s.tasks.is_empty()
            && s.tasks.iter().all(|t| matches!(t, Task::Attempt(_)))
    };
    let width = |s: &Step| match &s.tasks[0] {
        Task::Attempt(a) => a.width,
        _ => unreachable!(),
    };
    // The survival system's fresh games are whole from width 16 on (64 / 4).
    let first_whole = trace
        .iter()
        .position(|s| fresh_width(s) >= 16)
        .expect("a fresh round wide enough to survive");
    let rounds: Vec<(RoundKind, usize)> = trace[..first_whole]
        .iter()
        .filter(beam)
        .map(|s| (s.kind, width(s)))
        .collect();
    assert!(rounds.len() >= 2, "{rounds:?}");
    for (i, pair) in rounds.chunks(2).enumerate() {
        assert_eq!(pair[0].0, RoundKind::Fresh, "{rounds:?}");
        if let Some(&(kind, w)) = pair.get(1) {
            assert_eq!((kind, w), (RoundKind::Cuts, pair[0].1), "{rounds:?}");
        }
        if i > 0 {
            assert!(pair[0].1 > rounds[2 * i - 1].1, "{rounds:?}");
        }
    }
    // By attempts, the beams widen after the first round of fresh games at once.
    let (trace, _) = simulate_with(
        &[world],
        2,
        None,
        Some(12),
        1.0,
        Checks::hard(&CHECKS),
        cuts,
    );
    let rounds: Vec<(RoundKind, usize)> = trace
        .iter()
        .filter(beam)
        .map(|s| (s.kind, width(s)))
        .take(2)
        .collect();
    assert_eq!(rounds.len(), 2);
    assert!(rounds.iter().all(|r| r.0 == RoundKind::Fresh), "{rounds:?}");
    assert!(rounds[1].1 > rounds[0].1, "{rounds:?}");
}

/// While the best game dies, the beams of fresh games widen by `dying_growth`; the widening
/// steps of a seed whose games live are `growth`'s (the other tests' defaults).
#[test]
fn dying_games_widen_by_the_dying_growth() {
    let world = World {
        survival: 1,
        greedy_dies: true,
        ..survival_like()
    };
    for dying_growth in [2, 4] {
        let o = SearchOptions {
            dying_growth,
            ..SearchOptions::default()
        };
        let (trace, _) = simulate_opts(std::slice::from_ref(&world), 2, 30.0, 1.0, o);
        // The survival system's fresh games are whole from width 16 on (64 / 4).
        let mut widths: Vec<usize> = Vec::new();
        for w in trace.iter().map(fresh_width).filter(|&w| w > 0) {
            if widths.last() != Some(&w) {
                widths.push(w);
            }
            if w >= 16 {
                break;
            }
        }
        assert!(
            widths.len() >= 2 && *widths.last().unwrap() >= 16,
            "{widths:?}"
        );
        for pair in widths.windows(2) {
            assert_eq!(pair[1], pair[0] * dying_growth, "{widths:?}");
        }
    }
}

fn fresh_width(s: &Step) -> usize {
    s.tasks
        .iter()
        .filter_map(|t| match t {
            Task::Attempt(a) if a.base.is_none() => Some(a.width),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn rank_and_widen_rules() {
    assert_eq!(
        rank_systems(&[(1, 200), (0, 0), (0, 0)], &[]),
        vec![1, 2, 0]
    );
    assert_eq!(
        rank_systems(&[(1, 200), (4, 300), (0, 0)], &[]),
        vec![2, 0, 1]
    );
    assert_eq!(
        rank_systems(&[(16, 200), (4, 300), (4, 100)], &[]),
        vec![1, 0, 2]
    );
    // A system to try again comes after the ones never run and the best tried, before the
    // others (the quick answer's system among them).
    assert_eq!(
        rank_systems(
            &[(16, 200), (4, 300), (4, 100), (0, 0)],
            &[false, false, true]
        ),
        vec![3, 1, 2, 0]
    );
    assert_eq!(
        rank_systems(
            &[(1, 100), (16, 200), (4, 300), (4, 50)],
            &[false, true, false, true]
        ),
        vec![2, 1, 3, 0]
    );
    for at_width in 0..8 {
        assert!(!widens(0.0, true, true, at_width, 8), "{at_width}");
        assert!(widens(5.0, true, true, at_width, 8));
        assert!(widens(0.0, false, false, at_width, 8));
    }
    assert!(widens(0.0, true, true, 8, 8));
    assert!(!widens(0.0, true, false, 8, 8));
    assert!(polish_goes_first(true, 10.0, 0.0));
    assert!(!polish_goes_first(true, 10.0, 20.0));
    assert!(!polish_goes_first(false, 10.0, 0.0));
}

/// A wide round runs the wide systems first as its rule says ([`wide_first`]).
#[test]
fn wide_first_rules() {
    let record = [(1, 100), (0, 0), (16, 200), (0, 0), (0, 0)];
    // The rank after `wide_first` of the systems of `first`, each system's games lasting the
    // whole source where `lasted` says so.
    let ranked = |record: &[(usize, u64)], first: &[usize], lasted: &[bool], rule: WideRule| {
        let mut rank = rank_systems(record, &[]);
        wide_first(&mut rank, first, record, lasted, rule);
        rank
    };
    let rule = |below: usize, beside: bool, margin: f64| WideRule {
        below,
        beside,
        margin,
    };
    let all = [true; 5];
    assert_eq!(rank_systems(&record, &[]), vec![1, 3, 4, 0, 2]);
    // A wide round runs the wide systems never run first, in their order; one that ran keeps
    // its rank.
    let never = rule(1, false, 1.0);
    assert_eq!(
        ranked(&record, &[4, 2, 3], &all, never),
        vec![4, 3, 1, 0, 2]
    );
    assert_eq!(ranked(&record, &[], &all, never), vec![1, 3, 4, 0, 2]);
    // A wide system that ran only narrower beams than `below` goes first too (system 2 ran at
    // width 16); one that ran as wide keeps its rank.
    let wide = ranked(&record, &[2, 0], &all, rule(64, false, 1.0));
    assert_eq!(wide, vec![2, 0, 1, 3, 4]);
    let narrow = ranked(&record, &[2, 0], &all, rule(16, false, 1.0));
    assert_eq!(narrow, vec![0, 1, 3, 4, 2]);
    assert_eq!(WideFirst::Never.rule(256, 64, 0.5).below, 1);
    assert_eq!(WideFirst::Wide.rule(256, 64, 0.5).below, 64);
    assert_eq!(WideFirst::Beside.rule(256, 64, 0.5).below, 64);
    assert_eq!(WideFirst::Round.rule(256, 64, 0.5).below, 256);
    // Beside: a wide system that ran narrow goes right after the best system tried (system 2,
    // the highest score), one that never ran still first.
    let beside = ranked(&record, &[0, 3], &all, rule(64, true, 1.0));
    assert_eq!(beside, vec![3, 1, 4, 2, 0]);
    // Near: a wide system that ran narrow moves beside the best only while its score lies
    // within the margin of the best's (system 0 scored 100 against system 2's 200); one that
    // never ran moves whatever the margin.
    for (margin, want) in [(0.5, vec![3, 1, 4, 2, 0]), (0.49, vec![3, 1, 4, 0, 2])] {
        let near = ranked(&record, &[0, 3], &all, rule(64, true, margin));
        assert_eq!(near, want, "margin {margin}");
    }
    // One whose games all died moves whatever it scored: its score counts only the units it
    // lasted.
    let lasted = [false, true, true, true, true];
    let died = ranked(&record, &[0, 3], &lasted, rule(64, true, 0.01));
    assert_eq!(died, vec![3, 1, 4, 2, 0]);
    assert_eq!(WideFirst::Near.rule(256, 64, 0.02), rule(64, true, 0.02));
    // Regression (problem 10 on the work clock at 10 s): the quick answer's system (0, run at
    // width 1 only) ranks ahead of the best system (1); `pairs` (3), within the margin, goes
    // beside the best, which then leads every other system that ran, so that a round of two
    // plays both (before: 0, 1, 3, and `pairs` never ran wide).
    let tenth = [(1, 2500), (16, 8724), (4, 8587), (4, 8590), (16, 2686)];
    let lasted = [false, true, true, true, true];
    assert_eq!(rank_systems(&tenth, &[]), vec![0, 1, 3, 2, 4]);
    let near = ranked(&tenth, &[3], &lasted, rule(64, true, 0.02));
    assert_eq!(near, vec![1, 3, 0, 2, 4]);
    // Where no wide system moves, the rank stays as it was.
    let far = ranked(&tenth, &[4], &lasted, rule(64, true, 0.02));
    assert_eq!(far, vec![0, 1, 3, 2, 4]);
    assert_eq!(WideFirst::Beside.rule(256, 64, 0.02).margin, 1.0);
    // With no system tried, at the front.
    let untried = [(0, 0), (0, 0), (1, 0)];
    assert_eq!(
        ranked(&untried, &[2], &[true; 3], rule(64, true, 1.0))[0],
        2
    );
}

/// The planning cost per unit of width follows the widest whole game measured: a narrow plan's
/// work (fixed costs) no longer raises it once a wider one is known.
#[test]
fn the_plan_cost_follows_the_widest_game_measured() {
    let mut costs = costs_at(1e-4);
    let plan = |c: &Costs| (c.plan.per_unit, c.plan.width);
    costs.learn_plan(4, true, 8e-6, false);
    assert_eq!(plan(&costs), (2e-6, 4));
    costs.learn_plan(256, true, 128e-6, false);
    assert_eq!(plan(&costs), (0.5e-6, 256));
    costs.learn_plan(4, true, 1e-3, false);
    assert_eq!(costs.per_unit(Kinds::OTHERS), 0.5e-6);
    costs.learn_plan(256, false, 64e-6, false);
    assert_eq!(costs.per_unit(Kinds::OTHERS), 0.5e-6);
    costs.learn_plan(256, false, 512e-6, false);
    assert_eq!(costs.per_unit(Kinds::OTHERS), 2e-6);
    // Until a survival system's plan is measured, its rounds cost as the others' do.
    assert_eq!(costs.per_unit(Kinds::SURVIVAL), 2e-6);
    assert_eq!(costs.per_unit(Kinds::BOTH), 2e-6);
}

/// A seed's costs before any beam: `per_unit` measured by the quick answer at width 1.
fn costs_at(per_unit: f64) -> Costs {
    Costs {
        plan: UnitWork { per_unit, width: 1 },
        survival: None,
        unvalued: None,
        units: 100.0,
        plain: 0.0,
        greedy: None,
        encode: 0.01,
        dp_measured: false,
        chars_factor: 60.0,
        chars_measured: false,
        polish_gain: 1.02,
        polish_measured: false,
    }
}

/// Regression (issue 44): a survival system's beam costs several times another's of the same
/// width; learnt into one cost, it made every later round of the others look too dear to fit
/// (S45's 10114 at 1 s re-planned tails at width 4 where a width-16 round of `low` fitted and
/// scored 10 % more). Each kind of system now has its own cost, and a re-plan of either only
/// raises its own; a round costs its dearest kind's. On problem 18 at 1 s, pricing a round of
/// both kinds at the survival systems' cost alone started a width-16 round whose other
/// system's beam, valuing phrases by words, cost four times more (38,024 -> 27,853).
#[test]
fn survival_plans_cost_apart_from_the_others() {
    let mut costs = costs_at(1e-4);
    costs.learn_plan(4, true, 8e-6, false);
    costs.learn_plan(4, true, 32e-6, true);
    assert_eq!(costs.per_unit(Kinds::OTHERS), 2e-6);
    assert_eq!(costs.per_unit(Kinds::SURVIVAL), 8e-6);
    assert_eq!(costs.per_unit(Kinds::BOTH), 8e-6);
    costs.learn_plan(4, false, 64e-6, true);
    assert_eq!(costs.per_unit(Kinds::OTHERS), 2e-6);
    assert_eq!(costs.per_unit(Kinds::SURVIVAL), 16e-6);
    costs.learn_plan(16, true, 640e-6, false);
    assert_eq!(costs.per_unit(Kinds::OTHERS), 40e-6);
    assert_eq!(costs.per_unit(Kinds::SURVIVAL), 16e-6);
    assert_eq!(costs.per_unit(Kinds::BOTH), 40e-6);
}

/// The quick answer's greedy spelling runs only where one unit's spelling, with its margin, fits
/// before the deadline (`greedy_units_left` units at `spell_state_seconds` per state of the
/// largest unit space): behind the quick answer on its lane, in what the quick answer's
/// planning leaves; alone, in the time left. A spelling that does not fit is not wanted: the
/// seed goes on to its beams.
#[test]
fn a_greedy_spelling_that_cannot_fit_is_left_out() {
    let world = small();
    let opts = SearchOptions::default();
    let policy = |lanes: usize, unit_states: usize| {
        let setup = SeedSetup {
            unit_states,
            ..lone_seed(&world, lanes)
        };
        Policy::new(opts.clone(), Preset::clock(&opts), vec![setup])
    };
    let greedy = |r: &Round| {
        r.tasks
            .iter()
            .any(|t| matches!(t, Task::SpellGreedy { .. }))
    };
    // 10 million states: 5 s a unit, 10 s with the margin.
    for (states, left, fits) in [
        (10_000_000, 8.0, false),
        (10_000_000, 30.0, true),
        (0, 1e-3, true),
    ] {
        // Two lanes: behind the quick answer, which may plan in half the time left.
        let first = policy(2, states).next(&|_| true, Some(&[left])).unwrap();
        assert_eq!(greedy(&first), fits, "{states} states, {left} s, two lanes");
        assert!(matches!(first.tasks[0], Task::Quick { .. }));
        // One lane: a round of its own after the quick answer.
        let mut p = policy(1, states);
        let quick = p.next(&|_| true, Some(&[2.0 * left])).unwrap();
        let reports: Vec<Report> = quick.tasks.iter().map(|t| world.run(0, t, &[])).collect();
        p.report(&quick, &reports);
        let next = p.next(&|_| true, Some(&[left])).unwrap();
        assert_eq!(greedy(&next), fits, "{states} states, {left} s, one lane");
    }
}

/// A seed whose whole space of games is small gets the exhaustive search right after its quick
/// answer (one part per lane, before the greedy spelling on one lane), and is finished once
/// every part is searched to the end: a short budget then gives what a long one does. Not on a
/// run by attempts, not above the space it may have, not when it cannot fit before the deadline
/// (the greedy spelling comes next instead), and a part that found too many games leaves the
/// seed to its beams.
#[test]
fn a_tiny_seed_is_searched_to_the_end_after_its_quick_answer() {
    let world = World {
        source: 3,
        ..small()
    };
    let opts = SearchOptions::default();
    let policy = |lanes: usize, space: f64, preset: Preset| {
        let setup = SeedSetup {
            space,
            ..lone_seed(&world, lanes)
        };
        Policy::new(opts.clone(), preset, vec![setup])
    };
    let run = |p: &mut Policy, r: &Round, unfinished: bool| {
        let reports: Vec<Report> = r
            .tasks
            .iter()
            .map(|t| match t {
                Task::Exhaust { .. } if unfinished => crate::solve::tasks::unfinished(),
                _ => world.run(0, t, &[]),
            })
            .collect();
        p.report(r, &reports);
    };
    let exhaust = |r: &Round| -> Vec<(usize, usize)> {
        r.tasks
            .iter()
            .filter_map(|t| match t {
                Task::Exhaust { part, parts, .. } => Some((*part, *parts)),
                _ => None,
            })
            .collect()
    };
    let clock = Preset::clock(&opts);
    for lanes in [1, 2] {
        for left in [None, Some(60.0)] {
            let horizons = left.map(|l| vec![l]);
            let h = horizons.as_deref();
            let mut p = policy(lanes, 100.0, clock);
            let quick = p.next(&|_| true, h).unwrap();
            assert!(matches!(quick.tasks[0], Task::Quick { .. }));
            assert!(exhaust(&quick).is_empty());
            run(&mut p, &quick, false);
            let every = p.next(&|_| true, h).unwrap();
            let parts: Vec<(usize, usize)> = (0..lanes).map(|k| (k, lanes)).collect();
            assert_eq!(exhaust(&every), parts, "{lanes} lanes");
            assert_eq!(every.tasks.len(), lanes);
            // Its games take ids after the quick answer's round.
            let first = lanes as u32;
            assert!(matches!(every.tasks[0], Task::Exhaust { id, .. } if id == first));
            run(&mut p, &every, false);
            assert!(p.finished(), "{lanes} lanes");
            assert!(p.next(&|_| true, h).is_none());
            assert_eq!(p.best(0), (world.base * 1.2) as u64);
            // A part that gave up: the seed searches on, as any other.
            let mut p = policy(lanes, 100.0, clock);
            let quick = p.next(&|_| true, h).unwrap();
            run(&mut p, &quick, false);
            let every = p.next(&|_| true, h).unwrap();
            run(&mut p, &every, true);
            assert!(!p.finished());
            let next = p.next(&|_| true, h).unwrap();
            assert!(exhaust(&next).is_empty(), "{lanes} lanes: {next:?}");
        }
        // Not where the space is too large, not on a run by attempts, not when the search
        // cannot fit before the deadline.
        let cases = [
            (opts.exhaust.most_space * 1.01, clock, None),
            (100.0, Preset::attempts(4, &opts), None),
            (100.0, clock, Some(vec![opts.exhaust.work * 0.5])),
        ];
        for (space, preset, horizons) in cases {
            let mut p = policy(lanes, space, preset);
            let h = horizons.as_deref();
            let quick = p.next(&|_| true, h).unwrap();
            run(&mut p, &quick, false);
            if let Some(next) = p.next(&|_| true, h) {
                assert!(exhaust(&next).is_empty(), "{space} {preset:?}: {next:?}");
            }
        }
    }
}

/// Regression: a quick answer that does not finish measures no costs, and the greedy spelling of
/// its round (on the second lane) then reported to a seed without them, where the policy
/// expected them and panicked. Now the seed stops with the games that round spelt.
#[test]
fn an_unfinished_quick_answer_does_not_panic() {
    let world = World {
        quick_unfinished: true,
        ..small()
    };
    let (trace, best) = simulate(&[world], 2, Some(5.0), None, 1.0);
    assert_eq!(trace.len(), 1, "the seed stops after its first round");
    assert!(best[0] > 0, "the first round's games are kept");
}
