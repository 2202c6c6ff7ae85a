//! `hextris pack totems QUESTION.json [--time S]`, `--check QUESTION ANSWER` and `--eval LEVEL`:
//! the answer of [`crate::pack::totems`] within the time limit (process start-up included),
//! an answer's validity and score, or an evaluation over random bags.
//!
//! Exit codes: 0 for an answer (or a valid one with `--check`), 1 for an invalid answer, 2 for
//! bad input (one line on stderr).

use crate::error::Error;
use crate::pack::totems::{
    answer_json, best_for, packer, parse_answer, read_question, to_answer, trials, validate,
};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Command-line arguments of `hextris pack totems`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The server's question (JSON file, `-` for standard input).
    pub question: Option<PathBuf>,
    /// Wall-time limit in seconds, process start-up included.
    #[arg(long, default_value_t = 1.0)]
    pub time: f64,
    /// Check an answer: prints its validity and score.
    #[arg(long, num_args = 2, value_names = ["QUESTION", "ANSWER"])]
    pub check: Option<Vec<PathBuf>>,
    /// Evaluate a level (1..=10) over random bags, each solved by a separate process.
    #[arg(long, value_name = "LEVEL")]
    pub eval: Option<u32>,
    /// Number of bags for --eval.
    #[arg(long, default_value_t = 200)]
    pub rounds: usize,
    /// Seed of every random choice (the bags of --eval and the packer's tie-breaks).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print the boxes tried and the score on standard error.
    #[arg(long)]
    pub verbose: bool,
}

/// The time kept back from the limit for printing the answer and leaving the process.
fn safety_margin(limit: Duration) -> Duration {
    limit
        .mul_f64(0.12)
        .clamp(Duration::from_millis(5), Duration::from_millis(150))
}

/// Runs `hextris pack totems`.
pub fn run(args: Args) -> ExitCode {
    let start = Instant::now();
    match run_inner(args, start) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("hextris pack totems: {e}");
            ExitCode::from(2)
        }
    }
}

fn run_inner(args: Args, start: Instant) -> Result<ExitCode, Error> {
    if !(args.time.is_finite() && args.time > 0.0 && args.time <= 3600.0) {
        return Err(Error::Usage(format!(
            "--time {}: expected seconds in (0, 3600]",
            args.time
        )));
    }
    if let Some(t) = args.threads {
        if t == 0 {
            return Err(Error::Usage("--threads 0: expected at least 1".into()));
        }
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if let Some(files) = &args.check {
        let question = read_question(&files[0])?;
        let text = crate::io::read_text_or_stdin(&files[1])?;
        let answer = parse_answer(&text).map_err(|w| Error::invalid(&files[1], w))?;
        return Ok(match validate(&question, &answer) {
            Ok((w, h)) => {
                let n = question.len();
                let s = packer::score(n, w, h);
                let best = best_for(n);
                println!(
                    "{}",
                    serde_json::json!({"valid": true, "score": s, "width": w, "height": h,
                        "optimal": best.is_some_and(|b| s >= b - 1e-9)})
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                println!("{}", serde_json::json!({"valid": false, "error": e}));
                ExitCode::from(1)
            }
        });
    }
    if let Some(level) = args.eval {
        if !(1..=10).contains(&level) {
            return Err(Error::Usage(format!(
                "--eval {level}: expected a level in 1..=10"
            )));
        }
        if args.rounds == 0 {
            return Err(Error::Usage("--rounds 0: expected at least 1".into()));
        }
        trials::run(&trials::Config {
            level,
            rounds: args.rounds,
            seed: args.seed,
            time: args.time,
            threads,
            verbose: args.verbose,
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    let Some(path) = &args.question else {
        return Err(Error::Usage(
            "expected QUESTION.json, --check QUESTION ANSWER or --eval LEVEL".into(),
        ));
    };
    let question = read_question(path)?;
    // A pool that already exists (a second call in one process) is kept as it is.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global();
    let limit = Duration::from_secs_f64(args.time);
    let deadline = start + limit.saturating_sub(safety_margin(limit));
    let report = packer::solve(&question, deadline, args.seed);
    let answer = to_answer(&question, &report.packing);
    println!("{}", answer_json(&answer));
    if args.verbose {
        let (w, h) = packer::extent(&report.packing);
        for (b, ok) in &report.tried {
            eprintln!(
                "box {}x{} (score {:.2}): {}",
                b.a,
                b.b,
                b.score,
                if *ok { "packed" } else { "not packed" }
            );
        }
        eprintln!(
            "n = {}, box {w}x{h}, score {:.2}, {:.3} s",
            question.len(),
            report.score,
            start.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}
