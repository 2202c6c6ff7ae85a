//! The policy on a simulated clock: a model of the games (scores that grow with the beam width,
//! a random part drawn from the attempt's id, costs that grow with the width) stands for the
//! planner and the encoders, and an event simulation stands for the workers. Nothing waits and
//! every run gives the same trace.
//!
//! The model and the simulation are here; the tests are in [`budgets`] (a longer or slower run
//! plays a shorter one's rounds first, rounds fit before their horizons), [`rounds`] (a seed's
//! rounds and the order across seeds), [`siblings`] (what the seeds of a problem share) and
//! [`traces`] (the golden traces).

use super::costs::{Costs, Kinds, UnitWork};
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
            polished_to: None,
        }
    }

    /// A task's report, given the games the seed holds.
    fn run(&self, seed: usize, task: &Task, games: &[Summary]) -> Report {
        self.run_within(seed, task, games, f64::INFINITY)
    }

    /// [`World::run`] with `allowance` work seconds before the task's horizon: a polish of a
    /// part stops where it runs out, keeping the units it spelt (as [`super::super::tasks`]'
    /// polish does), where every other task runs to its end.
    fn run_within(&self, seed: usize, task: &Task, games: &[Summary], allowance: f64) -> Report {
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
            // A polish gains 3 % of the game's score over the units it spells.
            &Task::Polish { game, from, to } => {
                let g = games.iter().find(|g| g.id == game).expect("a kept game");
                let mut end = to.unwrap_or(g.units).min(g.units);
                let per_unit = self.spell_unit * 30.0;
                if to.is_some() && (end - from) as f64 * per_unit > allowance {
                    end = from + ((allowance / per_unit).floor() as usize).clamp(1, end - from);
                }
                let units = end.saturating_sub(from);
                let share = units as f64 / g.units.max(1) as f64;
                let mut p = g.clone();
                p.score = (g.score as f64 * (1.0 + 0.03 * share)) as u64;
                p.polished_to = to.map(|_| end);
                if end == g.units && (from == 0 || to.is_none()) {
                    p.spelling = Mode::Chars;
                }
                Report {
                    outcome: Outcome::Spelt(p),
                    plan_work: 0.0,
                    plans: 0,
                    spell_work: units as f64 * self.spell_unit * 30.0,
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
                        self.base * lift(a.rng()) * survives as f64 / self.source as f64,
                        0,
                        survives,
                    ),
                    Some((id, keep)) => {
                        let b = games.iter().find(|g| g.id == id).expect("a kept game");
                        let score = b.score as f64 * (0.995 + 0.01 * noise(key(a.rng(), 2)));
                        (score, keep.min(b.units), b.units)
                    }
                };
                let spelt = units - kept;
                let plan_work = self.plan_unit * a.width as f64 * spelt as f64;
                let predicted = score * (0.99 + 0.02 * noise(key(a.rng(), 3)));
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
    simulate_with(
        worlds,
        workers,
        budget,
        attempts,
        speed,
        Checks::hard(&checks),
        SearchOptions::default(),
    )
}

/// [`simulate`] on the clock with the search options `opts`.
fn simulate_opts(
    worlds: &[World],
    workers: usize,
    budget: f64,
    speed: f64,
    opts: SearchOptions,
) -> (Vec<Step>, Vec<u64>) {
    let checks: Vec<f64> = CHECKS.iter().map(|c| c * speed).collect();
    simulate_with(
        worlds,
        workers,
        Some(budget),
        None,
        speed,
        Checks::hard(&checks),
        opts,
    )
}

/// The simulated times where shorter budgets end: those whose every round a run plays first,
/// and those whose revivals it owes ([`SearchOptions::revive_checkpoints`]).
#[derive(Clone, Copy)]
struct Checks<'a> {
    hard: &'a [f64],
    revive: &'a [f64],
}

impl<'a> Checks<'a> {
    fn hard(hard: &'a [f64]) -> Checks<'a> {
        Checks { hard, revive: &[] }
    }
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
    checks: Checks,
    opts: SearchOptions,
) -> (Vec<Step>, Vec<u64>) {
    let setups = worlds
        .iter()
        .map(|w| SeedSetup {
            problem: 0,
            weight: 1.0,
            source: w.source,
            lanes: (workers / worlds.len()).max(1),
            spells: true,
            systems: 5,
            survival: w.survival,
            revive: Vec::new(),
            survival_round: Vec::new(),
            wide_first: Vec::new(),
            max_width: 2048,
            size: w.source as f64,
            unit_states: 0,
            space: f64::INFINITY,
        })
        .collect();
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
            // The checkpoints as seconds before the end, as the executor hands them over.
            let before = |list: &[f64], b: f64| -> Vec<f64> {
                list.iter().filter(|&&c| c < b).map(|c| b - c).collect()
            };
            let horizons = budget.map(|b| {
                let (hard, revive) = (before(checks.hard, b), before(checks.revive, b));
                crate::solve::budget::horizons_with_revivals(&hard, &revive, b - now)
            });
            let revivals = horizons.as_ref().map_or(0, |h| h.1);
            let horizons = horizons.map(|h| h.0);
            policy.next_with(&idle, horizons.as_deref(), revivals)
        } else {
            None
        };
        if let Some(round) = next {
            let reports: Vec<Report> = round
                .tasks
                .iter()
                .map(|t| {
                    // The work a task may do before its horizon, on this machine.
                    let allowance = match (budget, round.horizon) {
                        (Some(b), Some(h)) => (b - h - now) / speed,
                        _ => f64::INFINITY,
                    };
                    let mut r =
                        worlds[round.seed].run_within(round.seed, t, &held[round.seed], allowance);
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

/// The setup of a run's only seed in `world` with `lanes` lanes: five systems and no survival
/// one (see [`seed::lone_setup`]).
fn lone_seed(world: &World, lanes: usize) -> SeedSetup {
    seed::lone_setup(world.source, lanes, 0)
}

mod budgets;
mod rounds;
mod siblings;
mod traces;
