//! Solving under a deadline: for each (problem, seed), plan and encode games until the time is
//! up, and keep the best by the engine's own score.
//!
//! [`scheduler`] shares the run's time between the (problem, seed) tasks on the rayon pool;
//! [`seed`] searches one seed within its share. Deadlines are checked inside the planner and the
//! encoders, unit by unit. The answer of a seed never depends on the thread it ran on: with
//! [`Budget::Attempts`] a run is reproducible to the character on any number of threads.

pub mod scheduler;
pub mod seed;
pub mod shard;
pub mod tune;

pub use seed::{solve_seed, Budget, MAX_WIDTH, PHRASE_WEIGHT, STEP_BYTES};

use crate::encode::{CharTables, PhraseTable};
use crate::engine::{problem_score, Phrases, Problem};
use crate::plan::{Tables, Weights, SYSTEMS};
use rayon::prelude::*;
use scheduler::Scheduler;
use std::sync::OnceLock;
use std::time::Instant;

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
    /// Games to start from, by (problem id, seed): a stored best solution's (tag, text). The
    /// search counts it as its first game, so a run never answers worse than it, and spends
    /// time on improving it (see [`seed`]).
    pub starts: std::collections::HashMap<(i64, u32), (String, String)>,
}

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
            starts: Default::default(),
        }
    }
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
    /// The character encoder's automata, built on first use (they depend on the phrases).
    chars: OnceLock<CharTables>,
}

impl<'p> Prepared<'p> {
    pub fn new(problem: &'p Problem) -> Prepared<'p> {
        Prepared {
            problem,
            tables: Tables::new(problem),
            chars: OnceLock::new(),
        }
    }

    /// The difficulty weight that shares time: width x height x source length, per seed.
    pub fn weight(&self) -> f64 {
        let p = self.problem;
        (p.width as f64 * p.height as f64 * p.source_length.max(1) as f64).max(1.0)
    }

    /// The character encoder's tables for `table` (the same table on every call).
    pub fn chars(&self, table: &PhraseTable) -> &CharTables {
        self.chars
            .get_or_init(|| CharTables::new(table, &self.tables.spaces, self.problem.width))
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
    let weights = tasks.iter().map(|&(i, _)| problems[i].weight()).collect();
    let scheduler = Scheduler::new(weights, end, workers);
    let worker_ids = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::with_capacity(tasks.len()));
    let begin = Instant::now();
    let debug = debug_enabled();
    rayon::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|_| {
                let me = worker_ids.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                while let Some(job) = scheduler.next(me) {
                    let (i, seed) = tasks[job.task];
                    let t0 = Instant::now();
                    let p = &problems[i];
                    let r = solve_seed(p, seed, Budget::Until(job.deadline), job.lanes, cfg);
                    if debug {
                        eprintln!(
                            "problem {} seed {seed}: start {:.2}s budget {:.2}s done {:.2}s score {}",
                            p.problem.id,
                            (t0 - begin).as_secs_f64(),
                            job.deadline.saturating_duration_since(t0).as_secs_f64(),
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
            let r = solve_seed(p, seed, Budget::Attempts(attempts), 1, cfg);
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
