//! `hextris solve`: solves problem files or folders and prints the contest's JSON list.

use crate::cli::progress::Reporter;
use crate::engine::{Phrases, Problem};
use crate::error::{Error, Result};
use crate::io::{load_problems, solutions_to_json, write_atomic, Solution};
use crate::solve::{solve_attempts, solve_many, Prepared, ProblemResult, Progress, SolveConfig};
use crate::store::{Offer, Store};
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `hextris solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Problem files or folders of them (every *.json in a folder).
    #[arg(required = true, value_name = "PROBLEM")]
    pub problems: Vec<PathBuf>,
    /// Seconds per problem (or in all, with --total).
    #[arg(short = 't', long = "time", default_value_t = 10.0, allow_negative_numbers = true,
        value_parser = crate::cli::args::seconds)]
    pub time: f64,
    /// Make --time the budget of the whole run rather than of each problem.
    #[arg(long)]
    pub total: bool,
    /// Instead of a time budget, plan exactly this many games per seed: reproducible output.
    #[arg(long, conflicts_with = "time", allow_negative_numbers = true,
        value_parser = crate::cli::args::between::<u32>(1, crate::cli::args::MAX_ATTEMPTS))]
    pub attempts: Option<u32>,
    /// Write the JSON list to this file (atomically) instead of stdout.
    #[arg(short = 'o', long = "out")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub phrases: crate::cli::PhraseArgs,
    #[command(flatten)]
    pub weights: crate::cli::WeightArgs,
    /// Worker threads (default: all cores); 1 is the deterministic debugging path.
    #[arg(short = 'c', long = "threads", allow_negative_numbers = true,
        value_parser = crate::cli::args::between::<usize>(1, crate::cli::args::MAX_THREADS))]
    pub threads: Option<usize>,
    /// Keep the best solution per (problem, seed) in this folder: an entry is replaced only by
    /// a better one (see `hextris score --store`).
    #[arg(long, value_name = "DIR")]
    pub store: Option<PathBuf>,
}

/// Runs `hextris solve`.
pub fn run(args: Args) -> Result<()> {
    let started = Instant::now();
    let loaded = load_problems(&args.problems)?;
    let phrases = args.phrases.get()?;
    let problems: Vec<&Problem> = loaded.iter().map(|(_, p)| p).collect();
    let budget = if args.total {
        args.time
    } else {
        args.time * problems.len() as f64
    };
    let end = crate::cli::args::deadline(started, budget)?;
    let store = args.store.as_deref().map(Store::open).transpose()?;
    let reporter = Reporter::new(&problems, args.attempts.is_none().then(|| end - started));
    let results = solve_on_pool(
        &problems,
        phrases.clone(),
        end,
        PoolOptions {
            attempts: args.attempts,
            threads: args.threads,
            memory_mb: None,
            systems: args.weights.get()?,
            starts: match &store {
                Some(store) => store_starts(store, &problems)?,
                None => Default::default(),
            },
        },
        &reporter,
    )?;
    reporter.finish();
    eprint!("{}", summary(&results));
    if let Some(store) = &store {
        offer_to_store(store, &problems, &phrases, &results)?;
    }
    let json = solutions_to_json(&to_solutions(&results));
    match &args.out {
        Some(path) => write_atomic(path, json.as_bytes())?,
        None => print!("{json}"),
    }
    Ok(())
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
        eprintln!(
            "store: problem {}: {} new, {} better, {} kept",
            p.id,
            count(|o| matches!(o, Offer::New { .. })),
            count(|o| matches!(o, Offer::Better { .. })),
            count(|o| matches!(o, Offer::Kept { .. }))
        );
    }
    Ok(())
}

/// How a batch is run: the options the commands share, each defaulting to the solver's own.
#[derive(Debug, Default)]
pub struct PoolOptions {
    /// Run exactly this many attempts per seed instead of filling the time (reproducible
    /// across machines).
    pub attempts: Option<u32>,
    /// Worker threads (all cores by default).
    pub threads: Option<usize>,
    /// The memory limit in megabytes (`play_icfp2015 -m`).
    pub memory_mb: Option<u64>,
    /// Heuristic systems replacing the compiled-in ones (`--weights`).
    pub systems: Option<Vec<(String, crate::plan::Weights)>>,
    /// Stored games to start from (see [`SolveConfig::starts`]).
    pub starts: std::collections::HashMap<(i64, u32), (String, String)>,
}

/// Solves on a rayon pool of `opts.threads` (all cores by default), warning about phrases that
/// cannot be spelt.
pub fn solve_on_pool(
    problems: &[&Problem],
    phrases: Phrases,
    end: Instant,
    opts: PoolOptions,
    progress: &dyn Progress,
) -> Result<Vec<ProblemResult>> {
    let PoolOptions {
        attempts,
        threads,
        memory_mb,
        systems,
        starts,
    } = opts;
    let mut cfg = SolveConfig::new(phrases);
    cfg.starts = starts;
    if let Some(systems) = systems {
        cfg.systems = systems;
    }
    if let Some(mb) = memory_mb {
        // Keep a fifth of the limit for what is not counted: code, stacks, the allocator.
        cfg.memory = mb.saturating_mul(1 << 20) / 5 * 4;
    }
    for w in cfg.table.warnings() {
        eprintln!("warning: {w}");
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
        match attempts {
            Some(n) => solve_attempts(&prepared, n.max(1), &cfg, progress),
            None => solve_many(&prepared, end, &cfg, progress),
        }
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
