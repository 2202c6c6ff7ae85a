//! Solving under a deadline: for each (problem, seed), plan and encode games until the time is
//! up, and keep the best by the engine's own score.
//!
//! Per seed, two stages, as the 2015 lightning winners did:
//! 1. the fast stage plans games with the scoring systems in turn and a different random seed
//!    each time, and spells them with the greedy encoder; the first such game is the quick
//!    answer that is always held;
//! 2. the slow stage spells the best plans of the fast stage again with the dynamic-programming
//!    encoder.
//!
//! Attempt `i` always uses the same system and random seed, so a run that completes `n`
//! attempts gives the same answer as any other run that completes `n` (on one thread the answer
//! depends only on how many attempts fit in the time; `Budget::Attempts` fixes that number).
//! Deadlines are checked inside the planner and the encoder, unit by unit.

use crate::encode::{Encoder, Mode, PhraseTable};
use crate::engine::{evaluate, problem_score, Phrases, Problem};
use crate::plan::{plan_greedy, Plan, PlanConfig, Tables, Weights, SYSTEMS};
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
    /// Exactly this many fast-stage attempts (and DP encodings of the best few), whatever the
    /// time: reproducible to the character.
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
    /// Share of a seed's time given to the fast stage.
    pub fast_share: f64,
    /// How many of the best plans the slow stage spells again at most.
    pub slow_plans: usize,
}

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
            fast_share: 0.5,
            slow_plans: 4,
        }
    }
}

struct Candidate {
    plan: Plan,
    score: u64,
    name: String,
    attempt: u32,
}

/// Solves one seed within its budget. Always returns an answer (the quick one at worst).
pub fn solve_seed(
    problem: &Problem,
    tables: &Tables,
    seed: u32,
    budget: Budget,
    cfg: &SolveConfig,
) -> SeedResult {
    let start = Instant::now();
    let encoder = Encoder::new(problem, tables, &cfg.table);
    let deadline = match budget {
        Budget::Until(d) => Some(d),
        Budget::Attempts(_) => None,
    };
    let fast_end =
        deadline.map(|d| start + (d.saturating_duration_since(start)).mul_f64(cfg.fast_share));
    let mut best: Option<SeedResult> = None;
    let keep = |solution: String, tag: String, best: &mut Option<SeedResult>| -> u64 {
        let e = evaluate(problem, seed, &solution, &cfg.phrases);
        debug_assert!(!e.end.is_error(), "{}", e.end);
        if !e.end.is_error() && best.as_ref().is_none_or(|b| e.score > b.score) {
            *best = Some(SeedResult {
                seed,
                solution,
                score: e.score,
                move_score: e.move_score,
                power_score: e.power_score,
                tag,
                attempts: 0,
            });
        }
        e.score
    };
    let spells = !cfg.table.phrases.is_empty();
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut attempt = 0u32;
    let mut slowest = Duration::ZERO;
    loop {
        let t0 = Instant::now();
        let (name, weights) = &cfg.systems[attempt as usize % cfg.systems.len()];
        // The first attempt must finish whatever happens: it only stops at the seed's deadline.
        let stop = if attempt == 0 { deadline } else { fast_end };
        let pc = PlanConfig {
            weights: weights.clone(),
            rng_seed: attempt as u64,
            deadline: stop,
        };
        let plan = plan_greedy(problem, tables, seed, &pc);
        let mode = if spells { Mode::Greedy } else { Mode::Plain };
        let solution = encoder.encode(&plan, mode, deadline);
        let tag = format!(
            "hextris {name}#{attempt} {}",
            if spells { "greedy" } else { "plain" }
        );
        let score = keep(solution, tag, &mut best);
        let complete = !plan.truncated;
        // Only the best few plans go to the slow stage; keep no more (small problems can plan
        // millions of games).
        if spells {
            let c = Candidate {
                plan,
                score,
                name: name.clone(),
                attempt,
            };
            if candidates.len() < cfg.slow_plans {
                candidates.push(c);
            } else if let Some(worst) = candidates.iter_mut().min_by_key(|c| c.score) {
                if score > worst.score {
                    *worst = c;
                }
            }
        }
        attempt += 1;
        slowest = slowest.max(t0.elapsed());
        let more = match budget {
            Budget::Attempts(n) => attempt < n,
            Budget::Until(_) => complete && Instant::now() + slowest < fast_end.unwrap(),
        };
        if !more {
            break;
        }
    }
    if spells {
        candidates.sort_by_key(|c| std::cmp::Reverse(c.score));
        let mut slowest = Duration::ZERO;
        for c in candidates.iter().take(cfg.slow_plans) {
            // A DP encoding costs a few greedy ones; do not start one that cannot finish.
            if deadline.is_some_and(|d| Instant::now() + slowest > d) || c.plan.truncated {
                break;
            }
            let t0 = Instant::now();
            let solution = encoder.encode(&c.plan, Mode::Dp, deadline);
            let tag = format!("hextris {}#{} dp", c.name, c.attempt);
            keep(solution, tag, &mut best);
            slowest = slowest.max(t0.elapsed());
        }
    }
    let mut b = best.expect("the first attempt always gives an answer");
    b.attempts = attempt;
    b
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
pub fn solve_many(problems: &[Prepared], end: Instant, cfg: &SolveConfig) -> Vec<ProblemResult> {
    let workers = rayon::current_num_threads().max(1);
    let mut tasks: Vec<(usize, u32)> = Vec::new();
    for (i, p) in problems.iter().enumerate() {
        tasks.extend(p.problem.distinct_seeds().into_iter().map(|s| (i, s)));
    }
    tasks.sort_by(|a, b| problems[b.0].weight().total_cmp(&problems[a.0].weight()));
    let weight_left: f64 = tasks.iter().map(|&(i, _)| problems[i].weight()).sum();
    // Next task, weight not started, and the deadline promised to each worker's running task.
    let queue = std::sync::Mutex::new((0usize, weight_left, vec![None::<Instant>; workers]));
    let worker_ids = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::with_capacity(tasks.len()));
    let begin = Instant::now();
    rayon::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|_| {
                let me = worker_ids.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                loop {
                    let (i, seed, deadline) = {
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
                                .map(|d| d.saturating_duration_since(now).as_secs_f64())
                                .sum();
                        let capacity = (workers as f64 * left - promised).max(0.0);
                        let share = (capacity * w / q.1.max(w)).min(left);
                        let deadline = now + Duration::from_secs_f64(share);
                        q.0 += 1;
                        q.1 -= w;
                        q.2[me] = Some(deadline);
                        (i, seed, deadline)
                    };
                    let t0 = Instant::now();
                    let p = &problems[i];
                    let r = solve_seed(p.problem, &p.tables, seed, Budget::Until(deadline), cfg);
                    if std::env::var_os("HEXTRIS_DEBUG").is_some() {
                        eprintln!(
                        "problem {} seed {seed}: start {:.2}s budget {:.2}s done {:.2}s score {}",
                        p.problem.id,
                        (t0 - begin).as_secs_f64(),
                        (deadline - t0).as_secs_f64(),
                        begin.elapsed().as_secs_f64(),
                        r.score
                    );
                    }
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
) -> Vec<ProblemResult> {
    let mut tasks: Vec<(usize, u32)> = Vec::new();
    for (i, p) in problems.iter().enumerate() {
        tasks.extend(p.problem.distinct_seeds().into_iter().map(|s| (i, s)));
    }
    let results = tasks
        .par_iter()
        .map(|&(i, seed)| {
            let p = &problems[i];
            (
                (i, seed),
                solve_seed(p.problem, &p.tables, seed, Budget::Attempts(attempts), cfg),
            )
        })
        .collect();
    collect(problems, results)
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
