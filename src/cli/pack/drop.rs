//! `hextris pack drop SEQUENCE [--width W] [--rotations] [--json]`: the canonical optimum of
//! [`crate::pack::drop`], printed as the original program prints it (the grid, the `Best
//! permutation` line and the height) or as JSON.
//!
//! Exit codes: 0 for an answer, 2 for a bad sequence or width (one line on stderr).

use crate::pack::drop::{permutation_line, render, solve, to_json, Problem};
use std::process::ExitCode;

/// Command-line arguments of `hextris pack drop`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The pieces in order, letters from IJLOSTZ (e.g. ZOZS).
    pub sequence: String,
    /// Width of the well (columns).
    #[arg(long, default_value_t = 6)]
    pub width: usize,
    /// Allow each piece any of its rotations (otherwise rotation 0 only).
    #[arg(long)]
    pub rotations: bool,
    /// Print `{"height": h, "placements": [...]}` instead of the grid and summary.
    #[arg(long)]
    pub json: bool,
}

/// Runs `hextris pack drop`.
pub fn run(args: Args) -> ExitCode {
    let problem = match Problem::new(&args.sequence, args.width, args.rotations) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("hextris pack drop: {e}");
            return ExitCode::from(2);
        }
    };
    let solution = solve(&problem);
    if args.json {
        println!("{}", to_json(&solution));
    } else {
        print!("{}", render(problem.width, &solution.placements));
        println!("{}", permutation_line(&solution.placements));
        println!("Minimum stack height: {}", solution.height);
    }
    ExitCode::SUCCESS
}
