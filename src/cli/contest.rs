//! `play_icfp2015`: the contest's command-line contract (RULES.md section 14).
//!
//! `-f FILE` (repeatable), `-t SECONDS` for ALL output, `-m MB`, `-c CORES`, `-p PHRASE`
//! (repeatable, quotes kept). The JSON list goes to stdout, everything else to stderr. A bad
//! problem file is named on stderr and the others are still answered; the exit code is then 2.

use crate::engine::{Phrases, Problem};
use crate::io::{expand_problem_paths, solutions_to_json};
use crate::solve::SearchOptions;
use clap::Parser;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

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
    // The contest's run takes the compiled-in search options: it has no flag for others.
    let search = SearchOptions::default();
    let plan = match crate::cli::args::run_plan(started, total, false, &search) {
        Ok(plan) => plan.with_memory_limit(args.memory),
        Err(e) => return crate::cli::fail("play_icfp2015", &e),
    };
    let phrases = Phrases::new(args.phrases.iter().filter(|&p| !p.is_empty()).cloned());
    let refs: Vec<&Problem> = problems.iter().collect();
    let settings = crate::cli::args::settings(plan, search, None, phrases, args.cores);
    let results = match crate::solve::pool::solve_on_pool(&refs, settings, &crate::solve::Silent) {
        Ok(r) => r,
        Err(e) => {
            crate::note!("play_icfp2015: {e}");
            return ExitCode::from(2);
        }
    };
    crate::note_raw!("{}", crate::cli::batch::summary(&results));
    let json = solutions_to_json(&crate::cli::batch::to_solutions(&results));
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
