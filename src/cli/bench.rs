//! `hextris bench`: every problem with the same budget, one after the other, and the table of
//! per-problem scores (move, power, total, time) and their sum, so that each change can be
//! compared with the last.

use crate::engine::Problem;
use crate::error::Result;
use crate::io::load_problems;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `hextris bench`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Problem files or folders of them.
    #[arg(required = true, value_name = "PROBLEM")]
    pub problems: Vec<PathBuf>,
    /// Seconds per problem, as `play_icfp2015 -t` would get for a run of that problem alone.
    #[arg(short = 't', long = "time", default_value_t = 10.0, allow_negative_numbers = true,
        value_parser = crate::cli::args::seconds)]
    pub time: f64,
    #[command(flatten)]
    pub phrases: crate::cli::PhraseArgs,
    #[command(flatten)]
    pub weights: crate::cli::WeightArgs,
    /// Spell no phrase at all (the move score alone, as play_icfp2015 without -p).
    #[arg(long, conflicts_with = "phrases")]
    pub no_phrases: bool,
    /// Worker threads (default: all cores).
    #[arg(short = 'c', long = "threads", allow_negative_numbers = true,
        value_parser = crate::cli::args::between::<usize>(1, crate::cli::args::MAX_THREADS))]
    pub threads: Option<usize>,
    /// Also write the solutions found to this file (atomically).
    #[arg(short = 'o', long = "out")]
    pub out: Option<PathBuf>,
    /// Also offer them to this store of best solutions (see `hextris solve --store`).
    #[arg(long, value_name = "DIR")]
    pub store: Option<PathBuf>,
}

/// Runs `hextris bench`.
pub fn run(args: Args) -> Result<()> {
    let loaded = load_problems(&args.problems)?;
    let phrases = if args.no_phrases {
        crate::engine::Phrases::new(Vec::<String>::new())
    } else {
        args.phrases.get()?
    };
    let store = args
        .store
        .as_deref()
        .map(crate::store::Store::open)
        .transpose()?;
    println!(
        "{:>7} {:>5} {:>9} {:>9} {:>9} {:>7}",
        "problem", "seeds", "move", "power", "score", "time"
    );
    let systems = args.weights.get()?;
    let (mut total, mut all) = (0u64, Vec::new());
    for (_, problem) in &loaded {
        let start = Instant::now();
        // The same share of the budget that play_icfp2015 keeps back for its output.
        let end =
            crate::cli::args::deadline(start, args.time)? - crate::cli::contest::reserve(args.time);
        let probs: Vec<&Problem> = vec![problem];
        let results = crate::cli::solve::solve_on_pool(
            &probs,
            phrases.clone(),
            end,
            crate::cli::solve::PoolOptions {
                threads: args.threads,
                systems: systems.clone(),
                ..Default::default()
            },
            &crate::solve::Silent,
        )?;
        let r = &results[0];
        let n = r.seeds.len().max(1) as u64;
        let mv: u64 = r.seeds.iter().map(|s| s.move_score).sum::<u64>() / n;
        let pw: u64 = r.seeds.iter().map(|s| s.power_score).sum::<u64>() / n;
        println!(
            "{:>7} {:>5} {:>9} {:>9} {:>9} {:>6.2}s",
            r.problem_id,
            r.seeds.len(),
            mv,
            pw,
            r.score,
            start.elapsed().as_secs_f64()
        );
        total += r.score;
        if let Some(store) = &store {
            crate::cli::solve::offer_to_store(store, &probs, &phrases, &results)?;
        }
        all.extend(results);
    }
    println!("total {total}");
    if let Some(path) = &args.out {
        let json = crate::io::solutions_to_json(&crate::cli::solve::to_solutions(&all));
        crate::io::write_atomic(path, json.as_bytes())?;
    }
    Ok(())
}
