//! `hextris store merge`, `export`, `report` and `respell`: moving best solutions between stores
//! and out to the contest's submission format, telling what a store holds, and spelling its
//! games again ([`respell`]).
//!
//! They trust nothing they read: every entry is replayed by the engine under the given phrases
//! and must score exactly what it records ([`crate::store::verify`]); an entry that does not is
//! refused with a line naming its file, problem and seed, and the command then exits with code 2
//! (after doing the rest of its work). Sources are only read, each file whole (the store writes
//! by rename), so merging from stores that running solvers are writing to is safe; the target is
//! written through [`Store::offer_entries`], under the target's lock and atomically per file.

use crate::engine::{Phrases, Problem};
use crate::error::{Error, Result};
use crate::io::{load_problems, solutions_to_json, write_atomic, Solution};
use crate::store::report::{read_references, report as store_report, ProblemRow, Report};
use crate::store::{sort_entries, verify, Entry, Offer, Store};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub mod respell;

/// The `hextris store` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum StoreCommand {
    /// Merge stores: the best sound entry per (problem, seed) of the sources and the target is
    /// kept in the target.
    Merge(MergeArgs),
    /// Write the contest's JSON list from a store: the best entry of every seed of the problems.
    Export(ExportArgs),
    /// What a store holds, per problem and in total (and how it grew): a table, JSON, or a web
    /// page with charts and the replays.
    Report(ReportArgs),
    /// Spell every stored game again with this build's character encoder (the same placements),
    /// keeping the texts that score more.
    Respell(respell::RespellArgs),
}

/// Arguments of `hextris store merge`.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// Store folders to merge from (only read).
    #[arg(required = true, value_name = "SRC_DIR")]
    pub sources: Vec<PathBuf>,
    /// The store folder to merge into (created if needed).
    #[arg(long, value_name = "DIR")]
    pub into: PathBuf,
    /// The problems whose entries are merged: files or folders (repeatable). Entries of other
    /// problems cannot be replayed, so they are skipped (and counted).
    #[arg(short = 'f', long = "file", required = true, value_name = "PROBLEM")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub phrases: crate::cli::PhraseArgs,
}

/// Arguments of `hextris store export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// The store folder.
    #[arg(value_name = "DIR")]
    pub store: PathBuf,
    /// The problems to export: files or folders (repeatable).
    #[arg(short = 'f', long = "file", required = true, value_name = "PROBLEM")]
    pub files: Vec<PathBuf>,
    /// Write the list to this file (atomically) instead of stdout.
    #[arg(short = 'o', long = "out")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub phrases: crate::cli::PhraseArgs,
}

/// Arguments of `hextris store report`.
#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// The store folder.
    #[arg(value_name = "DIR")]
    pub store: PathBuf,
    /// The problems to report: files or folders (repeatable). Entries of other problems are
    /// skipped (and counted).
    #[arg(short = 'f', long = "file", required = true, value_name = "PROBLEM")]
    pub files: Vec<PathBuf>,
    /// Scores to compare with: a JSON map from problem id to score (a leaderboard), or the
    /// output of an earlier `store report --json`. Problems below their reference are marked.
    #[arg(long, value_name = "FILE")]
    pub against: Option<PathBuf>,
    /// Print the report as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Also write a self-contained web page (atomically): the table, sortable, the total and
    /// each problem's score against time, the share of power, and every problem's replay.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    #[command(flatten)]
    pub phrases: crate::cli::PhraseArgs,
}

/// Runs a `hextris store` subcommand.
pub fn run(cmd: StoreCommand) -> Result<()> {
    match cmd {
        StoreCommand::Merge(a) => merge(a),
        StoreCommand::Export(a) => export(a),
        StoreCommand::Report(a) => report(a),
        StoreCommand::Respell(a) => respell::respell(a),
    }
}

/// Loads the problems of `-f`, each once.
pub(super) fn problems(files: &[PathBuf]) -> Result<Vec<Problem>> {
    let mut seen = std::collections::HashSet::new();
    Ok(load_problems(files)?
        .into_iter()
        .map(|(_, p)| p)
        .filter(|p| seen.insert(p.id))
        .collect())
}

/// Opens a store that must exist (a source is never created).
pub(crate) fn existing(dir: &Path) -> Result<Store> {
    if !dir.is_dir() {
        return Err(Error::invalid(dir, "no such store folder"));
    }
    Store::open(dir)
}

/// An entry that is not sound, read from `file`, as the line that refuses it.
pub(super) fn refusal(file: &Path, e: &Entry, why: impl std::fmt::Display) -> String {
    format!(
        "{}: problem {} seed {}: refused: {why}",
        file.display(),
        e.problem_id,
        e.seed
    )
}

/// What one merge did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeReport {
    /// Per problem id (in the order of the problems): entries new, better and kept in the
    /// target.
    pub problems: Vec<(i64, usize, usize, usize)>,
    /// One line per refused entry.
    pub refused: Vec<String>,
    /// Entries of problems not given, skipped.
    pub skipped: usize,
    /// The target's total over the problems before and after.
    pub before: u64,
    pub after: u64,
}

/// Merges the sound entries of `sources` into `into`, for `problems` under `phrases`. Every
/// source is read (and checked) before anything is written, so a source that cannot be read
/// leaves the target as it was.
pub fn merge_stores(
    sources: &[Store],
    into: &Store,
    problems: &[Problem],
    phrases: &Phrases,
) -> Result<MergeReport> {
    let by_id: HashMap<i64, &Problem> = problems.iter().map(|p| (p.id, p)).collect();
    let refs: Vec<&Problem> = problems.iter().collect();
    let mut report = MergeReport {
        before: into.scores(&refs, phrases)?.total(&refs),
        ..Default::default()
    };
    // The best sound entry per (problem, seed) across the sources; the first source wins ties.
    let mut best: HashMap<(i64, u32), (u64, Entry)> = HashMap::new();
    for src in sources {
        for (file, e) in src.all_by_file()? {
            let Some(p) = by_id.get(&e.problem_id) else {
                report.skipped += 1;
                continue;
            };
            match verify(p, phrases, &e) {
                Err(why) => report.refused.push(refusal(&file, &e, why)),
                Ok(score) => {
                    let slot = best.entry((e.problem_id, e.seed)).or_insert((0, e.clone()));
                    if score > slot.0 {
                        *slot = (score, e);
                    }
                }
            }
        }
    }
    for p in problems {
        let mut offered: Vec<Entry> = p
            .distinct_seeds()
            .into_iter()
            .filter_map(|s| best.remove(&(p.id, s)).map(|(_, e)| e))
            .collect();
        offered.sort_by_key(|e| e.seed);
        if offered.is_empty() {
            continue;
        }
        let offers = into.offer_entries(p, phrases, &offered)?;
        let count = |f: fn(&Offer) -> bool| offers.iter().filter(|o| f(o)).count();
        report.problems.push((
            p.id,
            count(|o| matches!(o, Offer::New { .. })),
            count(|o| matches!(o, Offer::Better { .. })),
            count(|o| matches!(o, Offer::Kept { .. })),
        ));
    }
    report.after = into.scores(&refs, phrases)?.total(&refs);
    Ok(report)
}

fn merge(a: MergeArgs) -> Result<()> {
    let phrases = a.phrases.get()?;
    let problems = problems(&a.files)?;
    let sources: Vec<Store> = a
        .sources
        .iter()
        .map(|d| existing(d))
        .collect::<Result<_>>()?;
    let into = Store::open(&a.into)?;
    let r = merge_stores(&sources, &into, &problems, &phrases)?;
    for line in &r.refused {
        crate::note!("hextris store merge: {line}");
    }
    for (id, new, better, kept) in &r.problems {
        crate::note!("merge: problem {id}: {new} new, {better} better, {kept} kept");
    }
    if r.skipped > 0 {
        crate::note!(
            "merge: {} entries of problems not given with -f were skipped",
            r.skipped
        );
    }
    crate::note!(
        "merge: {}: total {} (was {})",
        a.into.display(),
        r.after,
        r.before
    );
    refused_is_an_error(r.refused.len())
}

pub(super) fn refused_is_an_error(refused: usize) -> Result<()> {
    if refused == 0 {
        Ok(())
    } else {
        Err(Error::Usage(format!(
            "{refused} entr{} refused (see above); the others were kept",
            if refused == 1 { "y was" } else { "ies were" }
        )))
    }
}

/// The export of a store.
#[derive(Clone, Debug, Default)]
pub struct Export {
    /// The contest's list, problems in the order given, seeds in each problem's order.
    pub list: Vec<Solution>,
    /// One line per refused entry.
    pub refused: Vec<String>,
    /// The (problem, seed) pairs without a sound entry.
    pub missing: Vec<(i64, u32)>,
}

/// The export of a store: the best sound entry of every seed of `problems`.
pub fn export_store(store: &Store, problems: &[Problem], phrases: &Phrases) -> Result<Export> {
    let mut list = Vec::new();
    let mut refused = Vec::new();
    let mut missing = Vec::new();
    for p in problems {
        let sorted = sort_entries(p, phrases, &store.entries(p.id)?);
        refused.extend(
            sorted
                .unsound
                .iter()
                .map(|(e, why)| refusal(&store.file(p.id), e, why)),
        );
        missing.extend(sorted.missing.iter().map(|&s| (p.id, s)));
        list.extend(sorted.best.into_iter().map(|(e, _)| Solution {
            problem_id: p.id,
            seed: e.seed,
            tag: Some(e.tag),
            solution: e.solution,
        }));
    }
    Ok(Export {
        list,
        refused,
        missing,
    })
}

fn export(a: ExportArgs) -> Result<()> {
    let phrases = a.phrases.get()?;
    let problems = problems(&a.files)?;
    let store = existing(&a.store)?;
    let Export {
        list,
        refused,
        missing,
    } = export_store(&store, &problems, &phrases)?;
    for line in &refused {
        crate::note!("hextris store export: {line}");
    }
    if !missing.is_empty() {
        // Name the first few; a store that has just begun may lack hundreds.
        const NAMED: usize = 20;
        let mut named: Vec<String> = missing
            .iter()
            .take(NAMED)
            .map(|(p, s)| format!("problem {p} seed {s}"))
            .collect();
        if missing.len() > NAMED {
            named.push(format!("and {} more", missing.len() - NAMED));
        }
        crate::note!(
            "export: no entry for {} seed(s): {}",
            missing.len(),
            named.join(", ")
        );
    }
    crate::note!("export: {} entries", list.len());
    let json = solutions_to_json(&list);
    match &a.out {
        Some(path) => write_atomic(path, json.as_bytes())?,
        None => print!("{json}"),
    }
    refused_is_an_error(refused.len())
}

fn report(a: ReportArgs) -> Result<()> {
    let phrases = a.phrases.get()?;
    let problems = problems(&a.files)?;
    let store = existing(&a.store)?;
    let references = a.against.as_deref().map(read_references).transpose()?;
    let r = store_report(&store, &problems, &phrases, references.as_ref())?;
    if let Some(path) = &a.html {
        write_report_page(path, &r, &problems, &phrases, &a.store)?;
    }
    if r.skipped > 0 {
        crate::note!(
            "store report: {} entries of problems not given with -f were skipped",
            r.skipped
        );
    }
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&r).expect("plain data serialises")
        );
    } else {
        print!("{}", report_table(&r, &store));
    }
    Ok(())
}

/// Writes the report's page at `path` and the replay pages in the folder beside it named after
/// it (`report.html`, `report_replays/`), each atomically, the report last: a page never links to
/// a replay not yet written.
fn write_report_page(
    path: &Path,
    r: &Report,
    problems: &[Problem],
    phrases: &Phrases,
    store: &Path,
) -> Result<()> {
    use crate::view::report::{render, replay_file, replay_page};
    let stem = path
        .file_stem()
        .map_or("report".into(), |s| s.to_string_lossy().to_string());
    let folder = format!("{stem}_replays");
    let parent = path.parent().unwrap_or(Path::new(""));
    if !(parent.as_os_str().is_empty() || parent.is_dir()) || path.is_dir() {
        return Err(Error::invalid(
            path,
            "cannot write the page there (no such folder, or a folder)",
        ));
    }
    let dir = parent.join(&folder);
    std::fs::create_dir_all(&dir).map_err(|source| Error::Io {
        path: dir.clone(),
        source,
    })?;
    let name = store.display().to_string();
    let mut bytes = 0;
    for (row, p) in r.problems.iter().zip(problems) {
        if let Some(page) = replay_page(row, p, phrases, &name) {
            bytes += page.len();
            write_atomic(&dir.join(replay_file(p.id)), page.as_bytes())?;
        }
    }
    let title = format!("hextris · store report · {name}");
    let page = render(r, &title, Some(&folder));
    write_atomic(path, page.as_bytes())?;
    crate::note!(
        "store report: wrote {} ({} bytes) and its replays in {} ({bytes} bytes)",
        path.display(),
        page.len(),
        dir.display()
    );
    Ok(())
}

/// The report as a text table: a row per problem, the total last, then the entries that do not
/// count, each on a line naming its file.
pub fn report_table(r: &Report, store: &Store) -> String {
    use std::fmt::Write;
    let against = r.reference.is_some();
    let mut out = format!(
        "{:>7} {:>6} {:>5} {:>8} {:>8} {:>8}  {:<16} {:>7}",
        "problem", "seeds", "held", "score", "move", "power", "latest", "unsound"
    );
    if against {
        let _ = write!(out, " {:>8} {:>14}", "against", "difference");
    }
    out.push('\n');
    for p in &r.problems {
        out.push_str(&table_line(&p.problem_id.to_string(), p, against));
    }
    // The total as a row of its own, so that it reads in the same columns.
    let total = r.total_row();
    out.push_str(&table_line("total", &total, against));
    for p in &r.problems {
        for u in &p.unsound {
            let _ = writeln!(
                out,
                "{}: problem {} seed {}: not counted: {}",
                store.file(p.problem_id).display(),
                p.problem_id,
                u.seed,
                u.why
            );
        }
    }
    out
}

/// One line of the table; a problem below its reference says so after its difference.
fn table_line(name: &str, p: &ProblemRow, against: bool) -> String {
    // The time to the minute is enough to tell a night's runs apart.
    let latest = p.latest.as_deref().map_or("-".to_string(), |t| {
        t.chars().take(16).collect::<String>().replace('T', " ")
    });
    let mut line = format!(
        "{name:>7} {:>6} {:>5} {:>8} {:>8} {:>8}  {latest:<16} {:>7}",
        p.seeds,
        p.held,
        p.score,
        p.move_score,
        p.power_score,
        p.unsound.len()
    );
    if against {
        let (reference, difference) = match (p.reference, p.difference) {
            (Some(r), Some(d)) if d < 0 => (r.to_string(), format!("{d:+} below")),
            (Some(r), Some(d)) => (r.to_string(), format!("{d:+}")),
            _ => ("-".into(), "-".into()),
        };
        line.push_str(&format!(" {reference:>8} {difference:>14}"));
    }
    line.push('\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::report::UnsoundEntry;

    #[test]
    fn the_table_marks_the_problems_below_their_reference_and_names_what_does_not_count() {
        let row = |id: i64, score: u64, reference: u64| ProblemRow {
            problem_id: id,
            seeds: 1,
            held: 1,
            score,
            move_score: 1,
            power_score: score - 1,
            latest: Some("2026-11-27T00:14:05Z".into()),
            reference: Some(reference),
            difference: Some(score as i64 - reference as i64),
            unsound: Vec::new(),
            history: Vec::new(),
            entries: Vec::new(),
        };
        let mut below = row(5, 10, 30);
        below.unsound.push(UnsoundEntry {
            seed: 0,
            tag: String::new(),
            found: String::new(),
            why: "its recorded score is 9".into(),
        });
        let r = Report {
            problems: vec![row(4, 50, 20), below],
            total: 60,
            move_total: 2,
            power_total: 58,
            reference: Some(50),
            difference: Some(10),
            history: Vec::new(),
            skipped: 0,
        };
        let dir = std::env::temp_dir().join(format!("hextris-table-{}", std::process::id()));
        let table = report_table(&r, &Store::open(&dir).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
        let lines: Vec<&str> = table.lines().collect();
        assert!(lines[1].ends_with(" +30"), "{table}");
        assert!(lines[2].ends_with(" -20 below"), "{table}");
        assert!(lines[2].contains("2026-11-27 00:14"), "{table}");
        assert!(
            lines[3].starts_with("  total ") && lines[3].ends_with(" +10"),
            "{table}"
        );
        let file = dir.join("problem_5.json");
        assert_eq!(
            lines[4],
            format!(
                "{}: problem 5 seed 0: not counted: its recorded score is 9",
                file.display()
            )
        );
    }

    #[test]
    fn a_refused_entry_is_named_by_the_file_it_was_read_from() {
        let dir = std::env::temp_dir().join(format!("hextris-merge-file-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let problem = |id| {
            Problem::from_json(
                &format!(
                    r#"{{"id":{id},"width":5,"height":5,"filled":[],"sourceLength":3,
                    "sourceSeeds":[0],"units":[{{"members":[{{"x":0,"y":0}}],"pivot":{{"x":0,"y":0}}}}]}}"#
                ),
                Path::new("p"),
            )
            .unwrap()
        };
        let (src, into) = (Store::open(&dir.join("src")).unwrap(), dir.join("into"));
        // An entry edited into problem 7's file that claims problem 8 and does not replay there
        // ("bp" repeats a position): the line that refuses it names the file that holds it.
        let entry = r#"[{"problemId":8,"seed":0,"tag":"t","solution":"bp","score":0,
            "found":"2015-08-08T00:00:00Z"}]"#;
        std::fs::write(src.file(7), entry).unwrap();
        let problems = [problem(7), problem(8)];
        let r = merge_stores(
            std::slice::from_ref(&src),
            &Store::open(&into).unwrap(),
            &problems,
            &Phrases::official(),
        )
        .unwrap();
        assert_eq!(r.refused.len(), 1);
        let file = src.file(7).display().to_string();
        assert!(r.refused[0].starts_with(&file), "{}", r.refused[0]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
