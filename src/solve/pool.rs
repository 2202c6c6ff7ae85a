//! Running the solver as the commands do (`hextris solve`, `hextris bench`, `play_icfp2015`):
//! a batch of problems by its [`Settings`], resolved once by the command line
//! (`crate::cli::args`) and passed whole, on a rayon pool ([`solve_on_pool`]). What the
//! commands do with the answers (the contest's list, the table, the store) is theirs.

use super::budget::RunPlan;
use super::{solve, Prepared, ProblemResult, Progress, SearchOptions, SolveConfig};
use crate::engine::{Phrases, Problem};
use crate::error::{Error, Result};
use crate::eval::Weights;

/// Everything a batch runs by, resolved once from the command line (as ripgrep resolves its
/// flags once into one value) and passed whole to [`solve_on_pool`].
#[derive(Debug)]
pub struct Settings {
    /// What the run may spend: its budget, its checkpoints, its memory.
    pub plan: RunPlan,
    /// The search's knobs (`--search`, or the compiled-in ones).
    pub search: SearchOptions,
    /// The scoring systems (`--weights`, or the compiled-in ones).
    pub systems: Vec<(String, Weights)>,
    /// The phrases of power spelt and counted.
    pub phrases: Phrases,
    /// Worker threads (all cores when `None`).
    pub threads: Option<usize>,
    /// Stored games to start from (see [`SolveConfig::starts`]).
    pub starts: std::collections::HashMap<(i64, u32), (String, String)>,
}

/// Solves within `settings.plan` on a rayon pool of `settings.threads` (all cores by default),
/// warning about phrases that cannot be spelt.
pub fn solve_on_pool(
    problems: &[&Problem],
    settings: Settings,
    progress: &dyn Progress,
) -> Result<Vec<ProblemResult>> {
    let Settings {
        plan,
        search,
        systems,
        phrases,
        threads,
        starts,
    } = settings;
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
    cfg.search = search;
    cfg.systems = systems;
    cfg.order_systems();
    for w in cfg.table.warnings() {
        crate::note!("warning: {w}");
    }
    let pool = thread_pool(threads)?;
    Ok(pool.install(|| {
        let prepared: Vec<Prepared> = problems.iter().map(|p| Prepared::new(p)).collect();
        solve(&prepared, budget, &cfg, progress)
    }))
}

/// A rayon pool of `threads` worker threads (all cores when `None`; 0 is a usage error, not
/// rayon's "all cores"), for the commands that run work in parallel.
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        if n == 0 {
            return Err(Error::Usage(
                "the number of threads must be at least 1".into(),
            ));
        }
        pool = pool.num_threads(n);
    }
    pool.build()
        .map_err(|e| Error::Usage(format!("cannot start the threads: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_has_the_threads_asked_and_refuses_none() {
        let pool = thread_pool(Some(3)).unwrap();
        assert_eq!(pool.current_num_threads(), 3);
        assert_eq!(pool.install(rayon::current_num_threads), 3);
        // Rayon would take 0 for "all cores": the commands say so is a mistake instead.
        let err = thread_pool(Some(0)).unwrap_err();
        assert!(matches!(err, Error::Usage(_)), "{err}");
        assert!(err.to_string().contains("at least 1"), "{err}");
        let all = thread_pool(None).unwrap();
        assert!(all.current_num_threads() >= 1);
    }
}
