//! `hextris score`: scores a solution list against problems, as the organisers' evaluator would,
//! per entry and per problem, as a table or as JSON.

use crate::engine::{problem_score, replay, Evaluation, Phrases, Problem};
use crate::error::{Error, Result};
use crate::io::{load_problems, read_solutions, Solution};
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Arguments of `hextris score`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The solution list (the contest's JSON output format).
    #[arg(required_unless_present = "store")]
    pub solutions: Option<PathBuf>,
    /// Score the entries of a best-solutions store instead of a solution list.
    #[arg(long, value_name = "DIR", conflicts_with = "solutions")]
    pub store: Option<PathBuf>,
    /// A problem file, or a folder of them (every *.json in it). Repeatable.
    #[arg(short = 'f', long = "file", required = true, value_name = "PROBLEM")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub phrases: crate::cli::PhraseArgs,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// The score of one entry.
#[derive(Debug, Serialize)]
pub struct EntryReport {
    #[serde(rename = "problemId")]
    pub problem_id: i64,
    pub seed: u32,
    pub score: u64,
    pub move_score: u64,
    pub power_score: u64,
    pub commands: u32,
    pub locked: u32,
    pub status: String,
    /// For an error: the 0-based index of the offending command and character.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_command: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_char: Option<usize>,
    pub phrases: BTreeMap<String, u32>,
}

/// The official aggregate of one problem.
#[derive(Debug, Serialize)]
pub struct ProblemReport {
    #[serde(rename = "problemId")]
    pub problem_id: i64,
    /// Seeds the problem lists (duplicates included: the divisor).
    pub seeds: usize,
    pub score: u64,
}

/// A whole score report.
#[derive(Debug, Serialize)]
pub struct Report {
    pub results: Vec<EntryReport>,
    pub problems: Vec<ProblemReport>,
    pub total: u64,
}

impl EntryReport {
    fn new(s: &Solution, e: &Evaluation, phrases: &Phrases) -> EntryReport {
        let (status, error_command, error_char) = match e.end {
            crate::engine::End::Error {
                kind,
                command,
                char_index,
            } => {
                let located = kind != crate::engine::ErrorKind::SeedNotInProblem;
                (
                    format!("error:{}", kind.name()),
                    located.then_some(command),
                    located.then_some(char_index),
                )
            }
            end => (end.to_string(), None, None),
        };
        EntryReport {
            problem_id: s.problem_id,
            seed: s.seed,
            score: e.score,
            move_score: e.move_score,
            power_score: e.power_score,
            commands: e.commands,
            locked: e.locked,
            status,
            error_command,
            error_char,
            phrases: (0..phrases.len())
                .filter(|&i| e.phrase_counts[i] > 0)
                .map(|i| (phrases.get(i).to_string(), e.phrase_counts[i]))
                .collect(),
        }
    }
}

/// Scores every entry whose problem is given; returns the report and the ids of problems that
/// entries name but no file gives.
pub fn score_all(
    problems: &[Problem],
    solutions: &[Solution],
    phrases: &Phrases,
) -> (Report, Vec<i64>) {
    let by_id: FxHashMap<i64, &Problem> = problems.iter().map(|p| (p.id, p)).collect();
    let mut results = Vec::new();
    let mut missing = Vec::new();
    // The latest entry for a (problem, seed) is the one that counts, as on the server.
    let mut latest: FxHashMap<(i64, u32), u64> = FxHashMap::default();
    let mut order: Vec<i64> = Vec::new();
    for s in solutions {
        let Some(p) = by_id.get(&s.problem_id) else {
            if !missing.contains(&s.problem_id) {
                missing.push(s.problem_id);
            }
            continue;
        };
        let e = replay(p, s.seed, &s.solution, phrases);
        latest.insert((s.problem_id, s.seed), e.score);
        if !order.contains(&s.problem_id) {
            order.push(s.problem_id);
        }
        results.push(EntryReport::new(s, &e, phrases));
    }
    let problems: Vec<ProblemReport> = order
        .iter()
        .map(|id| {
            let p = by_id[id];
            let score = problem_score(p, |seed| latest.get(&(p.id, seed)).copied().unwrap_or(0));
            ProblemReport {
                problem_id: p.id,
                seeds: p.seeds.len(),
                score,
            }
        })
        .collect();
    let total = problems.iter().map(|p| p.score).sum();
    (
        Report {
            results,
            problems,
            total,
        },
        missing,
    )
}

/// The phrase list of `-p`, or the official one.
pub fn phrases_from_args(args: &[String]) -> Result<Phrases> {
    if args.iter().any(|p| p.is_empty()) {
        return Err(Error::Usage(
            "an empty phrase (-p \"\") cannot be counted".into(),
        ));
    }
    Ok(if args.is_empty() {
        Phrases::official()
    } else {
        Phrases::new(args.iter().cloned())
    })
}

/// Runs `hextris score`.
pub fn run(args: Args) -> Result<()> {
    let phrases = args.phrases.get()?;
    let problems: Vec<Problem> = load_problems(&args.files)?
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    let solutions = match (&args.solutions, &args.store) {
        (Some(path), _) => read_solutions(path)?,
        (None, Some(dir)) => crate::store::as_solutions(&crate::store::Store::open(dir)?.all()?),
        (None, None) => unreachable!("clap requires one of them"),
    };
    let (report, missing) = score_all(&problems, &solutions, &phrases);
    if !missing.is_empty() {
        crate::note!(
            "hextris score: skipped entries for problems not given with -f: {}",
            missing
                .iter()
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).expect("plain data serialises")
        );
    } else {
        // On a terminal the rows are cut to its width (the phrases column ends with `…`);
        // piped, they are whole.
        use std::io::IsTerminal;
        let width = std::io::stdout()
            .is_terminal()
            .then(|| crossterm::terminal::size().ok())
            .flatten()
            .map(|(w, _)| w as usize);
        print!("{}", format_table(&report, width));
    }
    Ok(())
}

/// The report as a text table; with `width`, no row is longer than that many characters (the
/// phrases, last, are cut with an ellipsis).
pub fn format_table(r: &Report, width: Option<usize>) -> String {
    use std::fmt::Write;
    let statuses: Vec<String> = r
        .results
        .iter()
        .map(|e| {
            let mut status = e.status.clone();
            if let (Some(c), Some(ch)) = (e.error_command, e.error_char) {
                let _ = write!(status, " at command {c} (char {ch})");
            }
            status
        })
        .collect();
    // The status column is as wide as its longest entry, not a fixed width.
    let sw = statuses
        .iter()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(0)
        .max("status".len());
    let fit = |line: String| match width {
        Some(w) => crate::view::canvas::ellipsize(&line, w),
        None => line,
    };
    let mut out = String::new();
    let head = format!(
        "{:>7} {:>10} {:>8} {:>8} {:>8} {:>6} {:>6}  {:<sw$} phrases",
        "problem", "seed", "score", "move", "power", "cmds", "locked", "status"
    );
    let _ = writeln!(out, "{}", fit(head));
    for (e, status) in r.results.iter().zip(&statuses) {
        let phrases: Vec<String> = e
            .phrases
            .iter()
            .map(|(p, n)| format!("{p:?}x{n}"))
            .collect();
        let line = format!(
            "{:>7} {:>10} {:>8} {:>8} {:>8} {:>6} {:>6}  {:<sw$} {}",
            e.problem_id,
            e.seed,
            e.score,
            e.move_score,
            e.power_score,
            e.commands,
            e.locked,
            status,
            if phrases.is_empty() {
                "-".to_string()
            } else {
                phrases.join(" ")
            }
        );
        let _ = writeln!(out, "{}", fit(line));
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "{:>7} {:>6} {:>8}", "problem", "seeds", "score");
    for p in &r.problems {
        let _ = writeln!(out, "{:>7} {:>6} {:>8}", p.problem_id, p.seeds, p.score);
    }
    let _ = writeln!(out, "total {}", r.total);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(status: &str, phrases: &[(&str, u32)]) -> EntryReport {
        EntryReport {
            problem_id: 24,
            seed: 18,
            score: 300_750,
            move_score: 9474,
            power_score: 291_276,
            commands: 40_000,
            locked: 1620,
            status: status.to_string(),
            error_command: None,
            error_char: None,
            phrases: phrases.iter().map(|&(p, n)| (p.to_string(), n)).collect(),
        }
    }

    /// Regression: rows were 352 characters wide with every phrase used.
    #[test]
    fn table_rows_fit_the_width_and_say_when_cut() {
        let all: Vec<(&str, u32)> = crate::engine::OFFICIAL_PHRASES
            .iter()
            .map(|&p| (p, 12))
            .collect();
        let r = Report {
            results: vec![entry("out-of-units", &all), entry("board-full", &[])],
            problems: vec![ProblemReport {
                problem_id: 24,
                seeds: 1,
                score: 300_750,
            }],
            total: 300_750,
        };
        let cut = format_table(&r, Some(80));
        assert!(cut.lines().all(|l| l.chars().count() <= 80), "{cut}");
        assert!(cut.lines().nth(1).unwrap().ends_with('…'), "{cut}");
        assert!(cut.lines().nth(2).unwrap().ends_with(" -"), "{cut}");
        // Without a width (piped), nothing is cut.
        let whole = format_table(&r, None);
        assert!(whole.contains("\"case nightmare green\"x12"));
        assert!(!whole.contains('…'));
    }
}
