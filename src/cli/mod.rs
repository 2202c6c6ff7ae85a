//! The command-line front ends: `hextris` (subcommands) and `play_icfp2015` (the contest's
//! contract). Each subcommand parses its arguments into a config struct and calls the library;
//! errors travel up as [`crate::Error`] and are printed once, here, as one line with exit code 2.

pub mod args;
pub mod batch;
pub mod bench;
pub mod contest;
pub mod pack;
pub mod phrases;
pub mod progress;
pub mod score;
pub mod shape;
pub mod solve;
pub mod stages;
pub mod store;
pub mod survival;
pub mod tune;
pub mod view;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// hextris: plays the ICFP 2015 hex-grid Tetris with phrases of power, and solves square-grid
/// tetromino packing puzzles.
#[derive(Debug, Parser)]
#[command(name = "hextris", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Score a solution list against problems, as the organisers' evaluator would.
    Score(score::Args),
    /// Solve problems: the contest's JSON list of solutions on stdout (or --out).
    Solve(solve::Args),
    /// Run every problem with the same budget and print the table of scores and times.
    Bench(bench::Args),
    /// Tune a scoring system's weights on problems (held-out seeds reported apart).
    Tune(tune::Args),
    /// Which phrases of power can be spelt on which problems, and why not.
    Phrases(phrases::Args),
    /// Replay a solution in the terminal (piped: print its final board and status).
    View(view::ViewArgs),
    /// Play a problem by hand in the terminal; the solution JSON is written on quit.
    Play(view::PlayArgs),
    /// Draw the board at any step of a solution as an SVG picture, or write a web page that
    /// replays it (--html).
    Render(view::RenderArgs),
    /// Best-solutions stores: merge several into one, export one as the contest's JSON list.
    #[command(subcommand)]
    Store(store::StoreCommand),
    /// Square-grid tetromino packing puzzles.
    #[command(subcommand)]
    Pack(pack::PackCommand),
}

/// The phrases of power a command spells or counts: `-p` (repeatable), or the 18 official ones.
#[derive(Debug, clap::Args)]
pub struct PhraseArgs {
    /// A phrase of power (repeatable; quotes are part of the phrase); the 18 official ones by
    /// default.
    #[arg(
        short = 'p',
        long = "phrase",
        value_name = "PHRASE",
        allow_hyphen_values = true
    )]
    pub phrases: Vec<String>,
}

impl PhraseArgs {
    /// The phrase list: the ones given, or the official ones when none is.
    pub fn get(&self) -> crate::error::Result<crate::engine::Phrases> {
        score::phrases_from_args(&self.phrases)
    }
}

/// The scoring systems a command plans with: `--weights FILE`, or the compiled-in ones.
#[derive(Debug, clap::Args)]
pub struct WeightArgs {
    /// Scoring systems to plan with, from a JSON file shaped like src/eval/weights.json (a map
    /// from system name to weights); the compiled-in systems by default.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<std::path::PathBuf>,
}

impl WeightArgs {
    /// The systems, or `None` for the compiled-in ones.
    pub fn get(&self) -> crate::error::Result<Option<Vec<(String, crate::eval::Weights)>>> {
        self.weights
            .as_deref()
            .map(crate::eval::read_systems)
            .transpose()
    }
}

/// The `--search FILE` option: the search's knobs (see [`crate::solve::SearchOptions`]).
#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// The search's options from a JSON file: any of the fields of src/solve/search.json (the
    /// compiled-in defaults), each replacing its default.
    #[arg(long = "search", value_name = "FILE")]
    pub search: Option<std::path::PathBuf>,
}

impl SearchArgs {
    /// The options, or the compiled-in ones.
    pub fn get(&self) -> crate::error::Result<crate::solve::SearchOptions> {
        args::search_options(self.search.as_deref())
    }
}

/// Prints an error once and returns exit code 2.
pub fn fail(program: &str, e: &crate::Error) -> ExitCode {
    crate::note!("{program}: {e}");
    ExitCode::from(2)
}

/// Entry point of the `hextris` binary.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Score(a) => score::run(a),
        Command::Solve(a) => solve::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Phrases(a) => phrases::run(a),
        Command::Tune(a) => tune::run(a),
        Command::View(a) => view::run_view(a),
        Command::Play(a) => view::run_play(a),
        Command::Render(a) => view::run_render(a),
        Command::Store(cmd) => store::run(cmd),
        Command::Pack(cmd) => return pack::run(cmd),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail("hextris", &e),
    }
}
