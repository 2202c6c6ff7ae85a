//! What a store holds, at a glance (`hextris store report`): per problem, its seeds, the score
//! its best sound entries make (the mean over its seeds, as the contest scores a problem), the
//! move and power parts of that score, when it last improved, a reference score to compare with
//! (`--against`), and the total; and the total as it grew, rebuilt from the entries' `found`
//! times.
//!
//! Nothing is trusted from the files: every entry is replayed under the given phrases
//! ([`crate::store::sort_entries`]); one that is not sound is listed with why and counts for
//! nothing, so the report's total is what the store would submit ([`crate::store::Scores`] and
//! `hextris score --store` count the same entries when every one is sound).
//!
//! The history is a lower bound of what the store held: the store keeps only the best entry of
//! each seed, so a seed counts from the time its present entry was found, and the worse entries
//! it replaced (which counted before) are not known any more.

use super::{sort_entries, Entry, Store, Unsound};
use crate::engine::{problem_score, Phrases, Problem};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// A point of a history: a time (seconds since 1970, UTC) and the score as it stood then.
pub type Point = (i64, u64);

/// An entry that is not sound, as the report shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnsoundEntry {
    pub seed: u32,
    pub tag: String,
    pub found: String,
    /// Why it does not count.
    pub why: String,
}

/// One problem's row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProblemRow {
    #[serde(rename = "problemId")]
    pub problem_id: i64,
    /// The seeds the problem lists (duplicates included: the divisor of its score).
    pub seeds: usize,
    /// Its distinct seeds that have a sound entry.
    pub held: usize,
    /// The problem's score: the sum of its seeds' best sound scores over `seeds`, rounded down.
    pub score: u64,
    /// The move part of the score (the mean of the seeds' move scores, rounded down).
    pub move_score: u64,
    /// The power part: the score less the move part (so that the parts add up to the score).
    pub power_score: u64,
    /// When the latest of its counted entries was found (ISO 8601, UTC), if any counts.
    pub latest: Option<String>,
    /// The reference score of `--against`, if the file gives one for the problem.
    pub reference: Option<u64>,
    /// The score less the reference.
    pub difference: Option<i64>,
    /// The entries that do not count.
    pub unsound: Vec<UnsoundEntry>,
    /// The problem's score after each improvement, oldest first (see the module's doc).
    pub history: Vec<Point>,
    /// The entries counted, one per seed held (for the replays of a page; not in the JSON).
    #[serde(skip)]
    pub entries: Vec<Entry>,
}

/// The whole report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    pub problems: Vec<ProblemRow>,
    /// The sum of the problems' scores (and of their parts).
    pub total: u64,
    pub move_total: u64,
    pub power_total: u64,
    /// The sum of the references given, and the total less it.
    pub reference: Option<u64>,
    pub difference: Option<i64>,
    /// The total after each improvement, oldest first.
    pub history: Vec<Point>,
    /// Entries in the store's files of problems not given, which are not replayed.
    pub skipped: usize,
}

impl Report {
    /// The total as a row of the table (its `problem_id` is 0 and means nothing): the sums of
    /// the problems' seeds and scores, the latest time of all, every entry not counted, and the
    /// total's history.
    pub fn total_row(&self) -> ProblemRow {
        let rows = &self.problems;
        ProblemRow {
            problem_id: 0,
            seeds: rows.iter().map(|p| p.seeds).sum(),
            held: rows.iter().map(|p| p.held).sum(),
            score: self.total,
            move_score: self.move_total,
            power_score: self.power_total,
            latest: rows.iter().filter_map(|p| p.latest.clone()).max(),
            reference: self.reference,
            difference: self.difference,
            unsound: rows.iter().flat_map(|p| p.unsound.clone()).collect(),
            history: self.history.clone(),
            entries: Vec::new(),
        }
    }
}

/// Scores of reference per problem id (`--against`).
pub type References = BTreeMap<i64, u64>;

/// Reads `--against`: a JSON map from problem id to a score (`{"0": 12539, ...}`), or an
/// earlier `store report --json` (or `hextris score --json`), whose problems' scores are taken.
pub fn read_references(path: &Path) -> Result<References> {
    let text = crate::io::read_text(path)?;
    parse_references(&text).map_err(|why| Error::invalid(path, why))
}

/// [`read_references`] on the text of the file; the error says what is wrong with it.
pub fn parse_references(text: &str) -> std::result::Result<References, String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let obj = v.as_object().ok_or(
        "expected a JSON object: a map from problem id to score, or a `store report --json`",
    )?;
    let mut out = References::new();
    if let Some(problems) = obj.get("problems") {
        // A report: its problems' ids and scores.
        for (k, p) in problems
            .as_array()
            .ok_or("`problems` is not a list")?
            .iter()
            .enumerate()
        {
            let id = p["problemId"].as_i64();
            let score = p["score"].as_u64();
            match (id, score) {
                (Some(id), Some(score)) => out.insert(id, score),
                _ => return Err(format!("problems[{k}] has no problemId and score")),
            };
        }
        return Ok(out);
    }
    for (k, s) in obj {
        let id: i64 = k
            .trim()
            .parse()
            .map_err(|_| format!("the key {k:?} is not a problem id"))?;
        let score = s
            .as_u64()
            .ok_or_else(|| format!("the score of problem {id} is not a whole number: {s}"))?;
        out.insert(id, score);
    }
    Ok(out)
}

/// Seconds since 1970 of an ISO 8601 UTC time as the store writes it (`2015-08-08T00:00:00Z`,
/// [`super::timestamp`]); `None` for any other form.
pub fn parse_timestamp(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    let shape_ok = b.len() == 20
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b'T'
        && b[13] == b':'
        && b[16] == b':'
        && b[19] == b'Z';
    if !shape_ok {
        return None;
    }
    let num = |from: usize, to: usize| -> Option<i64> {
        s.get(from..to)
            .filter(|d| d.bytes().all(|c| c.is_ascii_digit()))?
            .parse()
            .ok()
    };
    let (y, m, d) = (num(0, 4)?, num(5, 7)?, num(8, 10)?);
    let (hh, mm, ss) = (num(11, 13)?, num(14, 16)?, num(17, 19)?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || hh > 23 || mm > 59 || ss > 60 {
        return None;
    }
    // Days from civil (Howard Hinnant's algorithm), the inverse of the store's timestamp.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days * 86_400 + hh * 3600 + mm * 60 + ss)
}

/// One counted entry's part in a history: when it arrived, its problem's index and its score.
#[derive(Clone, Copy, Debug)]
struct Arrival {
    time: i64,
    problem: usize,
    seed: u32,
    score: u64,
}

/// The score as it stood after each arrival, for `problems` (a point per distinct time): at
/// each time, every problem scores the seeds that have arrived by then. Entries whose time is
/// not known count from the first known time.
fn history(problems: &[&Problem], arrivals: &[Arrival]) -> Vec<Point> {
    let mut sorted = arrivals.to_vec();
    sorted.sort_by_key(|a| a.time);
    let mut scores: Vec<BTreeMap<u32, u64>> = vec![BTreeMap::new(); problems.len()];
    let mut parts: Vec<u64> = vec![0; problems.len()];
    let mut out: Vec<Point> = Vec::new();
    for a in &sorted {
        scores[a.problem].insert(a.seed, a.score);
        let p = problems[a.problem];
        parts[a.problem] = problem_score(p, |s| scores[a.problem].get(&s).copied().unwrap_or(0));
        let total = parts.iter().sum();
        match out.last_mut() {
            Some(last) if last.0 == a.time => last.1 = total,
            _ => out.push((a.time, total)),
        }
    }
    out
}

/// The report of `store` for `problems` under `phrases`, with `references` to compare with.
pub fn report(
    store: &Store,
    problems: &[Problem],
    phrases: &Phrases,
    references: Option<&References>,
) -> Result<Report> {
    let mut rows = Vec::with_capacity(problems.len());
    let mut arrivals = Vec::new();
    for (k, p) in problems.iter().enumerate() {
        let sorted = sort_entries(p, phrases, &store.entries(p.id)?);
        let counted: Vec<&Entry> = sorted.best.iter().map(|(e, _)| e).collect();
        let first_known = counted
            .iter()
            .filter_map(|e| parse_timestamp(&e.found))
            .min();
        let mine: Vec<Arrival> = sorted
            .best
            .iter()
            .map(|(e, ev)| Arrival {
                time: parse_timestamp(&e.found).or(first_known).unwrap_or(0),
                problem: k,
                seed: e.seed,
                score: ev.score,
            })
            .collect();
        let by_seed = |f: fn(&crate::engine::Evaluation) -> u64| {
            problem_score(p, |s| {
                sorted
                    .best
                    .iter()
                    .find(|(e, _)| e.seed == s)
                    .map_or(0, |(_, ev)| f(ev))
            })
        };
        let score = by_seed(|ev| ev.score);
        let move_score = by_seed(|ev| ev.move_score);
        let reference = references.and_then(|r| r.get(&p.id).copied());
        rows.push(ProblemRow {
            problem_id: p.id,
            seeds: p.seeds.len(),
            held: sorted.best.len(),
            score,
            move_score,
            power_score: score - move_score,
            latest: latest(&counted),
            reference,
            difference: reference.map(|r| score as i64 - r as i64),
            unsound: sorted.unsound.iter().map(unsound_entry).collect(),
            history: history(&[&problems[k]], &retarget(&mine)),
            entries: counted.into_iter().cloned().collect(),
        });
        arrivals.extend(mine);
    }
    let given: std::collections::HashSet<i64> = problems.iter().map(|p| p.id).collect();
    let skipped = store
        .all()?
        .iter()
        .filter(|e| !given.contains(&e.problem_id))
        .count();
    let refs: Vec<&Problem> = problems.iter().collect();
    let total: u64 = rows.iter().map(|r| r.score).sum();
    let reference = references.map(|_| rows.iter().filter_map(|r| r.reference).sum::<u64>());
    Ok(Report {
        total,
        move_total: rows.iter().map(|r| r.move_score).sum(),
        power_total: rows.iter().map(|r| r.power_score).sum(),
        reference,
        difference: reference.map(|r| total as i64 - r as i64),
        history: history(&refs, &arrivals),
        skipped,
        problems: rows,
    })
}

/// The arrivals of one problem, as the only problem of a history.
fn retarget(arrivals: &[Arrival]) -> Vec<Arrival> {
    arrivals
        .iter()
        .map(|a| Arrival { problem: 0, ..*a })
        .collect()
}

/// The latest `found` of the entries (times in the store's form compare as text).
fn latest(entries: &[&Entry]) -> Option<String> {
    entries.iter().map(|e| e.found.clone()).max()
}

fn unsound_entry((e, why): &(Entry, Unsound)) -> UnsoundEntry {
    UnsoundEntry {
        seed: e.seed,
        tag: e.tag.clone(),
        found: e.found.clone(),
        why: why.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::timestamp;

    fn problem(id: i64, seeds: &str) -> Problem {
        Problem::from_json(
            &format!(
                r#"{{"id":{id},"width":5,"height":5,"filled":[],"sourceLength":3,
                "sourceSeeds":[{seeds}],"units":[{{"members":[{{"x":0,"y":0}}],"pivot":{{"x":0,"y":0}}}}]}}"#
            ),
            Path::new("p"),
        )
        .unwrap()
    }

    fn entry(problem_id: i64, seed: u32, solution: &str, score: u64, found: &str) -> Entry {
        Entry {
            problem_id,
            seed,
            tag: format!("t{seed}"),
            solution: solution.into(),
            score,
            found: found.into(),
        }
    }

    #[test]
    fn timestamps_read_back_as_the_store_writes_them() {
        for secs in [
            0u64,
            951_782_400,
            1_438_992_000,
            1_795_003_661,
            4_102_444_799,
        ] {
            let t = timestamp(std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs));
            assert_eq!(parse_timestamp(&t), Some(secs as i64), "{t}");
        }
        for bad in [
            "",
            "2015-08-08",
            "2015-13-08T00:00:00Z",
            "2015-08-08T00:00:00",
            "x015-08-08T00:00:00Z",
        ] {
            assert_eq!(parse_timestamp(bad), None, "{bad}");
        }
    }

    #[test]
    fn references_are_read_from_a_map_or_a_report() {
        let map = parse_references(r#"{"0": 12539, "24": 306206}"#).unwrap();
        assert_eq!(map, References::from([(0, 12539), (24, 306_206)]));
        let report = r#"{"problems": [{"problemId": 3, "seeds": 5, "score": 77}], "total": 77}"#;
        assert_eq!(
            parse_references(report).unwrap(),
            References::from([(3, 77)])
        );
        for (bad, says) in [
            ("[1, 2]", "expected a JSON object"),
            ("{\"a\": 1}", "not a problem id"),
            ("{\"1\": -5}", "not a whole number"),
            ("{\"1\": 2.5}", "not a whole number"),
            ("{\"problems\": [{\"score\": 1}]}", "problems[0]"),
            ("{\"problems\": 3}", "not a list"),
            ("{", "not JSON"),
        ] {
            let e = parse_references(bad).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn the_history_is_the_total_as_each_entry_arrived() {
        // Problem 0 has two seeds (the mean of both), problem 1 one; two entries arrive at once.
        let (p0, p1) = (problem(0, "0,1"), problem(1, "0"));
        let a = |time, problem, seed, score| Arrival {
            time,
            problem,
            seed,
            score,
        };
        let arrivals = [
            a(30, 1, 0, 50),
            a(10, 0, 0, 100),
            a(20, 0, 1, 40),
            a(30, 0, 1, 60),
        ];
        // Problem 0's seed 1 arrives twice (in a test only: a store keeps one entry per seed).
        assert_eq!(
            history(&[&p0, &p1], &arrivals),
            vec![(10, 50), (20, 70), (30, 80 + 50)]
        );
        assert_eq!(history(&[&p0, &p1], &[]), vec![]);
    }

    #[test]
    fn unsound_entries_are_shown_and_never_counted() {
        let dir = std::env::temp_dir().join(format!("hextris-report-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (p, ph) = (problem(7, "0,1,2,3"), Phrases::official());
        let t = |h: u32| format!("2026-01-01T{h:02}:00:00Z");
        // Seed 0 sound; seed 1 records a score it does not make; seed 2 does not replay; an
        // entry of a problem not given is skipped.
        let entries = [
            entry(7, 0, "ei!", 306, &t(1)),
            entry(7, 1, "ei!", 999, &t(2)),
            entry(7, 2, "bp", 0, &t(3)),
            entry(7, 3, "ei!", 306, "some time"),
        ];
        std::fs::write(
            dir.join("problem_7.json"),
            serde_json::to_string(&entries).unwrap(),
        )
        .unwrap();
        std::fs::write(
            dir.join("problem_8.json"),
            serde_json::to_string(&[entry(8, 0, "", 0, &t(0))]).unwrap(),
        )
        .unwrap();
        let store = Store::open(&dir).unwrap();
        let refs = References::from([(7, 200), (9, 5)]);
        let r = report(&store, &[p], &ph, Some(&refs)).unwrap();
        let row = &r.problems[0];
        assert_eq!((row.seeds, row.held), (4, 2));
        assert_eq!(row.score, 2 * 306 / 4);
        assert_eq!(row.move_score + row.power_score, row.score);
        assert!(row.power_score >= 150, "{row:?}");
        assert_eq!(
            row.unsound.iter().map(|u| u.seed).collect::<Vec<_>>(),
            vec![1, 2]
        );
        assert!(row.unsound[0].why.contains("recorded score is 999"));
        assert!(row.unsound[1].why.contains("does not replay"));
        // The latest improvement is that of a counted entry, not of the unsound ones.
        assert_eq!(row.latest.as_deref(), Some("some time"));
        assert_eq!(
            (row.reference, row.difference),
            (Some(200), Some(153 - 200))
        );
        assert_eq!(
            (r.total, r.reference, r.difference),
            (153, Some(200), Some(-47))
        );
        assert_eq!(r.skipped, 1);
        // The entry of unknown time counts from the first known one.
        let t1 = parse_timestamp(&t(1)).unwrap();
        assert_eq!(r.history, vec![(t1, 153)]);
        assert_eq!(row.history, r.history);
        // The JSON report reads back as references.
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(
            parse_references(&json).unwrap(),
            References::from([(7, 153)])
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
