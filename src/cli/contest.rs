//! `play_icfp2015`: the contest's command-line contract (RULES.md section 14).
//!
//! `-f FILE` (repeatable), `-t SECONDS` for ALL output, `-m MB`, `-c CORES`, `-p PHRASE`
//! (repeatable, quotes kept). The JSON list goes to stdout, everything else to stderr. A bad
//! problem file is named on stderr and the others are still answered; the exit code is then 2.

use crate::engine::{Phrases, Problem};
use crate::io::{expand_problem_paths, solutions_to_json};
use clap::Parser;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Seconds per problem file when no -t is given.
pub const DEFAULT_SECONDS_PER_PROBLEM: f64 = 10.0;

/// Plays the ICFP 2015 game: solutions for every seed of every problem, as JSON on stdout.
#[derive(Debug, Parser)]
#[command(name = "play_icfp2015", version)]
pub struct Args {
    /// A problem file (repeatable; a folder stands for every *.json in it).
    #[arg(short = 'f', value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Seconds for producing ALL output, start-up included. Without it, 10 seconds per problem.
    #[arg(short = 't', value_name = "SECONDS", allow_negative_numbers = true,
        value_parser = crate::cli::args::seconds)]
    pub time: Option<f64>,
    /// Memory limit in megabytes: it bounds the widest beam search (the rest of hextris's
    /// memory is small and fixed).
    #[arg(short = 'm', value_name = "MB", allow_negative_numbers = true,
        value_parser = crate::cli::args::between::<u64>(1, crate::cli::args::MAX_MEMORY_MB))]
    pub memory: Option<u64>,
    /// Number of cores to use (default: all).
    #[arg(short = 'c', value_name = "CORES", allow_negative_numbers = true,
        value_parser = crate::cli::args::between::<usize>(1, crate::cli::args::MAX_THREADS))]
    pub cores: Option<usize>,
    /// A phrase of power (repeatable). Without any, no phrase is spelt.
    #[arg(short = 'p', value_name = "PHRASE", allow_hyphen_values = true)]
    pub phrases: Vec<String>,
}

/// Time kept back for writing the output and exiting.
pub fn reserve(total: f64) -> Duration {
    Duration::from_secs_f64((0.15 + 0.03 * total).min(1.0).min(total / 4.0))
}

/// The budgets a user commonly gives (10, 30, 100, ... seconds): a run of a longer budget
/// plans its rounds to end where each of these would have ended, so that it plays everything
/// the shorter run plays first, its tail included (see
/// [`crate::solve::SolveConfig::checkpoints`]). None below 10 s: there the tails before a
/// checkpoint cost a longer run more than they find (with checkpoints at 1 and 3 s too, one run
/// at 10 s on the 25 official problems gave 821,218, one without 839,950; commit 45a936d).
const COMMON_BUDGETS: [f64; 11] = [10.0, 30.0, 100.0, 300.0, 1e3, 3e3, 1e4, 3e4, 1e5, 3e5, 1e6];

/// Where the common budgets below `total` end, in seconds before the end of a run of `total`
/// seconds; with `reserved`, each budget's end keeps back its [`reserve`] as the run's does.
pub fn checkpoints(total: f64, reserved: bool) -> Vec<f64> {
    let end = |t: f64| {
        if reserved {
            t - reserve(t).as_secs_f64()
        } else {
            t
        }
    };
    COMMON_BUDGETS
        .iter()
        .filter(|&&n| n < total)
        .map(|&n| end(total) - end(n))
        .filter(|&before| before > 0.0)
        .collect()
}

/// Entry point of the `play_icfp2015` binary.
pub fn main() -> ExitCode {
    let started = Instant::now();
    let args = Args::parse();
    let mut failed = false;
    let mut problems: Vec<Problem> = Vec::new();
    for arg in &args.files {
        let paths = match expand_problem_paths(std::slice::from_ref(arg)) {
            Ok(p) => p,
            Err(e) => {
                crate::note!("play_icfp2015: {e}");
                failed = true;
                continue;
            }
        };
        for path in paths {
            match crate::io::read_problem(&path) {
                Ok(p) => problems.push(p),
                Err(e) => {
                    crate::note!("play_icfp2015: {e}");
                    failed = true;
                }
            }
        }
    }
    // The same problem given twice is answered once.
    let mut seen = std::collections::HashSet::new();
    problems.retain(|p| seen.insert(p.id));
    let total = args
        .time
        .unwrap_or(DEFAULT_SECONDS_PER_PROBLEM * problems.len().max(1) as f64);
    let end = match crate::cli::args::deadline(started, total) {
        Ok(end) => end - reserve(total),
        Err(e) => return crate::cli::fail("play_icfp2015", &e),
    };
    let phrases = Phrases::new(args.phrases.iter().filter(|&p| !p.is_empty()).cloned());
    let refs: Vec<&Problem> = problems.iter().collect();
    let results = match crate::cli::solve::solve_on_pool(
        &refs,
        phrases,
        end,
        crate::cli::solve::PoolOptions {
            threads: args.cores,
            memory_mb: args.memory,
            checkpoints: checkpoints(total, true),
            ..Default::default()
        },
        &crate::solve::Silent,
    ) {
        Ok(r) => r,
        Err(e) => {
            crate::note!("play_icfp2015: {e}");
            return ExitCode::from(2);
        }
    };
    crate::note_raw!("{}", crate::cli::solve::summary(&results));
    let json = solutions_to_json(&crate::cli::solve::to_solutions(&results));
    let mut stdout = std::io::stdout().lock();
    if stdout
        .write_all(json.as_bytes())
        .and_then(|_| stdout.flush())
        .is_err()
    {
        crate::note!("play_icfp2015: cannot write to stdout");
        return ExitCode::from(2);
    }
    // The moment the answer was out, for whoever checks the time limit (the tests): measured
    // from the start of main, so it leaves out the process start-up before it.
    crate::note!(
        "play_icfp2015: answered in {:.3} s (limit {total} s)",
        started.elapsed().as_secs_f64()
    );
    if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A longer run's checkpoint falls where the shorter run would end, its reserve counted.
    #[test]
    fn checkpoints_fall_where_shorter_runs_end() {
        let end = |t: f64| t - reserve(t).as_secs_f64();
        let before = checkpoints(60.0, true);
        assert_eq!(before.len(), 2, "{before:?}");
        for (n, b) in [10.0, 30.0].iter().zip(&before) {
            assert!((end(60.0) - b - end(*n)).abs() < 1e-9, "{n}: {b}");
        }
        assert_eq!(checkpoints(100.0, false), vec![90.0, 70.0]);
        assert!(checkpoints(10.0, true).is_empty());
        assert!(checkpoints(0.5, false).is_empty());
    }
}
