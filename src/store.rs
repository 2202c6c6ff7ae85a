//! The best-solutions store: a folder with one JSON file per problem (`problem_<id>.json`), each
//! a list of entries `{problemId, seed, tag, solution, score, found}` sorted by seed, holding the
//! best solution found so far for each seed of that problem.
//!
//! A run offers its answers; an entry is replaced only by a strictly better one (or, when the
//! entry is not sound, by a sound one as good). Scores are never trusted from the file: the
//! stored solution is scored again, with the run's phrases, before it is compared, so an entry
//! scored under other phrases (or edited by hand) cannot block a better answer.
//!
//! Files are written atomically (a temporary file, then a rename), so an interrupted run leaves
//! every file either as it was or fully updated, and a reader (another run, `hextris store merge`
//! reading this store as a source) always sees a whole file. Writers on one machine take an
//! exclusive lock on the folder for each read-modify-write, so several processes may offer to the
//! same store at once without losing an improvement (the lock is advisory, `flock`; on a network
//! file system it may not hold between machines: give each machine its own store and merge them).
//!
//! An entry is *sound* for a problem when its solution replays without error under the given
//! phrases and scores exactly its recorded score ([`verify`]); merging and exporting keep only
//! sound entries, so a tampered or corrupted entry cannot travel from one store to another.

pub mod report;

use crate::engine::{problem_score, replay, Evaluation, Phrases, Problem};
use crate::error::{Error, Result};
use crate::io::{read_text, write_atomic, Solution};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One stored solution.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub problem_id: i64,
    pub seed: u32,
    pub tag: String,
    pub solution: String,
    /// Its score when it was stored.
    pub score: u64,
    /// When it was found, as an ISO 8601 UTC timestamp.
    pub found: String,
}

/// What offering one answer did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Offer {
    /// There was no entry for the seed.
    New { score: u64 },
    /// The answer beat the entry.
    Better { old: u64, new: u64 },
    /// The entry was as good or better; it stays.
    Kept { stored: u64 },
}

/// A store folder.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
}

impl Store {
    /// Opens (creating it if needed) a store folder.
    pub fn open(dir: &Path) -> Result<Store> {
        std::fs::create_dir_all(dir).map_err(|source| Error::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        Ok(Store {
            dir: dir.to_path_buf(),
        })
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of a problem's entries.
    pub fn file(&self, problem_id: i64) -> PathBuf {
        self.dir.join(format!("problem_{problem_id}.json"))
    }

    /// The entries of one problem (none if it has no file yet).
    pub fn entries(&self, problem_id: i64) -> Result<Vec<Entry>> {
        let path = self.file(problem_id);
        if !path.exists() {
            return Ok(Vec::new());
        }
        parse(&path)
    }

    /// Every entry of the store, problem files in natural order.
    pub fn all(&self) -> Result<Vec<Entry>> {
        Ok(self.all_by_file()?.into_iter().map(|(_, e)| e).collect())
    }

    /// Every entry of the store with the file it was read from (which an edited entry's
    /// `problemId` need not name), problem files in natural order.
    pub fn all_by_file(&self) -> Result<Vec<(PathBuf, Entry)>> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&self.dir)
            .map_err(|source| Error::Io {
                path: self.dir.clone(),
                source,
            })?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension().is_some_and(|x| x == "json")
                    && p.file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with("problem_"))
            })
            .collect();
        files.sort_by(|a, b| crate::io::natural_cmp(&a.to_string_lossy(), &b.to_string_lossy()));
        let mut out = Vec::new();
        for f in files {
            out.extend(parse(&f)?.into_iter().map(|e| (f.clone(), e)));
        }
        Ok(out)
    }

    /// Offers answers for seeds of `problem`, scored with `phrases`; writes the problem's file
    /// (atomically) if anything improved. Returns what happened to each answer, in order.
    pub fn offer(
        &self,
        problem: &Problem,
        phrases: &Phrases,
        answers: &[Solution],
    ) -> Result<Vec<Offer>> {
        let now = timestamp(std::time::SystemTime::now());
        let entries: Vec<Entry> = answers
            .iter()
            .map(|a| Entry {
                problem_id: problem.id,
                seed: a.seed,
                tag: a.tag.clone().unwrap_or_default(),
                solution: a.solution.clone(),
                score: 0,
                found: now.clone(),
            })
            .collect();
        self.offer_entries(problem, phrases, &entries)
    }

    /// Offers entries (from another store: their tag and time of finding are kept, their score
    /// is computed again) for seeds of `problem`, as [`Store::offer`] does.
    pub fn offer_entries(
        &self,
        problem: &Problem,
        phrases: &Phrases,
        offered: &[Entry],
    ) -> Result<Vec<Offer>> {
        let _lock = self.lock()?;
        let mut entries = self.entries(problem.id)?;
        let mut changed = false;
        let mut out = Vec::with_capacity(offered.len());
        for a in offered {
            let new = replay(problem, a.seed, &a.solution, phrases);
            if new.end.is_error() {
                // Never store an answer the evaluator rejects; report it as kept.
                out.push(Offer::Kept { stored: 0 });
                continue;
            }
            let entry = Entry {
                problem_id: problem.id,
                score: new.score,
                ..a.clone()
            };
            match entries.iter_mut().find(|e| e.seed == a.seed) {
                None => {
                    out.push(Offer::New { score: new.score });
                    entries.push(entry);
                    changed = true;
                }
                Some(e) => {
                    let old = replay(problem, e.seed, &e.solution, phrases);
                    let old_score = if old.end.is_error() { 0 } else { old.score };
                    // A stored entry that errs or records another score than it makes (other
                    // phrases, or tampered) gives way to a sound one that scores as much.
                    let unsound = old.end.is_error() || old.score != e.score;
                    if new.score > old_score || (unsound && new.score == old_score) {
                        out.push(Offer::Better {
                            old: old_score,
                            new: new.score,
                        });
                        *e = entry;
                        changed = true;
                    } else {
                        out.push(Offer::Kept { stored: old_score });
                    }
                }
            }
        }
        if changed {
            entries.sort_by_key(|e| e.seed);
            let mut text = String::from("[\n");
            for (i, e) in entries.iter().enumerate() {
                if i > 0 {
                    text.push_str(",\n");
                }
                text.push_str(&serde_json::to_string(e).expect("plain data serialises"));
            }
            text.push_str("\n]\n");
            write_atomic(&self.file(problem.id), text.as_bytes())?;
        }
        Ok(out)
    }

    /// Takes the folder's write lock: an exclusive `flock` on the folder itself (so that no lock
    /// file lies in the store), released when the returned handle is dropped.
    fn lock(&self) -> Result<std::fs::File> {
        let io = |source| Error::Io {
            path: self.dir.clone(),
            source,
        };
        let dir = std::fs::File::open(&self.dir).map_err(io)?;
        dir.lock().map_err(io)?;
        Ok(dir)
    }

    /// The best score the store holds for each (problem, seed) of `problems`, each entry
    /// scored again with `phrases` (an entry that errs counts for nothing).
    pub fn scores(&self, problems: &[&Problem], phrases: &Phrases) -> Result<Scores> {
        let mut scores = Scores::default();
        for p in problems {
            for e in self.entries(p.id)? {
                let ev = replay(p, e.seed, &e.solution, phrases);
                if !ev.end.is_error() {
                    scores.raise(p.id, e.seed, ev.score);
                }
            }
        }
        Ok(scores)
    }
}

/// Best known scores per (problem id, seed).
#[derive(Clone, Debug, Default)]
pub struct Scores(HashMap<(i64, u32), u64>);

impl Scores {
    /// Records a score for a seed; keeps the higher one.
    pub fn raise(&mut self, problem_id: i64, seed: u32, score: u64) {
        let s = self.0.entry((problem_id, seed)).or_insert(0);
        *s = (*s).max(score);
    }

    /// The score of a seed, if it has one.
    pub fn get(&self, problem_id: i64, seed: u32) -> Option<u64> {
        self.0.get(&(problem_id, seed)).copied()
    }

    /// The official total over `problems`: per problem, the sum of its seeds' scores over the
    /// number of seeds it lists (a seed without a score counts 0).
    pub fn total(&self, problems: &[&Problem]) -> u64 {
        problems
            .iter()
            .map(|p| problem_score(p, |s| self.0.get(&(p.id, s)).copied().unwrap_or(0)))
            .sum()
    }
}

/// Why an entry is not sound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unsound {
    /// The evaluator rejects the solution (how, as the evaluator says it).
    Errs(String),
    /// It replays, but its score is not the recorded one.
    WrongScore { recorded: u64, actual: u64 },
}

impl std::fmt::Display for Unsound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unsound::Errs(how) => write!(f, "the solution does not replay ({how})"),
            Unsound::WrongScore { recorded, actual } => write!(
                f,
                "its recorded score is {recorded}, but the solution scores {actual} (other \
                 phrases, or an edited entry)"
            ),
        }
    }
}

/// Checks that an entry of `problem` replays without error and scores its recorded score.
pub fn verify(problem: &Problem, phrases: &Phrases, e: &Entry) -> Result<u64, Unsound> {
    replay_sound(problem, phrases, e).map(|ev| ev.score)
}

/// [`verify`], returning the whole evaluation (its move and power parts too) of a sound entry.
pub fn replay_sound(
    problem: &Problem,
    phrases: &Phrases,
    e: &Entry,
) -> Result<Evaluation, Unsound> {
    let ev = replay(problem, e.seed, &e.solution, phrases);
    if ev.end.is_error() {
        return Err(Unsound::Errs(ev.end.to_string()));
    }
    if ev.score != e.score {
        return Err(Unsound::WrongScore {
            recorded: e.score,
            actual: ev.score,
        });
    }
    Ok(ev)
}

/// The entries of one problem sorted out: the best sound one of each seed, and the others.
#[derive(Clone, Debug, Default)]
pub struct Sorted {
    /// Per seed of the problem that has a sound entry (in the problem's order of seeds), the
    /// best one and its evaluation.
    pub best: Vec<(Entry, Evaluation)>,
    /// The entries that are not sound, with why.
    pub unsound: Vec<(Entry, Unsound)>,
    /// The seeds of the problem without a sound entry.
    pub missing: Vec<u32>,
}

/// Sorts the `entries` of `problem` (as read from its file) under `phrases`. A store file holds
/// one entry per seed; should an edited one hold more, the best sound one counts.
pub fn sort_entries(problem: &Problem, phrases: &Phrases, entries: &[Entry]) -> Sorted {
    let mut out = Sorted::default();
    let seeds = problem.distinct_seeds();
    let mut best: Vec<Option<(Entry, Evaluation)>> = vec![None; seeds.len()];
    for e in entries {
        match replay_sound(problem, phrases, e) {
            Err(why) => out.unsound.push((e.clone(), why)),
            Ok(ev) => {
                // A sound entry replays, so its seed is one of the problem's.
                let k = seeds
                    .iter()
                    .position(|&s| s == e.seed)
                    .expect("a sound seed");
                if best[k].as_ref().is_none_or(|(_, b)| ev.score > b.score) {
                    best[k] = Some((e.clone(), ev));
                }
            }
        }
    }
    for (seed, b) in seeds.into_iter().zip(best) {
        match b {
            Some(b) => out.best.push(b),
            None => out.missing.push(seed),
        }
    }
    out
}

fn parse(path: &Path) -> Result<Vec<Entry>> {
    let text = read_text(path)?;
    serde_json::from_str(&text).map_err(|source| Error::Json {
        path: path.to_path_buf(),
        source,
    })
}

/// The entries as the contest's solution list.
pub fn as_solutions(entries: &[Entry]) -> Vec<Solution> {
    entries
        .iter()
        .map(|e| Solution {
            problem_id: e.problem_id,
            seed: e.seed,
            tag: Some(e.tag.clone()),
            solution: e.solution.clone(),
        })
        .collect()
}

/// An ISO 8601 UTC timestamp (seconds) of a system time.
pub fn timestamp(t: std::time::SystemTime) -> String {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_civil_dates() {
        let t = |s: u64| timestamp(std::time::UNIX_EPOCH + std::time::Duration::from_secs(s));
        assert_eq!(t(0), "1970-01-01T00:00:00Z");
        assert_eq!(t(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(t(1_438_992_000), "2015-08-08T00:00:00Z");
        assert_eq!(t(1_795_000_000 + 3661), "2026-11-18T12:07:41Z");
    }

    #[test]
    fn only_better_answers_replace_entries() {
        let dir = std::env::temp_dir().join(format!("hextris-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&dir).unwrap();
        let p = Problem::from_json(
            r#"{"id":7,"width":5,"height":5,"filled":[],"sourceLength":3,"sourceSeeds":[0,1],
            "units":[{"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}}]}"#,
            Path::new("p"),
        )
        .unwrap();
        let ph = Phrases::official();
        let sol = |seed, s: &str| Solution {
            problem_id: 7,
            seed,
            tag: Some(s.into()),
            solution: s.into(),
        };
        let o = store.offer(&p, &ph, &[sol(0, "ei!"), sol(1, "")]).unwrap();
        assert_eq!(o, vec![Offer::New { score: 306 }, Offer::New { score: 0 }]);
        // Worse, equal, erroneous: kept. Better: replaced.
        let o = store
            .offer(&p, &ph, &[sol(0, "l"), sol(1, ""), sol(1, "bp")])
            .unwrap();
        assert_eq!(
            o,
            vec![
                Offer::Kept { stored: 306 },
                Offer::Kept { stored: 0 },
                Offer::Kept { stored: 0 }
            ]
        );
        let o = store.offer(&p, &ph, &[sol(0, "ei!llll")]).unwrap();
        assert!(matches!(o[0], Offer::Better { old: 306, new } if new > 306));
        let all = store.all().unwrap();
        assert_eq!(
            all.iter()
                .map(|e| (e.seed, e.solution.as_str()))
                .collect::<Vec<_>>(),
            vec![(0, "ei!llll"), (1, "")]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn tiny() -> Problem {
        Problem::from_json(
            r#"{"id":7,"width":5,"height":5,"filled":[],"sourceLength":3,"sourceSeeds":[0,1,2,3,4,5,6,7],
            "units":[{"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}}]}"#,
            Path::new("p"),
        )
        .unwrap()
    }

    fn entry(seed: u32, solution: &str, score: u64) -> Entry {
        Entry {
            problem_id: 7,
            seed,
            tag: format!("t{seed}"),
            solution: solution.into(),
            score,
            found: "2015-08-08T00:00:00Z".into(),
        }
    }

    #[test]
    fn sound_entries_replay_and_score_as_recorded() {
        let (p, ph) = (tiny(), Phrases::official());
        assert_eq!(verify(&p, &ph, &entry(0, "ei!", 306)), Ok(306));
        assert_eq!(
            verify(&p, &ph, &entry(0, "ei!", 307)),
            Err(Unsound::WrongScore {
                recorded: 307,
                actual: 306
            })
        );
        // "bp" repeats a position; seed 9 is not the problem's.
        assert!(matches!(
            verify(&p, &ph, &entry(0, "bp", 0)),
            Err(Unsound::Errs(_))
        ));
        assert!(matches!(
            verify(&p, &ph, &entry(9, "", 0)),
            Err(Unsound::Errs(_))
        ));
        // Other phrases give another score: the entry is not sound under them.
        let other = Phrases::new(["ei!".to_string(), "ia! ia!".to_string()]);
        assert!(verify(&p, &other, &entry(0, "ei!", 306)).is_ok());
        assert!(verify(
            &p,
            &Phrases::new(["yuggoth".to_string()]),
            &entry(0, "ei!", 306)
        )
        .is_err());
    }

    #[test]
    fn offered_entries_keep_their_tag_and_time_and_totals_follow_the_rules() {
        let dir = std::env::temp_dir().join(format!("hextris-store-e-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&dir).unwrap();
        let (p, ph) = (tiny(), Phrases::official());
        // A wrong recorded score is not trusted: the entry is scored again.
        let o = store
            .offer_entries(&p, &ph, &[entry(1, "ei!", 5), entry(2, "bp", 0)])
            .unwrap();
        assert_eq!(
            o,
            vec![Offer::New { score: 306 }, Offer::Kept { stored: 0 }]
        );
        assert_eq!(store.entries(7).unwrap(), vec![entry(1, "ei!", 306)]);
        let scores = store.scores(&[&p], &ph).unwrap();
        // One seed of eight scores 306: the problem scores 306 / 8.
        assert_eq!(scores.total(&[&p]), 306 / 8);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn writers_at_once_lose_no_entry() {
        let dir = std::env::temp_dir().join(format!("hextris-store-l-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let p = tiny();
        let ph = Phrases::official();
        std::thread::scope(|s| {
            for seed in 0..8u32 {
                let (dir, p, ph) = (&dir, &p, &ph);
                s.spawn(move || {
                    // Each writer opens the store on its own, as another process would, and
                    // improves its seed step by step.
                    let store = Store::open(dir).unwrap();
                    for n in 0..20 {
                        let text = format!("ei!{}", "l".repeat(n));
                        let e = Entry {
                            seed,
                            ..entry(seed, &text, 0)
                        };
                        store.offer_entries(p, ph, &[e]).unwrap();
                    }
                });
            }
        });
        let all = Store::open(&dir).unwrap().all().unwrap();
        assert_eq!(
            all.iter().map(|e| e.seed).collect::<Vec<_>>(),
            (0..8).collect::<Vec<_>>()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
