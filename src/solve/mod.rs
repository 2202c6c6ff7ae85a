//! Solving under a deadline: for each (problem, seed), plan and encode games until the time is
//! up, and keep the best by the engine's own score.
//!
//! Per seed, attempts of growing cost: the first is the quick answer that is always held (a
//! greedy plan spelt by the greedy encoder); each later one plans with a beam search, with the
//! scoring systems in turn and a different random seed each time, and spells its game with the
//! dynamic-programming encoder. (Screening plans with the greedy encoder and DP-encoding only
//! the best few was tried and scored 6% less on the 10-second benchmark: the greedy encoding
//! ranks plans poorly for their DP spelling.)
//!
//! Attempt `i` always uses the same system and random seed, so a run that completes `n`
//! attempts gives the same answer as any other run that completes `n` (on one thread the answer
//! depends only on how many attempts fit in the time; `Budget::Attempts` fixes that number).
//! Deadlines are checked inside the planner and the encoder, unit by unit.

pub mod tune;

use crate::encode::{Encoder, Mode, PhraseTable, PhraseValuer};
use crate::engine::{evaluate, problem_score, Phrases, Problem};
use crate::plan::{plan_beam, BeamShape, PlanConfig, Tables, Weights, SYSTEMS};
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// The best answer found for one seed.
#[derive(Clone, Debug)]
pub struct SeedResult {
    pub seed: u32,
    pub solution: String,
    pub score: u64,
    pub move_score: u64,
    pub power_score: u64,
    pub tag: String,
    /// Games planned.
    pub attempts: u32,
}

/// What the solver may spend on one seed.
#[derive(Clone, Copy, Debug)]
pub enum Budget {
    /// Until this instant.
    Until(Instant),
    /// Exactly this many attempts, whatever the time: reproducible to the character.
    Attempts(u32),
}

/// Options of the solver.
#[derive(Clone, Debug)]
pub struct SolveConfig {
    /// The scoring systems to cycle through.
    pub systems: Vec<(String, Weights)>,
    /// Phrases the score counts (to choose the best game).
    pub phrases: Phrases,
    /// Phrases the encoders spell.
    pub table: PhraseTable,
    /// Memory the solver may use, in bytes: it bounds the widest beam (a beam keeps a record of
    /// about [`STEP_BYTES`] per unit of width per unit placed).
    pub memory: u64,
}

/// Bytes a beam keeps per unit of width per unit placed (a placement and its parent), with room
/// for the allocator.
pub const STEP_BYTES: u64 = 96;

/// Memory assumed when no limit is given.
pub const DEFAULT_MEMORY: u64 = 1 << 30;

impl SolveConfig {
    /// The compiled-in scoring systems, spelling and counting `phrases`.
    pub fn new(phrases: Phrases) -> SolveConfig {
        SolveConfig {
            systems: SYSTEMS
                .iter()
                .map(|s| (s.to_string(), Weights::system(s).unwrap()))
                .collect(),
            table: PhraseTable::new(&phrases),
            phrases,
            memory: DEFAULT_MEMORY,
        }
    }
}

/// Heuristic value of one point of phrase potential (see [`PhraseValuer`]).
pub const PHRASE_WEIGHT: f64 = 0.2;

/// The widest beam the solver uses (its memory grows with width x source length).
pub const MAX_WIDTH: usize = 2048;

/// One attempt's answer and what it cost.
struct Attempt {
    result: SeedResult,
    plan_time: Duration,
    encode_time: Duration,
    /// Units the plan placed.
    units: usize,
    /// The scoring system it used.
    system: usize,
}

/// Solves one seed within its budget, running `lanes` attempts at a time on the current rayon
/// pool. Always returns an answer (the quick one at worst).
///
/// Attempt 0 is the quick answer: a greedy plan spelt by the greedy encoder. Later attempts plan
/// with a beam four times wider each time (as wide as the time left allows, by a cost model of
/// time per width per unit placed), with the next scoring system and random seed, and spell with
/// the DP encoder; once the width cannot grow, attempts repeat the widest that fits. Should a
/// beam run late anyway, it narrows to one partial game in time to finish and spell it.
pub fn solve_seed(
    problem: &Problem,
    tables: &Tables,
    seed: u32,
    budget: Budget,
    lanes: usize,
    cfg: &SolveConfig,
) -> SeedResult {
    let encoder = Encoder::new(problem, tables, &cfg.table);
    let deadline = match budget {
        Budget::Until(d) => Some(d),
        Budget::Attempts(_) => None,
    };
    let spells = !cfg.table.phrases.is_empty();
    let fast = if spells { Mode::Greedy } else { Mode::Plain };
    let slow = if spells { Mode::Dp } else { Mode::Plain };
    // Phrase-aware placement for units that cannot rotate: cheap and exact there. (Valuing the
    // opening of other games by the forward programme costs several times a plan and showed no
    // gain in the benchmark, so it is not used.)
    let aware = spells && tables.spaces.iter().any(|s| s.k == 1);
    let debug = debug_enabled();
    let attempt = |i: u32,
                   system: usize,
                   width: usize,
                   mode: Mode,
                   narrow_at: Option<Instant>|
     -> Attempt {
        let (name, weights) = &cfg.systems[system];
        let pc = PlanConfig {
            weights: weights.clone(),
            rng_seed: i as u64,
            deadline,
            narrow_at,
        };
        let t0 = Instant::now();
        let shape = BeamShape {
            width,
            branch: width.clamp(1, 8),
        };
        let mut valuer = aware.then(|| PhraseValuer::new(&encoder, PHRASE_WEIGHT, 0));
        let plan = plan_beam(
            problem,
            tables,
            seed,
            &pc,
            shape,
            valuer.as_mut().map(|v| v as _),
        );
        let plan_time = t0.elapsed();
        let solution = encoder.encode(&plan, mode, deadline);
        let encode_time = t0.elapsed() - plan_time;
        let e = evaluate(problem, seed, &solution, &cfg.phrases);
        debug_assert!(!e.end.is_error(), "{}", e.end);
        let mode = match mode {
            Mode::Plain => "plain",
            Mode::Greedy => "greedy",
            Mode::Dp => "dp",
        };
        let result = SeedResult {
            seed,
            // An error (which the tests rule out) must never be the answer: score it 0.
            score: if e.end.is_error() { 0 } else { e.score },
            solution,
            move_score: e.move_score,
            power_score: e.power_score,
            tag: format!("hextris {name}#{i} w{width} {mode}"),
            attempts: 1,
        };
        if debug {
            eprintln!(
                "  problem {} seed {seed} attempt {i} w{width} {mode}: plan {:.3}s ({} units) encode {:.3}s score {}",
                problem.id,
                plan_time.as_secs_f64(),
                plan.placements.len(),
                encode_time.as_secs_f64(),
                result.score
            );
        }
        Attempt {
            result,
            plan_time,
            encode_time,
            units: plan.placements.len(),
            system,
        }
    };
    let quick = attempt(0, 0, 1, fast, None);
    // Half the memory for the beams of all the lanes at once; the rest is tables and answers.
    let per_beam = cfg.memory / 2 / lanes.max(1) as u64;
    let max_width = ((per_beam / (STEP_BYTES * problem.source_length.max(1) as u64)) as usize)
        .clamp(1, MAX_WIDTH);
    // Per system: the widest beam it ran and its best score there.
    let mut record: Vec<(usize, u64)> = vec![(0, 0); cfg.systems.len()];
    record[0] = (1, quick.result.score);
    let source = problem.source_length.max(1) as f64;
    // Cost model, updated as attempts finish: plan time per width per unit placed, the units a
    // game lasts, and the encoding time.
    let mut per_unit = quick.plan_time.as_secs_f64() / quick.units.max(1) as f64;
    let mut units = quick.units.max(1) as f64;
    let mut encode = quick.encode_time.as_secs_f64() * if spells { 3.0 } else { 1.0 };
    let mut best = quick.result;
    let mut done = 1u32;
    let mut width = 1usize;
    loop {
        // A wider beam tends to survive longer: count on twice the units of the last games.
        let expect = (units * 2.0).min(source);
        let cost = |w: usize| per_unit * w as f64 * expect * 1.2 + encode;
        let (next, n) = match budget {
            Budget::Attempts(n) => {
                if done >= n {
                    break;
                }
                (
                    (width * 4).min(256).min(max_width),
                    ((n - done) as usize).min(lanes),
                )
            }
            Budget::Until(d) => {
                let left = d.saturating_duration_since(Instant::now()).as_secs_f64();
                let mut w = (width * 4).min(max_width);
                while w > 1 && cost(w) > left {
                    w /= 2;
                }
                if cost(w) > left {
                    break;
                }
                (w, lanes)
            }
        };
        // Leave time to finish the game greedily and to spell it.
        let narrow_at = deadline.map(|d| {
            d - Duration::from_secs_f64(
                (encode * 1.5 + per_unit * source * 1.5)
                    .min(d.saturating_duration_since(Instant::now()).as_secs_f64()),
            )
        });
        // Narrow beams try every system in turn; from width 64 on, the beams are few and costly,
        // so they go to the systems that did best at the widest beams they ran.
        let systems: Vec<usize> = if next < 64 {
            (done..done + n as u32)
                .map(|i| i as usize % cfg.systems.len())
                .collect()
        } else {
            let mut rank: Vec<usize> = (0..cfg.systems.len()).collect();
            rank.sort_by_key(|&s| std::cmp::Reverse(record[s]));
            (0..n).map(|j| rank[j % rank.len()]).collect()
        };
        let round: Vec<Attempt> = (0..n)
            .into_par_iter()
            .map(|j| attempt(done + j as u32, systems[j], next, slow, narrow_at))
            .collect();
        done += n as u32;
        width = next;
        for a in round {
            let r = &mut record[a.system];
            *r = (*r).max((next, a.result.score));
            per_unit =
                per_unit.max(a.plan_time.as_secs_f64() / (next as f64 * a.units.max(1) as f64));
            units = units.max(a.units as f64);
            encode = encode.max(a.encode_time.as_secs_f64());
            if a.result.score > best.score {
                best = a.result;
            }
        }
    }
    best.attempts = done;
    best
}

/// Whether `HEXTRIS_DEBUG` asks for the solver's log on stderr (read once per run of a loop).
fn debug_enabled() -> bool {
    std::env::var_os("HEXTRIS_DEBUG").is_some()
}

/// Receives news of the solver's progress, for progress bars and logs. Called from the worker
/// threads.
pub trait Progress: Sync {
    /// A seed of `problems[problem]` is solved.
    fn seed_done(&self, problem: usize, result: &SeedResult);
}

/// No news wanted.
pub struct Silent;

impl Progress for Silent {
    fn seed_done(&self, _: usize, _: &SeedResult) {}
}

/// A problem with its precomputed tables.
pub struct Prepared<'p> {
    pub problem: &'p Problem,
    pub tables: Tables,
}

impl<'p> Prepared<'p> {
    pub fn new(problem: &'p Problem) -> Prepared<'p> {
        Prepared {
            problem,
            tables: Tables::new(problem),
        }
    }

    /// The difficulty weight that shares time: width x height x source length, per seed.
    pub fn weight(&self) -> f64 {
        let p = self.problem;
        (p.width as f64 * p.height as f64 * p.source_length.max(1) as f64).max(1.0)
    }
}

/// The results of one problem, one per distinct seed, in the problem's seed order.
#[derive(Clone, Debug)]
pub struct ProblemResult {
    pub problem_id: i64,
    pub seeds: Vec<SeedResult>,
    /// The official aggregate (RULES.md section 13).
    pub score: u64,
}

/// Solves every distinct seed of every problem, all of them finished by `end` (wall time).
///
/// The tasks (one per problem and seed) wait in a queue, heaviest first; each worker of the
/// current rayon pool takes the next one and gives it its share of the capacity left: the
/// worker-seconds until `end` not yet promised to running tasks, times its weight over the
/// weight of the tasks not started (capped at the time left). A task's weight is its problem's
/// difficulty. A task that finishes early gives its promise back.
pub fn solve_many(
    problems: &[Prepared],
    end: Instant,
    cfg: &SolveConfig,
    progress: &dyn Progress,
) -> Vec<ProblemResult> {
    let workers = rayon::current_num_threads().max(1);
    let mut tasks = tasks(problems);
    tasks.sort_by(|a, b| problems[b.0].weight().total_cmp(&problems[a.0].weight()));
    let weight_left: f64 = tasks.iter().map(|&(i, _)| problems[i].weight()).sum();
    // Next task, weight not started, and the deadline and lanes promised to each worker's
    // running task.
    let queue =
        std::sync::Mutex::new((0usize, weight_left, vec![None::<(Instant, usize)>; workers]));
    let worker_ids = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::with_capacity(tasks.len()));
    let begin = Instant::now();
    let debug = debug_enabled();
    rayon::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|_| {
                let me = worker_ids.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                loop {
                    let (i, seed, deadline, lanes) = {
                        let mut q = queue.lock().expect("no worker panics");
                        q.2[me] = None;
                        let Some(&(i, seed)) = tasks.get(q.0) else {
                            break;
                        };
                        let w = problems[i].weight();
                        let now = Instant::now();
                        let left = end.saturating_duration_since(now).as_secs_f64();
                        let promised: f64 =
                            q.2.iter()
                                .flatten()
                                .map(|(d, l)| {
                                    d.saturating_duration_since(now).as_secs_f64() * *l as f64
                                })
                                .sum();
                        // When fewer tasks are left than workers, a task runs several attempts at
                        // a time, so that no core idles.
                        let lanes = (workers / (tasks.len() - q.0)).max(1);
                        let capacity = (workers as f64 * left - promised).max(0.0);
                        let share = (capacity * w / q.1.max(w) / lanes as f64).min(left);
                        let deadline = now + Duration::from_secs_f64(share);
                        q.0 += 1;
                        q.1 -= w;
                        q.2[me] = Some((deadline, lanes));
                        (i, seed, deadline, lanes)
                    };
                    let t0 = Instant::now();
                    let p = &problems[i];
                    let r = solve_seed(
                        p.problem,
                        &p.tables,
                        seed,
                        Budget::Until(deadline),
                        lanes,
                        cfg,
                    );
                    if debug {
                        eprintln!(
                        "problem {} seed {seed}: start {:.2}s budget {:.2}s done {:.2}s score {}",
                        p.problem.id,
                        (t0 - begin).as_secs_f64(),
                        (deadline - t0).as_secs_f64(),
                        begin.elapsed().as_secs_f64(),
                        r.score
                    );
                    }
                    progress.seed_done(i, &r);
                    results
                        .lock()
                        .expect("no worker panics")
                        .push(((i, seed), r));
                }
            });
        }
    });
    collect(problems, results.into_inner().expect("no worker panics"))
}

/// Solves every distinct seed with a fixed number of attempts (reproducible).
pub fn solve_attempts(
    problems: &[Prepared],
    attempts: u32,
    cfg: &SolveConfig,
    progress: &dyn Progress,
) -> Vec<ProblemResult> {
    let tasks = tasks(problems);
    let results = tasks
        .par_iter()
        .map(|&(i, seed)| {
            let p = &problems[i];
            let r = solve_seed(
                p.problem,
                &p.tables,
                seed,
                Budget::Attempts(attempts),
                1,
                cfg,
            );
            progress.seed_done(i, &r);
            ((i, seed), r)
        })
        .collect();
    collect(problems, results)
}

/// One task per (problem index, distinct seed).
fn tasks(problems: &[Prepared]) -> Vec<(usize, u32)> {
    problems
        .iter()
        .enumerate()
        .flat_map(|(i, p)| p.problem.distinct_seeds().into_iter().map(move |s| (i, s)))
        .collect()
}

fn collect(problems: &[Prepared], results: Vec<((usize, u32), SeedResult)>) -> Vec<ProblemResult> {
    problems
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let seeds: Vec<SeedResult> = p
                .problem
                .distinct_seeds()
                .into_iter()
                .map(|s| {
                    results
                        .iter()
                        .find(|((j, t), _)| *j == i && *t == s)
                        .expect("every task ran")
                        .1
                        .clone()
                })
                .collect();
            let score = problem_score(p.problem, |s| {
                seeds.iter().find(|r| r.seed == s).map_or(0, |r| r.score)
            });
            ProblemResult {
                problem_id: p.problem.id,
                seeds,
                score,
            }
        })
        .collect()
}
