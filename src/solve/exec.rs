//! The executor: runs the policy's rounds ([`super::policy`]) on the workers of the current
//! rayon pool, keeps each seed's games (plans and texts) and best answer, and tells the
//! [`Progress`] of every improvement as it happens.
//!
//! One loop ([`Executor::work`]) over a clock ([`clock`]: the real one, a loop per worker
//! thread; or a virtual one, every worker simulated on one thread): while a worker is free it
//! takes a task of a round in flight, or else asks the policy for a new round for an idle seed
//! (whose tasks it queues, one per lane), or else waits for a report. A round's reports go to
//! the policy together, in the order of its tasks, once all its tasks are done, so a seed's
//! rounds are the same whichever worker ran them. The policy never sees the clock but for the
//! time left when it picks a round; each task gets its [`crate::work::Limit`] from
//! [`budget`], which the planner and the encoders check unit by unit.
//!
//! When the run stops early (Ctrl-C, SIGTERM), the rounds in flight end as at a deadline; seeds
//! that had no answer yet get their quick answer within [`budget::stop_grace`], and every
//! seed's best is returned.
//!
//! Every time rule it applies (the lanes, the memory's cap on a beam, the horizons, each task's
//! limit) is [`budget`]'s: the executor only reads the clock and hands the times over.

mod clock;

use super::budget::{self, Budget, Preset, Timing};
use super::policy::{FixedCut, GameId, Outcome, Policy, Report, Round, SeedSetup, Task};
use super::tasks::{GameData, SeedTasks};
use super::{Prepared, Progress, SeedResult, SolveConfig};
use crate::encode::Encoder;
use crate::solve::stage::Valuer;
use crate::work::Limit;
use clock::{Clock, RealClock, VirtualClock};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

/// What a run gives: each (problem index, seed)'s best answer, and every round started.
pub type RunResult = (Vec<((usize, u32), SeedResult)>, Vec<Round>);

/// One (problem, seed) of the run.
struct SeedRef {
    problem: usize,
    seed: u32,
}

/// A round in flight and the reports of its tasks so far.
struct Flight {
    round: Round,
    reports: Vec<Option<Report>>,
    /// Tasks waiting for a game another task of the round makes: (task, game).
    waiting: Vec<(usize, GameId)>,
    /// The task of this round whose game is the seed's best answer, if one is: a task of the
    /// round that ties with it takes its place when it comes first in the round, so that the
    /// answer does not depend on which worker finished first (two parts of an exhaustive
    /// search often tie).
    best_from: Option<usize>,
    /// The deadline of its tasks: the instant of the horizon the round is planned to end before
    /// ([`Round::horizon`]), the run's deadline at the latest; `None` without a deadline.
    until: Option<Instant>,
}

/// The game a task starts from, if any.
fn needs(task: &Task) -> Option<GameId> {
    match task {
        Task::SpellGreedy { game } | Task::Polish { game, .. } => Some(*game),
        Task::Attempt(a) => a.base.map(|(id, _)| id),
        Task::Quick { .. } | Task::Exhaust { .. } => None,
    }
}

/// The game a task makes or spells again.
fn makes(task: &Task) -> GameId {
    match task {
        Task::Quick { id } | Task::Exhaust { id, .. } => GameId::Planned(*id),
        Task::Attempt(a) => GameId::Planned(a.id),
        Task::SpellGreedy { game } | Task::Polish { game, .. } => *game,
    }
}

/// What the workers share.
struct Shared {
    policy: Policy,
    /// Per seed: its round in flight.
    flights: Vec<Option<Flight>>,
    /// Tasks waiting for a worker: (seed, task index).
    queue: VecDeque<(usize, usize)>,
    /// Per seed: its games by id, and its best answer.
    games: Vec<HashMap<GameId, Arc<GameData>>>,
    best: Vec<Option<SeedResult>>,
    /// Tasks running.
    running: usize,
    /// No round will start any more (the deadline, a stop, or nothing left to do).
    closed: bool,
    /// Every round started, in order.
    trace: Vec<Round>,
    /// Per seed: the work seconds its tasks counted ([`SeedResult::work`]).
    work: Vec<f64>,
}

impl Shared {
    /// The task `index` of `seed`'s round in flight, the game it starts from (if it needs
    /// one), and the seed's timing for it.
    fn queued(&self, seed: usize, index: usize) -> Queued {
        let flight = self.flights[seed].as_ref().expect("a queued task's round");
        let task = flight.round.tasks[index].clone();
        let base = needs(&task).and_then(|id| self.games[seed].get(&id).cloned());
        Queued {
            task,
            base,
            timing: self.policy.timing(seed),
            until: flight.until,
            horizon: flight.round.horizon,
            fixed: flight.round.fixed,
        }
    }
}

/// Seconds left before `deadline` (sooner after a stop: [`crate::stop::effective`]).
fn seconds_to(deadline: Instant) -> f64 {
    crate::stop::effective(deadline)
        .saturating_duration_since(Instant::now())
        .as_secs_f64()
}

/// A task taken from the queue, with what it runs by.
struct Queued {
    task: Task,
    /// The game it starts from, if it needs one.
    base: Option<Arc<GameData>>,
    /// The seed's timing for it.
    timing: Timing,
    /// Its deadline ([`Flight::until`]).
    until: Option<Instant>,
    /// Its round's horizon, in seconds before the deadline ([`Round::horizon`]).
    horizon: Option<f64>,
    /// An owed revival's cut ([`Round::fixed`]).
    fixed: Option<FixedCut>,
}

/// A run of the solver over some problems.
pub struct Executor<'a> {
    problems: &'a [Prepared<'a>],
    cfg: &'a SolveConfig,
    seeds: Vec<SeedRef>,
    encoders: Vec<Encoder<'a>>,
    deadline: Option<Instant>,
    /// With [`Budget::Virtual`]: its work seconds.
    virtual_budget: Option<f64>,
    workers: usize,
    shared: Mutex<Shared>,
    wake: Condvar,
    progress: &'a dyn Progress,
    debug: bool,
}

impl<'a> Executor<'a> {
    /// A run of every distinct seed of `problems` within `budget`, on the current rayon pool.
    pub fn new(
        problems: &'a [Prepared<'a>],
        budget: Budget,
        cfg: &'a SolveConfig,
        progress: &'a dyn Progress,
    ) -> Executor<'a> {
        let workers = rayon::current_num_threads().max(1);
        let seeds: Vec<SeedRef> = problems
            .iter()
            .enumerate()
            .flat_map(|(i, p)| {
                p.problem
                    .distinct_seeds()
                    .into_iter()
                    .map(move |seed| SeedRef { problem: i, seed })
            })
            .collect();
        let (deadline, virtual_budget) = (budget.deadline(), budget.virtual_seconds());
        let preset = Preset::of(budget, &cfg.search);
        let lanes = preset.lanes(workers, seeds.len());
        let spells = !cfg.table.phrases.is_empty();
        // The survival systems come last ([`SolveConfig::order_systems`]).
        let survival = cfg.survival_systems();
        let revive = cfg.revive_systems();
        let survival_round = cfg.survival_round_systems();
        let wide_first = cfg.wide_systems();
        let setups: Vec<SeedSetup> = seeds
            .iter()
            .map(|s| {
                let prep = &problems[s.problem];
                let p = prep.problem;
                let listed = p.seeds.iter().filter(|&&x| x == s.seed).count();
                let source = p.source_length as usize;
                let units: Vec<usize> =
                    crate::engine::Source::new(s.seed, source as u64, p.units.len()).collect();
                let most = cfg.search.exhaust.most_space * 2.0;
                SeedSetup {
                    problem: s.problem,
                    weight: listed as f64 / p.seeds.len().max(1) as f64,
                    source,
                    lanes,
                    spells,
                    systems: cfg.systems.len() - survival,
                    survival,
                    revive: revive.clone(),
                    survival_round: survival_round.clone(),
                    wide_first: wide_first.clone(),
                    max_width: budget::memory_width(cfg.memory, workers, source, &cfg.search),
                    size: prep.weight(),
                    unit_states: prep
                        .tables
                        .spaces
                        .iter()
                        .map(|s| s.states)
                        .max()
                        .unwrap_or(0),
                    space: crate::plan::every::space_estimate(&prep.tables, &p.board, &units, most),
                }
            })
            .collect();
        let mut policy = Policy::new(cfg.search.clone(), preset, setups);
        let encoders: Vec<Encoder> = problems
            .iter()
            .map(|p| Encoder::new(p.problem, &p.tables, &cfg.table))
            .collect();
        let debug = super::log::debug_enabled();
        let mut games: Vec<HashMap<GameId, Arc<GameData>>> = Vec::with_capacity(seeds.len());
        let mut best = Vec::with_capacity(seeds.len());
        for (i, s) in seeds.iter().enumerate() {
            let mut kept = HashMap::new();
            let (prep, encoder) = (&problems[s.problem], &encoders[s.problem]);
            let tasks = SeedTasks::new(prep, encoder, cfg, s.seed, debug);
            let stored = tasks.stored();
            best.push(stored.as_ref().map(|g| g.result.clone()));
            if let Some(g) = stored {
                policy.start_from(i, tasks.summary(GameId::Stored, &g, 0, 0.0));
                kept.insert(GameId::Stored, Arc::new(g));
            }
            games.push(kept);
        }
        let n = seeds.len();
        Executor {
            problems,
            cfg,
            seeds,
            encoders,
            deadline,
            virtual_budget,
            workers,
            shared: Mutex::new(Shared {
                policy,
                flights: (0..n).map(|_| None).collect(),
                queue: VecDeque::new(),
                games,
                best,
                running: 0,
                closed: false,
                trace: Vec::new(),
                work: vec![0.0; n],
            }),
            wake: Condvar::new(),
            progress,
            debug,
        }
    }

    /// The tasks of `seed`.
    fn tasks_of(&self, seed: usize) -> SeedTasks<'_> {
        let s = &self.seeds[seed];
        let (prep, encoder) = (&self.problems[s.problem], &self.encoders[s.problem]);
        SeedTasks::new(prep, encoder, self.cfg, s.seed, self.debug)
    }

    /// The seconds left before each horizon still ahead (the checkpoints of shorter budgets,
    /// then the deadline), given the seconds `left` before the deadline, and how many of them,
    /// first, are revive checkpoints' ([`budget::horizons_with_revivals`]).
    fn horizons(&self, left: f64) -> (Vec<f64>, usize) {
        let cfg = &self.cfg;
        budget::horizons_with_revivals(&cfg.checkpoints, &cfg.revive_checkpoints, left)
    }

    /// Runs the whole search and returns every seed's best answer, in the order of the seeds
    /// (problems in order, each problem's distinct seeds in order), with the games planned;
    /// and every round started, in order.
    pub fn run(self) -> RunResult {
        match self.virtual_budget {
            Some(budget) => self.work(&mut VirtualClock::new(budget, self.workers)),
            None => rayon::scope(|scope| {
                for _ in 0..self.workers {
                    scope.spawn(|_| {
                        self.work(&mut RealClock {
                            deadline: self.deadline,
                        })
                    });
                }
            }),
        }
        self.finish()
    }

    /// The lock on what the workers share.
    fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().expect("no worker panics")
    }

    /// The run's one loop, on a clock ([`clock`]): one per worker thread on the real clock,
    /// every worker simulated on this thread on the virtual one. While a worker is free it takes
    /// a task of a round in flight, or else asks the policy for a new round for an idle seed
    /// (whose tasks it queues, one per lane); else it waits for a report. Should a task panic (a
    /// bug), the guard closes the run and wakes the other workers, which end, and the panic goes
    /// on to the caller: never a hang.
    fn work(&self, clock: &mut impl Clock) {
        let _guard = PanicGuard(self);
        let mut shared = self.lock();
        loop {
            if clock.free() {
                if let Some((seed, index)) = shared.queue.pop_front() {
                    shared = clock.run(self, shared, seed, index);
                    continue;
                }
                if clock.open(&mut shared) {
                    let (horizons, revivals) = match clock.left().map(|l| self.horizons(l)) {
                        Some((h, n)) => (Some(h), n),
                        None => (None, 0),
                    };
                    let Shared {
                        policy, flights, ..
                    } = &mut *shared;
                    let idle = |i: usize| flights[i].is_none();
                    let next = policy.next_with(&idle, horizons.as_deref(), revivals);
                    if let Some(round) = next.filter(|_| clock.admits()) {
                        self.start(&mut shared, round);
                        continue;
                    }
                }
            }
            match clock.wait(self, shared) {
                Some(held) => shared = held,
                None => return,
            }
        }
    }

    /// On a virtual clock: tells the progress of each checkpoint (the first `announced` of the
    /// run's, largest first, are told already) that falls before `end`, the end of the next task
    /// whose report is filed, so that the answers it sees then are the run's at the checkpoint.
    fn announce(&self, announced: &mut usize, budget: f64, end: f64) {
        let checkpoints = &self.cfg.checkpoints;
        while let Some(&before) = checkpoints.get(*announced) {
            if budget - before >= end {
                break;
            }
            self.progress.checkpoint(before);
            *announced += 1;
        }
    }

    /// Queues a round's tasks: those that need a game another task of the round makes wait
    /// for it.
    fn start(&self, shared: &mut Shared, round: Round) {
        let seed = round.seed;
        let mut waiting = Vec::new();
        for (i, task) in round.tasks.iter().enumerate() {
            let inner = needs(task).filter(|&id| {
                round
                    .tasks
                    .iter()
                    .enumerate()
                    .any(|(j, t)| j != i && makes(t) == id && needs(t) != Some(id))
            });
            match inner {
                Some(id) => waiting.push((i, id)),
                None => shared.queue.push_back((seed, i)),
            }
        }
        let n = round.tasks.len();
        let until = budget::moment(self.deadline, round.horizon);
        shared.trace.push(round.clone());
        shared.flights[seed] = Some(Flight {
            round,
            reports: vec![None; n],
            waiting,
            best_from: None,
            until,
        });
        self.wake.notify_all();
    }

    /// Runs one task, with the game it starts from, `left` seconds before its round's horizon
    /// (on a virtual clock, work seconds; `None` without a horizon): the task's [`Limit`],
    /// built by [`budget`].
    fn run_task(
        &self,
        seed: usize,
        q: &Queued,
        unanswered: usize,
        left: Option<f64>,
    ) -> (Report, Option<GameData>) {
        let (task, base, timing) = (&q.task, q.base.as_deref(), q.timing);
        let t = self.tasks_of(seed);
        let until = q.until;
        match task {
            Task::Quick { id } => {
                let lanes = (self.workers, unanswered);
                let limit = budget::quick_limit(left, until, lanes, &timing, &self.cfg.search);
                let (r, g) = t.quick(*id, &limit);
                (r, Some(g))
            }
            Task::SpellGreedy { game } => match base {
                Some(g) => t.spell_greedy(*game, g, &Limit::until(until)),
                // A round's games are taken when it starts, so this cannot happen.
                None => (super::tasks::unfinished(), None),
            },
            &Task::Polish { game, from, to } => match base {
                Some(g) => t.polish(game, g, (from, to), &budget::limit(left, until, &timing)),
                // A round's games are taken when it starts, so this cannot happen.
                None => (super::tasks::unfinished(), None),
            },
            Task::Attempt(a) => {
                let (mut timing, cut_left) = match q.fixed {
                    Some(f) => (f.timing, Some(f.left)),
                    None => (timing, left),
                };
                if a.valuer == Valuer::Off {
                    timing.narrow_lead = timing.unvalued_lead;
                }
                let limit = budget::limit(cut_left, until, &timing);
                t.attempt(a, base, &limit)
            }
            &Task::Exhaust {
                id,
                rate,
                part,
                parts,
            } => t.exhaust(id, rate, (part, parts), &Limit::until(until)),
        }
    }

    /// Files a task's report; when its round is complete, reports the round to the policy and
    /// drops the games it no longer keeps. Returns the seed's new best answer, if it improved.
    fn take_report(
        &self,
        shared: &mut Shared,
        seed: usize,
        index: usize,
        mut report: Report,
        mut game: Option<GameData>,
    ) -> Option<SeedResult> {
        shared.work[seed] += report.work();
        // A polish of a part goes into its game as the round's other parts left it.
        let task = &shared.flights[seed]
            .as_ref()
            .expect("a round in flight")
            .round
            .tasks[index];
        if let (&Task::Polish { game: id, from, .. }, Outcome::Spelt(s), Some(g)) =
            (task, &mut report.outcome, &game)
        {
            if let (Some(to), Some(current)) = (s.polished_to, shared.games[seed].get(&id)) {
                let merged = self.tasks_of(seed).splice(current, g, (from, to));
                (s.score, s.power) = (merged.result.score, merged.result.power_score);
                game = Some(merged);
            }
        }
        let flight = shared.flights[seed].as_mut().expect("a round in flight");
        flight.reports[index] = Some(report);
        // Tasks waiting for this task's game may start, on this worker first.
        let made = makes(&flight.round.tasks[index]);
        let ready: Vec<usize> = flight
            .waiting
            .iter()
            .filter(|&&(_, id)| id == made)
            .map(|&(i, _)| i)
            .collect();
        flight.waiting.retain(|&(_, id)| id != made);
        for &i in ready.iter().rev() {
            shared.queue.push_front((seed, i));
        }
        let mut improved = None;
        if let Some(g) = game {
            let id = made;
            let flight = shared.flights[seed].as_mut().expect("a round in flight");
            let first = flight.best_from.is_some_and(|j| index < j);
            let better = shared.best[seed]
                .as_ref()
                .is_none_or(|b| g.result.score > b.score || (g.result.score == b.score && first));
            if better {
                flight.best_from = Some(index);
                shared.best[seed] = Some(g.result.clone());
                improved = Some(g.result.clone());
            }
            // A re-spelling replaces its game's text only when it scores more.
            let keep = shared.games[seed]
                .get(&id)
                .is_none_or(|old| g.result.score > old.result.score);
            if keep {
                shared.games[seed].insert(id, Arc::new(g));
            }
        }
        let flight = shared.flights[seed].as_ref().expect("a round in flight");
        if flight.reports.iter().any(Option::is_none) {
            return improved;
        }
        debug_assert!(flight.waiting.is_empty());
        let flight = shared.flights[seed].take().expect("a round in flight");
        let reports: Vec<Report> = flight.reports.into_iter().flatten().collect();
        shared.policy.report(&flight.round, &reports);
        let kept = shared.policy.kept(seed);
        shared.games[seed].retain(|id, _| kept.contains(id));
        improved
    }

    /// The answers, after the workers are done: seeds without one (a stop came first) get
    /// their quick answer within [`budget::stop_grace`].
    fn finish(self) -> RunResult {
        let mut guard = self.shared.lock().expect("no worker panics");
        let shared = &mut *guard;
        let grace = budget::stop_limit(&self.cfg.search);
        let mut out = Vec::with_capacity(self.seeds.len());
        let missing: Vec<usize> = (0..self.seeds.len())
            .filter(|&i| shared.best[i].is_none())
            .collect();
        let late: Vec<(usize, SeedResult)> = {
            use rayon::prelude::*;
            let tasks: Vec<SeedTasks> = missing.iter().map(|&i| self.tasks_of(i)).collect();
            missing
                .par_iter()
                .zip(tasks.par_iter())
                .map(|(&i, t)| (i, t.quick_after_stop(&grace)))
                .collect()
        };
        let mut best = std::mem::take(&mut shared.best);
        for (i, r) in late {
            best[i] = Some(r);
        }
        for (i, s) in self.seeds.iter().enumerate() {
            let mut r = best[i].take().unwrap_or_else(|| SeedResult::empty(s.seed));
            r.attempts = shared.policy.planned(i);
            r.work = shared.work[i];
            self.progress.seed_done(s.problem, &r);
            out.push(((s.problem, s.seed), r));
        }
        let trace = std::mem::take(&mut shared.trace);
        (out, trace)
    }
}

/// Closes the run when a worker unwinds from a panic, so that the others do not wait for its
/// task forever.
struct PanicGuard<'e, 'a>(&'e Executor<'a>);

impl Drop for PanicGuard<'_, '_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let mut shared = match self.0.shared.lock() {
                Ok(s) => s,
                Err(poisoned) => poisoned.into_inner(),
            };
            shared.closed = true;
            shared.queue.clear();
            shared.flights.iter_mut().for_each(|f| *f = None);
            shared.running = 0;
            self.0.wake.notify_all();
        }
    }
}
