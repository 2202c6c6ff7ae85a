//! `hextris`: the tool. Subcommands are defined in [`hextris::cli`].

use clap::Parser;
use std::process::ExitCode;

#[derive(Debug, Parser)]
#[command(name = "hextris", version, about)]
enum Cli {
    /// Square-grid tetromino packing puzzles.
    #[command(subcommand)]
    Pack(hextris::pack::PackCommand),
}

fn main() -> ExitCode {
    match Cli::parse() {
        Cli::Pack(cmd) => hextris::pack::run(cmd),
    }
}
