//! Running the solver as the commands do (`hextris solve`, `hextris bench`, `play_icfp2015`):
//! a batch of problems within its [`RunPlan`] on a rayon pool ([`solve_on_pool`]), its answers
//! as the contest's list of solutions and as a table, and the store of best solutions (the
//! stored games to start from, the answers offered to it).

use super::budget::RunPlan;
use super::{solve, Prepared, ProblemResult, Progress, SolveConfig};
use crate::engine::{Phrases, Problem};
use crate::error::{Error, Result};
use crate::io::Solution;
use crate::store::{Offer, Store};

/// How a batch is run, besides its time and memory (its [`RunPlan`]): the options the commands
/// share, each defaulting to the solver's own.
#[derive(Debug, Default)]
pub struct PoolOptions {
    /// Worker threads (all cores by default).
    pub threads: Option<usize>,
    /// Heuristic systems replacing the compiled-in ones (`--weights`).
    pub systems: Option<Vec<(String, crate::eval::Weights)>>,
    /// The search's options replacing the compiled-in ones (`--search`).
    pub search: Option<super::SearchOptions>,
    /// Stored games to start from (see [`SolveConfig::starts`]).
    pub starts: std::collections::HashMap<(i64, u32), (String, String)>,
}

/// Solves within `plan` on a rayon pool of `opts.threads` (all cores by default), warning about
/// phrases that cannot be spelt.
pub fn solve_on_pool(
    problems: &[&Problem],
    phrases: Phrases,
    plan: RunPlan,
    opts: PoolOptions,
    progress: &dyn Progress,
) -> Result<Vec<ProblemResult>> {
    let PoolOptions {
        threads,
        systems,
        search,
        starts,
    } = opts;
    let RunPlan {
        budget,
        checkpoints,
        revive_checkpoints,
        memory,
    } = plan;
    let mut cfg = SolveConfig::new(phrases);
    cfg.starts = starts;
    cfg.checkpoints = checkpoints;
    cfg.revive_checkpoints = revive_checkpoints;
    cfg.memory = memory;
    if let Some(search) = search {
        cfg.search = search;
    }
    if let Some(systems) = systems {
        cfg.systems = systems;
    }
    cfg.order_systems();
    for w in cfg.table.warnings() {
        crate::note!("warning: {w}");
    }
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        if n == 0 {
            return Err(Error::Usage(
                "the number of threads must be at least 1".into(),
            ));
        }
        pool = pool.num_threads(n);
    }
    let pool = pool
        .build()
        .map_err(|e| Error::Usage(format!("cannot start the threads: {e}")))?;
    Ok(pool.install(|| {
        let prepared: Vec<Prepared> = problems.iter().map(|p| Prepared::new(p)).collect();
        solve(&prepared, budget, &cfg, progress)
    }))
}

/// The contest's list of solutions.
pub fn to_solutions(results: &[ProblemResult]) -> Vec<Solution> {
    results
        .iter()
        .flat_map(|r| {
            r.seeds.iter().map(move |s| Solution {
                problem_id: r.problem_id,
                seed: s.seed,
                tag: Some(s.tag.clone()),
                solution: s.solution.clone(),
            })
        })
        .collect()
}

/// A table of the results: per problem, its score, the mean move and power scores, games.
pub fn summary(results: &[ProblemResult]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>7} {:>5} {:>9} {:>9} {:>9} {:>7}",
        "problem", "seeds", "move", "power", "score", "games"
    );
    let mut total = 0;
    for r in results {
        let n = r.seeds.len().max(1) as u64;
        let mv: u64 = r.seeds.iter().map(|s| s.move_score).sum::<u64>() / n;
        let pw: u64 = r.seeds.iter().map(|s| s.power_score).sum::<u64>() / n;
        let games: u32 = r.seeds.iter().map(|s| s.attempts).sum();
        let _ = writeln!(
            out,
            "{:>7} {:>5} {:>9} {:>9} {:>9} {:>7}",
            r.problem_id,
            r.seeds.len(),
            mv,
            pw,
            r.score,
            games
        );
        total += r.score;
    }
    let _ = writeln!(out, "total {total}");
    out
}

/// The stored best game of every seed of `problems`, to start from: each run then adds to the
/// last instead of starting over.
pub fn store_starts(
    store: &Store,
    problems: &[&Problem],
) -> Result<std::collections::HashMap<(i64, u32), (String, String)>> {
    let mut starts = std::collections::HashMap::new();
    for p in problems {
        for e in store.entries(p.id)? {
            starts.insert((e.problem_id, e.seed), (e.tag, e.solution));
        }
    }
    Ok(starts)
}

/// Whether an answer is worth a store entry: after a stop, a seed that scores nothing was not
/// searched (`solve` and `bench` both leave such seeds out of their stores).
pub fn worth_keeping(r: &crate::solve::SeedResult) -> bool {
    r.score > 0 || !crate::stop::requested()
}

/// Offers the answers to the store of best solutions, saying on stderr what it kept.
pub fn offer_to_store(
    store: &Store,
    problems: &[&Problem],
    phrases: &Phrases,
    results: &[ProblemResult],
) -> Result<()> {
    for (p, r) in problems.iter().zip(results) {
        let answers = to_solutions(std::slice::from_ref(r));
        let offers = store.offer(p, phrases, &answers)?;
        let count = |f: fn(&Offer) -> bool| offers.iter().filter(|o| f(o)).count();
        crate::note!(
            "store: problem {}: {} new, {} better, {} kept",
            p.id,
            count(|o| matches!(o, Offer::New { .. })),
            count(|o| matches!(o, Offer::Better { .. })),
            count(|o| matches!(o, Offer::Kept { .. }))
        );
    }
    Ok(())
}
