//! `hextris store respell`: every stored game spelt again by this build's character encoder, kept
//! where it scores more.
//!
//! A store keeps each seed's best game as its text, and `solve --store` starts from it, but a
//! game whose tag says the character encoder spelt it is never spelt again: a run cannot tell
//! which version of the encoder did. After an upgrade that spells better, this command finds out:
//! each seed's best sound entry is read back into its plan (the placements its text locks), the
//! plan spelt anew, and the new text offered to the store, which takes it only where it scores
//! more ([`Store::offer`]: under the store's lock, each file written atomically). The plans are
//! the stored ones, so a respelt game places every unit where the stored one did.

use crate::encode::{CharStats, CharTables, Encoder, PhraseTable};
use crate::engine::{replay, Phrases, Problem};
use crate::error::Result;
use crate::io::Solution;
use crate::plan::{plan_of_text, Tables};
use crate::store::{sort_entries, Offer, Store};
use crate::work::Limit;
use rayon::prelude::*;
use std::path::PathBuf;

/// Arguments of `hextris store respell`.
#[derive(Debug, clap::Args)]
pub struct RespellArgs {
    /// The store folder.
    #[arg(value_name = "DIR")]
    pub store: PathBuf,
    /// The problems whose entries are spelt again: files or folders (repeatable).
    #[arg(short = 'f', long = "file", required = true, value_name = "PROBLEM")]
    pub files: Vec<PathBuf>,
    /// Worker threads (default: all cores); the games are spelt one per thread.
    #[arg(short = 'c', long = "threads",
        value_parser = crate::cli::args::between::<usize>(1, crate::cli::args::MAX_THREADS))]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub phrases: crate::cli::PhraseArgs,
}

/// What one respell did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RespellReport {
    /// Per problem id (in the order of the problems): the entries spelt again, and how many of
    /// them the store took.
    pub problems: Vec<(i64, usize, usize)>,
    /// One line per entry that is not sound (refused: left as it is).
    pub refused: Vec<String>,
    /// The store's total over the problems before and after.
    pub before: u64,
    pub after: u64,
}

/// The tag of a game respelt from one tagged `tag`: the same game, now spelt by the character
/// encoder, which [`crate::encode::Mode::of_tag`] reads from its last word.
pub fn respelt_tag(tag: &str) -> String {
    const SUFFIX: &str = " respelt chars";
    let base = tag.strip_suffix(SUFFIX).unwrap_or(tag);
    let base = base.strip_suffix(" (stored)").unwrap_or(base);
    format!("{base}{SUFFIX}")
}

/// Spells again the best sound entry of every seed of `problems` in `store` under `phrases`,
/// and offers the texts that score more to the store.
pub fn respell_store(
    store: &Store,
    problems: &[Problem],
    phrases: &Phrases,
) -> Result<RespellReport> {
    let refs: Vec<&Problem> = problems.iter().collect();
    let mut report = RespellReport {
        before: store.scores(&refs, phrases)?.total(&refs),
        ..Default::default()
    };
    let table = PhraseTable::new(phrases);
    for p in problems {
        let sorted = sort_entries(p, phrases, &store.entries(p.id)?);
        report.refused.extend(
            sorted
                .unsound
                .iter()
                .map(|(e, why)| super::refusal(&store.file(p.id), e, why)),
        );
        if sorted.best.is_empty() {
            continue;
        }
        let tables = Tables::new(p);
        let encoder = Encoder::new(p, &tables, &table);
        let ct = CharTables::new(&table, &tables.spaces, p.width);
        let better: Vec<Solution> = sorted
            .best
            .par_iter()
            .filter_map(|(e, ev)| {
                let plan = plan_of_text(p, &tables, e.seed, &e.solution)?;
                let mut stats = CharStats::default();
                let text = encoder.encode_chars(&ct, &plan, &Limit::NONE, &mut stats)?;
                let new = replay(p, e.seed, &text, phrases);
                (!new.end.is_error() && new.score > ev.score).then(|| Solution {
                    problem_id: p.id,
                    seed: e.seed,
                    tag: Some(respelt_tag(&e.tag)),
                    solution: text,
                })
            })
            .collect();
        let offers = store.offer(p, phrases, &better)?;
        let taken = offers
            .iter()
            .filter(|o| matches!(o, Offer::New { .. } | Offer::Better { .. }))
            .count();
        report.problems.push((p.id, sorted.best.len(), taken));
    }
    report.after = store.scores(&refs, phrases)?.total(&refs);
    Ok(report)
}

/// Runs `hextris store respell`.
pub fn respell(a: RespellArgs) -> Result<()> {
    let phrases = a.phrases.get()?;
    let problems = super::problems(&a.files)?;
    let store = super::existing(&a.store)?;
    let pool = crate::solve::pool::thread_pool(a.threads)?;
    let r = pool.install(|| respell_store(&store, &problems, &phrases))?;
    for line in &r.refused {
        crate::note!("hextris store respell: {line}");
    }
    for (id, spelt, taken) in &r.problems {
        crate::note!("respell: problem {id}: {spelt} spelt again, {taken} better");
    }
    crate::note!(
        "respell: {}: total {} (was {})",
        a.store.display(),
        r.after,
        r.before
    );
    super::refused_is_an_error(r.refused.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::test_util::{Setup, SAMPLES};
    use crate::encode::Mode;

    #[test]
    fn a_respelt_tag_says_chars_last_and_only_once() {
        let t = respelt_tag("hextris fill#19 w64 from 182 dp (stored)");
        assert_eq!(t, "hextris fill#19 w64 from 182 dp respelt chars");
        assert_eq!(Mode::of_tag(&t), Some(Mode::Chars));
        assert_eq!(respelt_tag(&t), t);
        assert_eq!(respelt_tag(""), " respelt chars");
    }

    /// A store of the sample problems' greedy games spelt by plain paths: respelt, every
    /// entry scores what the character encoder makes of its plan, the same locks; a
    /// second respell finds nothing better; an entry that does not replay is refused, named by
    /// its file, and left as it is.
    #[test]
    fn a_respell_keeps_the_plans_and_takes_only_better_texts() {
        let dir = std::env::temp_dir().join(format!("hextris-respell-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&dir).unwrap();
        let phrases = Phrases::official();
        let (mut problems, mut want) = (Vec::new(), Vec::new());
        for json in SAMPLES {
            let setup = Setup::new(json);
            let p = &setup.problem;
            let seed = p.seeds[0];
            let plan = setup.greedy_plan(seed);
            let plain = setup.encoder().encode(&plan, Mode::Plain, &Limit::NONE);
            let answer = Solution {
                problem_id: p.id,
                seed,
                tag: Some("hextris low#0 w1 plain".into()),
                solution: plain.clone(),
            };
            store.offer(p, &phrases, &[answer]).unwrap();
            // The plan as the store reads it back from the text (a symmetric unit's lock may
            // come back as another orientation of the same cells, which spells differently).
            let plan = plan_of_text(p, &setup.tables, seed, &plain).unwrap();
            let chars = setup
                .encoder()
                .encode_chars(
                    &setup.char_tables(),
                    &plan,
                    &Limit::NONE,
                    &mut CharStats::default(),
                )
                .unwrap();
            let (old, new) = (
                replay(p, seed, &plain, &phrases).score,
                replay(p, seed, &chars, &phrases).score,
            );
            assert!(new > old, "{}: chars {new}, plain {old}", p.id);
            want.push(new);
            problems.push(p.clone());
        }
        // An entry of another seed that does not replay (it repeats a position).
        let p0 = &problems[0];
        let bad = format!(
            r#"[{{"problemId":{},"seed":99,"tag":"t","solution":"bp","score":0,"found":"2015-08-08T00:00:00Z"}}]"#,
            p0.id
        );
        let good = std::fs::read_to_string(store.file(p0.id)).unwrap();
        let merged = format!("{},{}", good.trim_end().trim_end_matches(']'), &bad[1..]);
        std::fs::write(store.file(p0.id), merged).unwrap();
        let r = respell_store(&store, &problems, &phrases).unwrap();
        assert_eq!(r.refused.len(), 1, "{r:?}");
        let file = store.file(p0.id).display().to_string();
        assert!(r.refused[0].starts_with(&file), "{r:?}");
        assert!(r.refused[0].contains("seed 99: refused"), "{r:?}");
        assert!(r
            .problems
            .iter()
            .all(|&(_, spelt, taken)| spelt == 1 && taken == 1));
        assert!(r.after > r.before, "{r:?}");
        for (p, want) in problems.iter().zip(want) {
            let entries = store.entries(p.id).unwrap();
            let e = entries.iter().find(|e| e.seed == p.seeds[0]).unwrap();
            assert_eq!(e.tag, "hextris low#0 w1 plain respelt chars");
            assert_eq!(e.score, want);
            let tables = Tables::new(p);
            let stored = plan_of_text(p, &tables, e.seed, &e.solution).unwrap();
            let setup = Setup::new(SAMPLES[problems.iter().position(|q| q.id == p.id).unwrap()]);
            // The same cells locked, unit by unit (a symmetric unit's lock may be read back as
            // another orientation with the same cells).
            let cells = |plan: &crate::plan::Plan| -> Vec<_> {
                plan.placements
                    .iter()
                    .map(|q| (q.unit, q.lock.key))
                    .collect()
            };
            assert_eq!(cells(&stored), cells(&setup.greedy_plan(e.seed)));
        }
        let again = respell_store(&store, &problems, &phrases).unwrap();
        assert!(again.problems.iter().all(|&(_, _, taken)| taken == 0));
        assert_eq!(again.after, r.after);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
