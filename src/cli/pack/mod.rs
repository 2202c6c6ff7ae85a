//! The command lines of the square-grid puzzles (`hextris pack ...`): clap arguments, what is
//! printed, and exit codes. The puzzles themselves are in [`crate::pack`]; files are read through
//! [`crate::io`].

pub mod drop;
pub mod fillit;
pub mod square;
pub mod totems;

use std::process::ExitCode;

/// The `hextris pack` subcommands, one per puzzle.
#[derive(Debug, clap::Subcommand)]
pub enum PackCommand {
    /// Tile an N x N square (or a rectangle) exactly with a given multiset of tetrominoes.
    Square(square::Args),
    /// The 42 school's fillit: the smallest square holding fixed tetrominoes.
    Fillit(fillit::Args),
    /// Drop a sequence of tetrominoes into a well for the lowest final stack.
    Drop(drop::Args),
    /// Coveo Blitz 2022 totems: pack n tetrominoes into a near-square box.
    Totems(totems::Args),
}

/// Runs one pack subcommand and returns the process exit code it asks for.
pub fn run(cmd: PackCommand) -> ExitCode {
    match cmd {
        PackCommand::Square(a) => square::run(a),
        PackCommand::Fillit(a) => fillit::run(a),
        PackCommand::Drop(a) => drop::run(a),
        PackCommand::Totems(a) => totems::run(a),
    }
}
