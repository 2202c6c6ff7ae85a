//! `hextris pack fillit FILE`, following the 42 subject: with no file or more than one it prints
//! `usage: hextris pack fillit input_file`; for any invalid file it prints `error` on stdout
//! (and, for the human, the reason on stderr); otherwise the square of [`crate::pack::fillit`],
//! one line per row. `--letters` extends the alphabet beyond 26 pieces.
//!
//! Exit codes: 0 for a square, 2 for `error` (an invalid file) and for the usage line.

use crate::pack::fillit::{parse, render, solve_with_stats, EXTENDED};
use std::path::Path;
use std::process::ExitCode;

/// Command-line arguments of `hextris pack fillit`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Allow more than 26 pieces: `--letters` names them A-Z, a-z, 0-9 (62 pieces at most);
    /// `--letters=SYMBOLS` uses the given distinct symbols instead.
    #[arg(long, value_name = "SYMBOLS", num_args = 0..=1, require_equals = true)]
    pub letters: Option<Option<String>>,
    /// Print search statistics on stderr.
    #[arg(long)]
    pub stats: bool,
    /// The input file (exactly one).
    #[arg(allow_hyphen_values = true)]
    pub files: Vec<String>,
}

/// Runs `hextris pack fillit`.
pub fn run(args: Args) -> ExitCode {
    if args.files.len() != 1 {
        println!("usage: hextris pack fillit input_file");
        return ExitCode::from(2);
    }
    let alphabet: Vec<char> = match &args.letters {
        None => EXTENDED.chars().take(26).collect(),
        Some(None) => EXTENDED.chars().collect(),
        Some(Some(s)) => {
            let chars: Vec<char> = s.chars().collect();
            let mut sorted = chars.clone();
            sorted.sort_unstable();
            sorted.dedup();
            if chars.is_empty()
                || sorted.len() != chars.len()
                || chars
                    .iter()
                    .any(|&c| c == '.' || c.is_whitespace() || c.is_control())
            {
                eprintln!(
                    "hextris pack fillit: --letters needs distinct symbols, none of them '.' or blank"
                );
                return ExitCode::from(2);
            }
            chars
        }
    };
    let path = Path::new(&args.files[0]);
    // The I/O error already names the file; a parse error gets the file's name in front.
    let pieces = match crate::io::read_bytes(path) {
        Ok(bytes) => {
            parse(&bytes, alphabet.len()).map_err(|why| format!("{}: {why}", path.display()))
        }
        Err(e) => Err(e.to_string()),
    };
    let pieces = match pieces {
        Ok(p) => p,
        Err(why) => {
            println!("error");
            eprintln!("hextris pack fillit: {why}");
            return ExitCode::from(2);
        }
    };
    let start = std::time::Instant::now();
    let (sol, stats) = solve_with_stats(&pieces);
    if args.stats {
        eprintln!(
            "{} pieces, side {} ({} smaller sides refuted), {} questions, {} placements, {:.3} s",
            pieces.len(),
            sol.size,
            stats.sizes_refuted,
            stats.questions,
            stats.nodes,
            start.elapsed().as_secs_f64()
        );
    }
    print!("{}", render(&sol, &alphabet));
    ExitCode::SUCCESS
}
