//! The policy on a simulated clock: a model of the games (scores that grow with the beam width,
//! a random part drawn from the attempt's id, costs that grow with the width) stands for the
//! planner and the encoders, and an event simulation stands for the workers. Nothing waits and
//! every run gives the same trace.

use super::costs::Costs;
use super::*;

/// A seed of the model.
#[derive(Clone, Debug)]
struct World {
    /// The score a width-1 game would get, spelt by the DP encoder.
    base: f64,
    /// Units in the source.
    source: usize,
    /// Beams narrower than this die early.
    survive: usize,
    /// Planning work per unit per unit of width.
    plan_unit: f64,
    /// DP spelling work per unit.
    spell_unit: f64,
    /// Survival systems after the five others: their beams survive at a quarter of the width.
    survival: usize,
    /// The quick answer dies as a width-1 beam does (problem 18's greedy game plays 33 of its
    /// 1,000 units); otherwise it is whole.
    greedy_dies: bool,
    /// The quick answer does not finish (its report is not a spelt game).
    quick_unfinished: bool,
}

/// A number in [0, 1) drawn from a key.
fn noise(key: u64) -> f64 {
    let x = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
    let x = (x ^ (x >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    (x >> 11) as f64 / (1u64 << 53) as f64
}

impl World {
    /// The units of the quick answer's greedy game.
    fn greedy_units(&self) -> usize {
        if self.greedy_dies {
            (self.source / self.survive).max(1)
        } else {
            self.source
        }
    }

    fn game(&self, id: GameId, units: usize, score: f64, spelling: Mode, system: usize) -> Summary {
        Summary {
            id,
            score: score.max(0.0) as u64,
            power: (score * 0.8).max(0.0) as u64,
            units,
            descents: units as u64 * 10,
            system,
            spelling,
            kept: 0,
            spell_work: units as f64 * self.spell_unit,
        }
    }

    /// A task's report, given the games the seed holds.
    fn run(&self, seed: usize, task: &Task, games: &[Summary]) -> Report {
        let key = |id: u32, k: u64| (seed as u64) << 40 ^ (id as u64) << 8 ^ k;
        match task {
            Task::Quick { id } => Report {
                outcome: if self.quick_unfinished {
                    Outcome::Unfinished
                } else {
                    Outcome::Spelt(self.game(
                        GameId::Planned(*id),
                        self.greedy_units(),
                        self.base * 0.1,
                        Mode::Plain,
                        0,
                    ))
                },
                plan_work: self.source as f64 * self.plan_unit,
                plans: 1,
                spell_work: self.source as f64 * self.spell_unit * 0.1,
                plan_seconds: 0.0,
                spell_seconds: 0.0,
            },
            Task::SpellGreedy { game } => Report {
                outcome: Outcome::Spelt(self.game(
                    *game,
                    self.greedy_units(),
                    self.base * 0.7,
                    Mode::Greedy,
                    0,
                )),
                plan_work: 0.0,
                plans: 0,
                spell_work: self.source as f64 * self.spell_unit * 0.3,
                plan_seconds: 0.0,
                spell_seconds: 0.0,
            },
            Task::Polish { game } => {
                let g = games.iter().find(|g| g.id == *game).expect("a kept game");
                let mut p = g.clone();
                p.score = (g.score as f64 * 1.03) as u64;
                p.spelling = Mode::Chars;
                Report {
                    outcome: Outcome::Spelt(p),
                    plan_work: 0.0,
                    plans: 0,
                    spell_work: g.units as f64 * self.spell_unit * 30.0,
                    plan_seconds: 0.0,
                    spell_seconds: 0.0,
                }
            }
            // Every game, the best spelt by the character encoder: above any beam's.
            Task::Exhaust { id, .. } => Report {
                outcome: Outcome::Spelt(self.game(
                    GameId::Planned(*id),
                    self.source,
                    self.base * 1.2,
                    Mode::Chars,
                    0,
                )),
                plan_work: 1e-3,
                plans: 1,
                spell_work: 0.25,
                plan_seconds: 0.0,
                spell_seconds: 0.0,
            },
            Task::Attempt(a) => {
                let lift = |id: u32| {
                    let w = (a.width as f64).log(4.0);
                    let system = [0.0, 0.02, 0.04, 0.01, 0.0][a.system % 5];
                    0.8 + 0.05 * w + system + 0.03 * noise(key(id, 1))
                };
                let survive = if a.system >= 5 {
                    (self.survive / 4).max(1)
                } else {
                    self.survive
                };
                let survives = if a.width >= survive {
                    self.source
                } else {
                    (self.source * a.width / survive).max(1)
                };
                // A neighbourhood keeps its base game's length; a fresh game lives as long as
                // its width allows.
                let (score, kept, units) = match a.base {
                    None => (
                        self.base * lift(a.id) * survives as f64 / self.source as f64,
                        0,
                        survives,
                    ),
                    Some((id, cut)) => {
                        let b = games.iter().find(|g| g.id == id).expect("a kept game");
                        let score = b.score as f64 * (0.995 + 0.01 * noise(key(a.id, 2)));
                        (score, cut.min(b.units), b.units)
                    }
                };
                let spelt = units - kept;
                let plan_work = self.plan_unit * a.width as f64 * spelt as f64;
                let predicted = score * (0.99 + 0.02 * noise(key(a.id, 3)));
                if predicted < a.screen.least {
                    return Report {
                        outcome: Outcome::Screened {
                            system: a.system,
                            units,
                            predicted,
                        },
                        plan_work,
                        plans: a.screen.tries,
                        spell_work: 0.0,
                        plan_seconds: 0.0,
                        spell_seconds: 0.0,
                    };
                }
                let spelling = if a.mode == Mode::Chars {
                    Mode::Chars
                } else {
                    Mode::Dp
                };
                let score = if spelling == Mode::Chars {
                    score * 1.03
                } else {
                    score
                };
                let mut g = self.game(GameId::Planned(a.id), units, score, spelling, a.system);
                g.kept = kept;
                g.spell_work = spelt as f64
                    * self.spell_unit
                    * if spelling == Mode::Chars { 30.0 } else { 1.0 };
                Report {
                    plan_work,
                    plans: a.screen.tries,
                    spell_work: g.spell_work,
                    outcome: Outcome::Spelt(g),
                    plan_seconds: 0.0,
                    spell_seconds: 0.0,
                }
            }
        }
    }
}

/// One round as the trace shows it.
#[derive(Clone, Debug, PartialEq)]
struct Step {
    seed: usize,
    kind: RoundKind,
    tasks: Vec<Task>,
    /// Simulated seconds at its start.
    at: f64,
    /// Simulated seconds at the horizon it is planned to end before (none without a deadline).
    until: Option<f64>,
}

/// A run of the policy over `worlds` with `workers`, until `budget` simulated seconds (none:
/// until every seed is finished, with `attempts` games each). A work second takes `speed`
/// seconds. Returns the trace and each seed's best score.
fn simulate(
    worlds: &[World],
    workers: usize,
    budget: Option<f64>,
    attempts: Option<u32>,
    speed: f64,
) -> (Vec<Step>, Vec<u64>) {
    // The command line's checkpoints (10, 30, 100 seconds), on this machine's speed.
    let checks: Vec<f64> = CHECKS.iter().map(|c| c * speed).collect();
    simulate_with(worlds, workers, budget, attempts, speed, &checks)
}

/// Budgets a shorter run could have had, as the command line makes them.
const CHECKS: [f64; 3] = [10.0, 30.0, 100.0];

/// [`simulate`] with the horizons of shorter budgets at the simulated times `checks`.
fn simulate_with(
    worlds: &[World],
    workers: usize,
    budget: Option<f64>,
    attempts: Option<u32>,
    speed: f64,
    checks: &[f64],
) -> (Vec<Step>, Vec<u64>) {
    let setups = worlds
        .iter()
        .map(|w| SeedSetup {
            weight: 1.0,
            source: w.source,
            lanes: (workers / worlds.len()).max(1),
            spells: true,
            systems: 5,
            survival: w.survival,
            max_width: 2048,
            size: w.source as f64,
            unit_states: 0,
            space: f64::INFINITY,
        })
        .collect();
    let opts = SearchOptions::default();
    let preset = match attempts {
        Some(n) => Preset::attempts(n, &opts),
        None => Preset::clock(&opts),
    };
    let mut policy = Policy::new(opts, preset, setups);
    let mut now = 0.0;
    let mut trace = Vec::new();
    // Rounds running: (end time, round, reports).
    let mut running: Vec<(f64, Round, Vec<Report>)> = Vec::new();
    // Each seed's games as the policy keeps them (the model needs them for cuts and polish).
    let mut held: Vec<Vec<Summary>> = vec![Vec::new(); worlds.len()];
    loop {
        let busy: usize = running.iter().map(|(_, r, _)| r.tasks.len()).sum();
        let left = budget.map(|b| b - now);
        let next = if busy < workers && left.is_none_or(|l| l > 0.0) {
            let idle = |i: usize| running.iter().all(|(_, r, _)| r.seed != i);
            let horizons: Option<Vec<f64>> = budget.map(|b| {
                let mut h: Vec<f64> = checks
                    .iter()
                    .filter(|&&c| c < b && c > now)
                    .map(|c| c - now)
                    .collect();
                h.push(b - now);
                h
            });
            policy.next(&idle, horizons.as_deref())
        } else {
            None
        };
        if let Some(round) = next {
            let reports: Vec<Report> = round
                .tasks
                .iter()
                .map(|t| {
                    let mut r = worlds[round.seed].run(round.seed, t, &held[round.seed]);
                    r.plan_seconds = r.plan_work * r.plans as f64 * speed;
                    r.spell_seconds = r.spell_work * speed;
                    r
                })
                .collect();
            // A task that re-spells a game of its round runs after the task that makes it.
            let mut ends = vec![0.0; reports.len()];
            for (i, t) in round.tasks.iter().enumerate() {
                let after = match t {
                    Task::SpellGreedy { game } => round
                        .tasks
                        .iter()
                        .position(
                            |u| matches!(u, Task::Quick { id } if GameId::Planned(*id) == *game),
                        )
                        .map_or(0.0, |j| ends[j]),
                    _ => 0.0,
                };
                ends[i] = after + reports[i].plan_seconds + reports[i].spell_seconds;
            }
            let took = ends.iter().copied().fold(0.0, f64::max);
            trace.push(Step {
                seed: round.seed,
                kind: round.kind,
                tasks: round.tasks.clone(),
                at: now,
                until: budget.zip(round.horizon).map(|(b, before)| b - before),
            });
            running.push((now + took, round, reports));
            continue;
        }
        // Nothing more starts now: the next round to end ends (past the budget, it still ends:
        // the real deadline would have cut it short).
        let Some(first) = (0..running.len()).min_by(|&a, &b| running[a].0.total_cmp(&running[b].0))
        else {
            break;
        };
        let (end, round, reports) = running.swap_remove(first);
        now = end;
        for (t, r) in round.tasks.iter().zip(&reports) {
            if let (Task::Attempt(_) | Task::Quick { .. }, Outcome::Spelt(g)) = (t, &r.outcome) {
                held[round.seed].push(g.clone());
            }
            if let (Task::Polish { .. } | Task::SpellGreedy { .. }, Outcome::Spelt(g)) =
                (t, &r.outcome)
            {
                if let Some(old) = held[round.seed].iter_mut().find(|h| h.id == g.id) {
                    if g.score > old.score {
                        *old = g.clone();
                    }
                }
            }
        }
        policy.report(&round, &reports);
        let kept = policy.kept(round.seed);
        held[round.seed].retain(|g| kept.contains(&g.id));
        if budget.is_some_and(|b| now >= b) && running.is_empty() {
            break;
        }
    }
    let best = (0..worlds.len()).map(|i| policy.best(i)).collect();
    (trace, best)
}

fn problem_24_like() -> World {
    World {
        base: 250_000.0,
        source: 1620,
        survive: 1,
        plan_unit: 80e-6,
        spell_unit: 250e-6,
        survival: 0,
        greedy_dies: false,
        quick_unfinished: false,
    }
}

fn survival_like() -> World {
    World {
        base: 90_000.0,
        source: 1000,
        survive: 64,
        plan_unit: 30e-6,
        spell_unit: 40e-6,
        survival: 0,
        greedy_dies: false,
        quick_unfinished: false,
    }
}

fn small() -> World {
    World {
        base: 12_000.0,
        source: 100,
        survive: 1,
        plan_unit: 2e-6,
        spell_unit: 30e-6,
        survival: 0,
        greedy_dies: false,
        quick_unfinished: false,
    }
}

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
    let (fast, _) = simulate(worlds, 2, Some(20.0), None, 1.0);
    let (slow, _) = simulate(worlds, 2, Some(40.0), None, 2.0);
    let (a, b) = (&fast[..], &slow[..]);
    let n = a.len().min(b.len());
    assert!(n >= 8, "{n} rounds");
    assert_eq!(a.len(), b.len());
    for (x, y) in a[..n].iter().zip(&b[..n]) {
        assert_eq!((x.seed, &x.tasks), (y.seed, &y.tasks));
    }
}

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

/// While the best game dies early, every attempt goes to the survival system, and the wide
/// fresh ones revive their beams; once a game is whole, none does. Where that system keeps games
/// alive at a quarter of the width, the first whole game comes at a narrower beam than without
/// it.
#[test]
fn dying_games_turn_to_the_survival_systems() {
    let with = World {
        survival: 1,
        greedy_dies: true,
        ..survival_like()
    };
    let (trace, _) = simulate(&[with], 2, Some(30.0), None, 1.0);
    let attempts = |s: &Step| -> Vec<Attempt> {
        s.tasks
            .iter()
            .filter_map(|t| match t {
                Task::Attempt(a) => Some(a.clone()),
                _ => None,
            })
            .collect()
    };
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
    let o = SearchOptions::default();
    assert_eq!(o.survival_every, 1);
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
    // Without survival systems, no beam narrower than 64 makes a whole game.
    let without = World {
        greedy_dies: true,
        ..survival_like()
    };
    let (trace, _) = simulate(&[without], 2, Some(30.0), None, 1.0);
    assert!(trace.iter().flat_map(attempts).all(|a| a.system < 5));
    assert!(trace.iter().map(fresh_width).max().unwrap_or(0) >= 64);
}

/// The width of a round's fresh attempts (0 for none).
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

#[test]
fn rank_and_widen_rules() {
    assert_eq!(rank_systems(&[(1, 200), (0, 0), (0, 0)]), vec![1, 2, 0]);
    assert_eq!(rank_systems(&[(1, 200), (4, 300), (0, 0)]), vec![2, 0, 1]);
    assert_eq!(
        rank_systems(&[(16, 200), (4, 300), (4, 100)]),
        vec![1, 0, 2]
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

/// The planning cost per unit of width follows the widest whole game measured: a narrow plan's
/// work (fixed costs) no longer raises it once a wider one is known.
#[test]
fn the_plan_cost_follows_the_widest_game_measured() {
    let mut costs = Costs {
        per_unit: 1e-4,
        per_unit_width: 1,
        units: 100.0,
        plain: 0.0,
        greedy: None,
        encode: 0.01,
        dp_measured: false,
        chars_factor: 60.0,
        chars_measured: false,
        polish_gain: 1.02,
    };
    costs.learn_plan(4, true, 8e-6);
    assert_eq!((costs.per_unit, costs.per_unit_width), (2e-6, 4));
    costs.learn_plan(256, true, 128e-6);
    assert_eq!((costs.per_unit, costs.per_unit_width), (0.5e-6, 256));
    costs.learn_plan(4, true, 1e-3);
    assert_eq!(costs.per_unit, 0.5e-6);
    costs.learn_plan(256, false, 64e-6);
    assert_eq!(costs.per_unit, 0.5e-6);
    costs.learn_plan(256, false, 512e-6);
    assert_eq!(costs.per_unit, 2e-6);
}

#[test]
#[ignore]
fn show_traces() {
    for (name, world) in [
        ("24", problem_24_like()),
        ("18", survival_like()),
        ("small", small()),
    ] {
        for budget in [1.0, 10.0, 60.0] {
            let (trace, best) = simulate(std::slice::from_ref(&world), 2, Some(budget), None, 1.0);
            eprintln!(
                "== {name} at {budget} s: best {best:?}, {} rounds",
                trace.len()
            );
            for s in trace.iter().take(40) {
                eprintln!("  {:7.3} {}", s.at, describe(s));
            }
        }
    }
}

/// A round as one line: its seed, its kind and its tasks.
fn describe(s: &Step) -> String {
    let desc: Vec<String> = s
        .tasks
        .iter()
        .map(|t| match t {
            Task::Quick { .. } => "quick".to_string(),
            Task::SpellGreedy { .. } => "greedy".into(),
            Task::Polish { game } => format!("polish {game}"),
            Task::Exhaust {
                id, part, parts, ..
            } => format!("every #{id} {part}/{parts}"),
            Task::Attempt(a) => format!(
                "#{} s{} w{} {:?}{} t{}",
                a.id,
                a.system,
                a.width,
                a.mode,
                a.base
                    .map_or(String::new(), |(b, c)| format!(" cut {b}@{c}")),
                a.screen.tries
            ),
        })
        .collect();
    format!("seed {} {:?}: {}", s.seed, s.kind, desc.join(" | "))
}

/// The golden traces: the first rounds of two simulated problems, one alone on two workers and
/// one of two seeds sharing them, pinned line by line. A change to the policy that moves them
/// must say so by updating the lines (the failure prints the whole trace).
#[test]
fn golden_traces_of_two_problems() {
    let cases: [(&str, Vec<World>, &[&str]); 2] = [
        ("problem 24 alone", vec![problem_24_like()], &GOLDEN_24),
        ("two small seeds", vec![small(), small()], &GOLDEN_SMALL),
    ];
    let mut wrong = Vec::new();
    for (name, worlds, golden) in cases {
        let (trace, _) = simulate(&worlds, 2, Some(10.0), None, 1.0);
        let got: Vec<String> = trace.iter().take(golden.len()).map(describe).collect();
        if got != golden {
            wrong.push(format!("{name}: the trace is\n{}", got.join("\n")));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

const GOLDEN_24: [&str; 10] = [
    "seed 0 Fresh: quick | greedy | #1 s1 w1 Dp t1",
    "seed 0 Fresh: #2 s2 w4 Dp t1 | #3 s3 w4 Dp t1",
    "seed 0 Fresh: #4 s4 w16 Dp t1 | #5 s1 w16 Dp t1",
    "seed 0 Tail: #6 s1 w16 Dp cut 5@364 t1 | #7 s2 w16 Dp cut 5@541 t1",
    "seed 0 Tail: #8 s3 w16 Dp cut 7@1025 t1 | #9 s4 w16 Dp cut 7@1202 t1",
    "seed 0 Tail: #10 s0 w16 Dp cut 9@1379 t1 | #11 s1 w16 Dp cut 9@244 t1",
    "seed 0 Tail: #12 s2 w16 Dp cut 10@1170 t1 | #13 s3 w16 Dp cut 10@1524 t1",
    "seed 0 Tail: #14 s4 w16 Dp cut 13@1406 t1 | #15 s0 w16 Dp cut 13@1445 t1",
    "seed 0 Tail: #16 s1 w8 Dp cut 15@1541 t1 | #17 s2 w8 Dp cut 15@1560 t1",
    "seed 0 Tail: #18 s3 w2 Dp cut 16@1611 t1 | #19 s4 w2 Dp cut 16@1610 t1",
];
const GOLDEN_SMALL: [&str; 14] = [
    "seed 0 Fresh: quick",
    "seed 1 Fresh: quick",
    "seed 0 Fresh: greedy",
    "seed 1 Fresh: greedy",
    "seed 0 Fresh: #1 s1 w4 Dp t1",
    "seed 1 Fresh: #1 s1 w4 Dp t1",
    "seed 0 Fresh: #2 s2 w16 Dp t1",
    "seed 1 Fresh: #2 s2 w16 Dp t1",
    "seed 0 Fresh: #3 s3 w64 Dp t1",
    "seed 1 Fresh: #3 s3 w64 Dp t1",
    "seed 0 Fresh: #4 s4 w256 Dp t1",
    "seed 1 Fresh: #4 s4 w256 Dp t1",
    "seed 0 Fresh: #5 s0 w1024 Dp t1",
    "seed 1 Fresh: #5 s0 w1024 Dp t1",
];

/// The setup of a run's only seed in `world` with `lanes` lanes: five systems and no survival
/// one, no greedy-spelling limit (`unit_states` 0) and no exhaustive search (an unbounded space).
fn lone_seed(world: &World, lanes: usize) -> SeedSetup {
    SeedSetup {
        weight: 1.0,
        source: world.source,
        lanes,
        spells: true,
        systems: 5,
        survival: 0,
        max_width: 2048,
        size: 1.0,
        unit_states: 0,
        space: f64::INFINITY,
    }
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
                Task::Exhaust { .. } if unfinished => super::super::tasks::unfinished(),
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
