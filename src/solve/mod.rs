//! Solving under a deadline: for every (problem, seed) an answer at once, then games of growing
//! cost wherever they promise the most, the best by the engine's own score kept.
//!
//! [`policy`] decides what runs next, from what has happened so far (never from the budget
//! left); [`budget`] holds the time rules (the budget and its preset, the reserve, the
//! checkpoints and horizons, each task's deadlines); [`exec`] runs the rounds on the rayon pool
//! and keeps the games; [`tasks`] is what a round's tasks do (plan, spell, score), through the
//! stage runner of [`stage`]; [`options`] holds every knob; [`pool`] runs a batch as the
//! commands do, on a rayon pool, and [`shard`] splits a run between processes. Deadlines are
//! checked inside the planner and the encoders, unit by unit. With [`Budget::Attempts`] a run
//! is reproducible to the character on any number of threads.

pub mod budget;
pub mod calibrate;
pub mod exec;
mod log;
pub mod options;
pub mod policy;
pub mod pool;
pub mod shard;
pub mod stage;
pub mod tasks;
pub mod tune;
mod types;

pub use budget::{Budget, STEP_BYTES};
pub use options::{SearchOptions, WideFirst, WideRule};
pub use types::{
    survival_flags, Prepared, ProblemResult, Progress, SeedResult, Silent, SolveConfig,
    DEFAULT_MEMORY,
};

use crate::engine::problem_score;
use std::time::Instant;

/// Solves every distinct seed of every problem within `budget` on the current rayon pool (see
/// [`exec`]): one result per problem, its seeds in the problem's order.
pub fn solve(
    problems: &[Prepared],
    budget: Budget,
    cfg: &SolveConfig,
    progress: &dyn Progress,
) -> Vec<ProblemResult> {
    solve_traced(problems, budget, cfg, progress).0
}

/// As [`solve`], with every round the policy started, in order (for tests and logs).
pub fn solve_traced(
    problems: &[Prepared],
    budget: Budget,
    cfg: &SolveConfig,
    progress: &dyn Progress,
) -> (Vec<ProblemResult>, Vec<policy::Round>) {
    let (results, trace) = exec::Executor::new(problems, budget, cfg, progress).run();
    (collect(problems, results), trace)
}

/// Solves every distinct seed of every problem, all of them answered by `end` (wall time).
pub fn solve_many(
    problems: &[Prepared],
    end: Instant,
    cfg: &SolveConfig,
    progress: &dyn Progress,
) -> Vec<ProblemResult> {
    solve(problems, Budget::Until(end), cfg, progress)
}

/// Solves every distinct seed with a fixed number of games planned per seed (reproducible).
pub fn solve_attempts(
    problems: &[Prepared],
    attempts: u32,
    cfg: &SolveConfig,
    progress: &dyn Progress,
) -> Vec<ProblemResult> {
    solve(problems, Budget::Attempts(attempts), cfg, progress)
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
            let part = |of: fn(&SeedResult) -> u64| {
                problem_score(p.problem, |s| {
                    seeds.iter().find(|r| r.seed == s).map_or(0, of)
                })
            };
            let (score, move_score) = (part(|r| r.score), part(|r| r.move_score));
            ProblemResult {
                problem_id: p.problem.id,
                seeds,
                score,
                move_score,
            }
        })
        .collect()
}
