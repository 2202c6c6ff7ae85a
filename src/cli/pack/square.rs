//! `hextris pack square INPUT.json [--check [ANSWER.json]]`: solves an instance of
//! [`crate::pack::square`] and prints `[["FIG", ANGLE, X, Y], ...]`, or validates an answer.
//!
//! Exit codes: 0 solved (or a valid answer), 1 impossible (or an invalid answer), 2 malformed
//! input, 3 undecided (the `--max-nodes` budget ran out first).

use crate::error::{Error, Result};
use crate::pack::square::{
    answer_json, check, draw, parse_answer, read_instance, solve_with_stats, Verdict,
};
use std::path::PathBuf;
use std::process::ExitCode;

/// Command-line arguments of `hextris pack square`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The instance: {"size": N, "signature": "I1,J1,L1,Z1"}, or "width" and "height" instead of
    /// "size" for a rectangle. Other fields ("name", "about", "solution") are ignored when
    /// solving.
    pub input: PathBuf,
    /// Validate an answer instead of solving. ANSWER.json holds [["FIG", ANGLE, X, Y], ...] or
    /// an object with such a "solution" field; with no file, the input's own "solution" field is
    /// checked.
    #[arg(long, value_name = "ANSWER.json", num_args = 0..=1)]
    pub check: Option<Option<PathBuf>>,
    /// Give up after this many placements: the answer is then "undecided", exit code 3.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Also draw the tiling on stderr, one letter per cell.
    #[arg(long)]
    pub draw: bool,
    /// Print search statistics on stderr.
    #[arg(long)]
    pub stats: bool,
}

/// Runs `hextris pack square`.
pub fn run(args: Args) -> ExitCode {
    match run_inner(&args) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("hextris pack square: {e}");
            ExitCode::from(2)
        }
    }
}

fn run_inner(args: &Args) -> Result<u8> {
    let (doc, instance) = read_instance(&args.input)?;
    if let Some(answer) = &args.check {
        let (origin, pieces) = if let Some(answer) = answer {
            let v = crate::io::read_json_value(answer)?;
            let sol = v.get("solution").unwrap_or(&v);
            (answer.clone(), parse_answer(answer, sol)?)
        } else {
            let sol = doc.get("solution").ok_or_else(|| {
                Error::invalid(
                    &args.input,
                    "has no \"solution\" field to check (give ANSWER.json)",
                )
            })?;
            (args.input.clone(), parse_answer(&args.input, sol)?)
        };
        let problems = check(&instance, &pieces);
        if problems.is_empty() {
            println!(
                "valid: {} pieces tile the {} x {} board exactly",
                pieces.len(),
                instance.width,
                instance.height
            );
            if args.draw {
                eprint!("{}", draw(&instance, &pieces));
            }
            return Ok(0);
        }
        println!(
            "invalid: {}: {} problem(s)",
            origin.display(),
            problems.len()
        );
        for p in problems.iter().take(20) {
            println!("  {p}");
        }
        if problems.len() > 20 {
            println!("  ... and {} more", problems.len() - 20);
        }
        return Ok(1);
    }
    let start = std::time::Instant::now();
    let (verdict, stats) = solve_with_stats(&instance, args.max_nodes);
    if args.stats {
        eprintln!(
            "{} x {}: {} placements, {} memo hits, {} attempts, {:.3} s",
            instance.width,
            instance.height,
            stats.nodes,
            stats.memo_hits,
            stats.attempts,
            start.elapsed().as_secs_f64()
        );
    }
    match verdict {
        Verdict::Solved(pieces) => {
            println!("{}", answer_json(&pieces));
            if args.draw {
                eprint!("{}", draw(&instance, &pieces));
            }
            Ok(0)
        }
        Verdict::Impossible(why) => {
            println!("impossible: {why}");
            Ok(1)
        }
        Verdict::Undecided => {
            println!(
                "undecided: no tiling found within {} placements",
                stats.nodes
            );
            Ok(3)
        }
    }
}
