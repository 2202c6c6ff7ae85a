//! Puzzle `totems` of `../shared/pack/PUZZLES.md`: not implemented yet.

use std::process::ExitCode;

/// Command-line arguments of `hextris pack totems`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Arguments (not implemented yet).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub args: Vec<String>,
}

/// Runs `hextris pack totems`.
pub fn run(_args: Args) -> ExitCode {
    eprintln!("hextris pack totems: not implemented yet");
    ExitCode::from(2)
}
