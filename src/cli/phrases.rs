//! `hextris phrases`: which phrases of power can be spelt on which problems, and why not.

use crate::encode::{spellable, PhraseTable};
use crate::error::Result;
use crate::io::load_problems;
use crate::plan::Tables;
use std::path::PathBuf;

/// Arguments of `hextris phrases`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Problem files or folders of them.
    #[arg(required = true, value_name = "PROBLEM")]
    pub problems: Vec<PathBuf>,
    #[command(flatten)]
    pub phrases: crate::cli::PhraseArgs,
}

/// Runs `hextris phrases`: per problem, the phrases no unit can spell, with the reason.
pub fn run(args: Args) -> Result<()> {
    let phrases = args.phrases.get()?;
    let table = PhraseTable::new(&phrases);
    for w in table.warnings() {
        println!("{w}");
    }
    for (_, p) in load_problems(&args.problems)? {
        let tables = Tables::new(&p);
        let can = spellable(&p, &tables, &table);
        let missing: Vec<String> = table
            .phrases
            .iter()
            .zip(&can)
            .filter(|(_, c)| c.is_none())
            .map(|(ph, _)| {
                let why = if ph.descents >= p.height {
                    format!("{} descents, {} rows", ph.descents, p.height)
                } else if tables.spaces.iter().all(|s| !ph.playable(s.k)) {
                    "its rotations repeat a position for every unit".to_string()
                } else {
                    "no unit has room for it".to_string()
                };
                format!("{:?} ({why})", ph.text)
            })
            .collect();
        println!(
            "problem {}: {} of {} spellable{}{}",
            p.id,
            can.iter().filter(|c| c.is_some()).count(),
            can.len(),
            if missing.is_empty() { "" } else { "; not: " },
            missing.join(", ")
        );
    }
    Ok(())
}
