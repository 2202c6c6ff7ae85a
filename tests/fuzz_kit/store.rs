//! The store's side of the fuzz: the stores the cases start from, what a case's store held
//! before (its bytes, and the best sound entry of every seed), the operations the commands do
//! on a store (score it, offer answers to it, solve from it, merge into it or from it), and the
//! checks after one.

use super::{mutate, Kind, ANY, STORE};
use hextris::cli::batch::{store_starts, to_solutions};
use hextris::cli::store::merge_stores;
use hextris::engine::{Phrases, Problem};
use hextris::error::Result;
use hextris::io::Solution;
use hextris::solve::{solve_attempts, Prepared, Silent, SolveConfig};
use hextris::store::{verify, Entry, Store};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The problems of the stores: the bundled sample (1001) and `tests/data/small.json` (105).
const PROBLEM_FILES: [&str; 2] = ["problems/sample_hex.json", "tests/data/small.json"];

/// What is done with a case's store, as the commands do it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Read every entry and score them (`hextris score --store`).
    Score,
    /// Read the scores and the stored games, then offer answers, as good as, better or worse
    /// than the stored ones (`hextris solve --store`, without the search).
    Offer,
    /// Solve with one attempt per seed from the stored games, and offer the answers
    /// (`hextris solve --attempts 1 --store`).
    Solve,
    /// Merge a sound store of better answers into the case's store (`store merge --into`).
    MergeInto,
    /// Merge the case's store into a copy of the base store (the case's store as a source).
    MergeFrom,
}

/// The operations, drawn with these weights (solving costs the most).
pub const OPS: [Op; 9] = [
    Op::Score,
    Op::Offer,
    Op::Offer,
    Op::Offer,
    Op::Solve,
    Op::MergeInto,
    Op::MergeInto,
    Op::MergeFrom,
    Op::MergeFrom,
];

/// The stores the cases start from, and the answers they offer.
pub struct Bases {
    /// The problems of [`PROBLEM_FILES`].
    pub problems: Vec<Problem>,
    phrases: Phrases,
    /// A store of one attempt per seed, which every case copies.
    base: PathBuf,
    /// A store of two attempts per seed, merged into the cases' stores.
    better: PathBuf,
    /// Per problem: the answers of one attempt (those of the base store), of two, and the
    /// base's answers cut short.
    offers: Vec<[Vec<Solution>; 3]>,
}

impl Bases {
    /// Solves the problems and writes the two stores below `dir`.
    pub fn build(dir: &Path) -> Bases {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let problems: Vec<Problem> = PROBLEM_FILES
            .iter()
            .map(|f| hextris::io::read_problem(&root.join(f)).unwrap())
            .collect();
        let phrases = Phrases::official();
        let prepared: Vec<Prepared> = problems.iter().map(Prepared::new).collect();
        let cfg = SolveConfig::new(phrases.clone());
        let one = to_solutions(&solve_attempts(&prepared, 1, &cfg, &Silent));
        let two = to_solutions(&solve_attempts(&prepared, 2, &cfg, &Silent));
        let (base, better) = (dir.join("base"), dir.join("better"));
        let _ = std::fs::remove_dir_all(dir);
        let offers = problems
            .iter()
            .map(|p| {
                let of = |list: &[Solution]| -> Vec<Solution> {
                    list.iter()
                        .filter(|s| s.problem_id == p.id)
                        .cloned()
                        .collect()
                };
                let (one, two) = (of(&one), of(&two));
                Store::open(&base)
                    .unwrap()
                    .offer(p, &phrases, &one)
                    .unwrap();
                Store::open(&better)
                    .unwrap()
                    .offer(p, &phrases, &two)
                    .unwrap();
                let cut = one
                    .iter()
                    .map(|s| Solution {
                        solution: s.solution.chars().take(s.solution.len() / 2).collect(),
                        ..s.clone()
                    })
                    .collect();
                [one, two, cut]
            })
            .collect();
        Bases {
            problems,
            phrases,
            base,
            better,
            offers,
        }
    }

    /// The files of the problems.
    pub fn problem_files(&self) -> Vec<PathBuf> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        PROBLEM_FILES.iter().map(|f| root.join(f)).collect()
    }

    /// The store of two attempts per seed (only read).
    pub fn better(&self) -> &Path {
        &self.better
    }

    fn problem(&self, id: i64) -> Option<&Problem> {
        self.problems.iter().find(|p| p.id == id)
    }

    /// Copies the base store to `dir` (emptied first) and mutates one of its files; returns
    /// the file, the kind of mutation and what it changed.
    pub fn mutated_copy(&self, rng: &mut StdRng, dir: &Path) -> (PathBuf, Kind, String) {
        copy_store(&self.base, dir);
        let p = self.problems.choose(rng).unwrap();
        let file = dir.join(format!("problem_{}.json", p.id));
        let kinds: Vec<Kind> = ANY.iter().chain(&STORE).copied().collect();
        let kind = *kinds.choose(rng).unwrap();
        let text = std::fs::read_to_string(&file).unwrap();
        let (bytes, what) = if kind == Kind::Misfiled {
            self.misfiled(rng, dir, p.id, &text)
        } else {
            mutate(rng, &text, kind)
        };
        std::fs::write(&file, bytes).unwrap();
        (file, kind, what)
    }

    /// The store file `text` of problem `id` with an entry of another problem's file of `dir`
    /// copied into it.
    fn misfiled(&self, rng: &mut StdRng, dir: &Path, id: i64, text: &str) -> (Vec<u8>, String) {
        let other = self.problems.iter().find(|p| p.id != id).unwrap();
        let theirs = std::fs::read_to_string(dir.join(format!("problem_{}.json", other.id)));
        let theirs: Vec<Entry> = serde_json::from_str(&theirs.unwrap()).unwrap();
        let mut ours: Vec<Entry> = serde_json::from_str(text).unwrap();
        let mut e = theirs.choose(rng).unwrap().clone();
        // Half of the entries copied are edited too (their score raised by one), so that a
        // merge refuses them and must name the file that holds them.
        let edited = rng.gen_bool(0.5);
        e.score += u64::from(edited);
        let what = format!(
            "problem {} seed {} copied in{}",
            e.problem_id,
            e.seed,
            if edited { ", its score raised" } else { "" }
        );
        ours.insert(rng.gen_range(0..=ours.len()), e);
        (serde_json::to_vec(&ours).unwrap(), what)
    }

    /// Does `op` on the case's store `dir` (`target` is the store a [`Op::MergeFrom`] merges
    /// into); returns the lines of the entries a merge refused.
    pub fn run(
        &self,
        op: Op,
        dir: &Path,
        target: Option<&Path>,
        rng: &mut StdRng,
    ) -> Result<Vec<String>> {
        let store = Store::open(dir)?;
        let refs: Vec<&Problem> = self.problems.iter().collect();
        match op {
            Op::Score => {
                store.all()?;
                store.scores(&refs, &self.phrases)?;
            }
            Op::Offer => {
                store.scores(&refs, &self.phrases)?;
                store_starts(&store, &refs)?;
                for (p, offers) in self.problems.iter().zip(&self.offers) {
                    store.offer(p, &self.phrases, offers.choose(rng).unwrap())?;
                }
            }
            Op::Solve => {
                store.scores(&refs, &self.phrases)?;
                let mut cfg = SolveConfig::new(self.phrases.clone());
                cfg.starts = store_starts(&store, &refs)?;
                let prepared: Vec<Prepared> = refs.iter().map(|p| Prepared::new(p)).collect();
                let results = solve_attempts(&prepared, 1, &cfg, &Silent);
                for (p, r) in refs.iter().zip(&results) {
                    let answers = to_solutions(std::slice::from_ref(r));
                    store.offer(p, &self.phrases, &answers)?;
                }
            }
            Op::MergeInto => {
                let better = Store::open(&self.better)?;
                return Ok(merge_stores(&[better], &store, &self.problems, &self.phrases)?.refused);
            }
            Op::MergeFrom => {
                let into = Store::open(target.expect("a merge has its target"))?;
                return Ok(merge_stores(&[store], &into, &self.problems, &self.phrases)?.refused);
            }
        }
        Ok(Vec::new())
    }
}

/// Copies the files of the store `from` to `to`, which is emptied first.
fn copy_store(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).unwrap();
    for f in std::fs::read_dir(from).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, to.join(f.file_name().unwrap())).unwrap();
    }
}

/// A store's folder as it was: every file's bytes, the best sound entry of every (problem,
/// seed), each entry checked against the problem its file is named for, and the number of
/// entries that are not sound in each file.
pub struct Before {
    files: BTreeMap<String, Vec<u8>>,
    sound: BTreeMap<(i64, u32), u64>,
    unsound: BTreeMap<String, usize>,
    dir: PathBuf,
}

impl Before {
    /// Reads the store folder `dir`.
    pub fn take(bases: &Bases, dir: &Path) -> Before {
        let mut before = Before {
            files: BTreeMap::new(),
            sound: BTreeMap::new(),
            unsound: BTreeMap::new(),
            dir: dir.to_path_buf(),
        };
        for f in std::fs::read_dir(dir).unwrap() {
            let f = f.unwrap().path();
            let name = f.file_name().unwrap().to_string_lossy().to_string();
            let bytes = std::fs::read(&f).unwrap();
            let id = name
                .strip_prefix("problem_")
                .and_then(|n| n.strip_suffix(".json"))
                .and_then(|n| n.parse::<i64>().ok());
            let entries = serde_json::from_slice::<Vec<Entry>>(&bytes);
            if let (Some(p), Ok(entries)) = (id.and_then(|id| bases.problem(id)), entries) {
                for e in &entries {
                    match verify(p, &bases.phrases, e) {
                        Ok(score) => {
                            let best = before.sound.entry((p.id, e.seed)).or_default();
                            *best = (*best).max(score);
                        }
                        Err(_) => *before.unsound.entry(name.clone()).or_default() += 1,
                    }
                }
            }
            before.files.insert(name, bytes);
        }
        before
    }

    /// The folder it was taken of.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// A fresh copy of the base store at `dir`, for a merge from the case's store to merge
    /// into, as it is before the merge.
    pub fn merge_target(bases: &Bases, dir: &Path) -> Before {
        copy_store(&bases.base, dir);
        Before::take(bases, dir)
    }

    /// Whether the file `name` of the folder was a list of entries.
    pub fn parsed(&self, name: &str) -> bool {
        serde_json::from_slice::<Vec<Entry>>(&self.files[name]).is_ok()
    }

    /// Every file of the folder is as it was, and there is no other.
    pub fn assert_untouched(&self, dir: &Path) {
        let now = Before::files_of(dir);
        assert_eq!(
            now.keys().collect::<Vec<_>>(),
            self.files.keys().collect::<Vec<_>>()
        );
        for (name, bytes) in &self.files {
            assert!(now[name] == *bytes, "{name} changed");
        }
    }

    fn files_of(dir: &Path) -> BTreeMap<String, Vec<u8>> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|f| {
                let f = f.unwrap().path();
                let name = f.file_name().unwrap().to_string_lossy().to_string();
                (name, std::fs::read(&f).unwrap())
            })
            .collect()
    }

    /// No sound entry is lost or lowered; a file that changed was improved (a seed's best sound
    /// entry raised or added, or an entry that was not sound replaced); no file but a problem's
    /// store file appeared.
    pub fn assert_kept_or_improved(&self, bases: &Bases, dir: &Path) {
        let after = Before::take(bases, dir);
        for (key, score) in &self.sound {
            let now = after.sound.get(key).copied();
            assert!(
                now >= Some(*score),
                "problem {} seed {}: the sound entry of {score} is now {now:?}",
                key.0,
                key.1
            );
        }
        for (name, bytes) in &after.files {
            let Some(old) = self.files.get(name) else {
                let known = bases
                    .problems
                    .iter()
                    .any(|p| *name == format!("problem_{}.json", p.id));
                assert!(known, "{name} appeared");
                continue;
            };
            if old == bytes {
                continue;
            }
            let id: i64 = name["problem_".len()..name.len() - ".json".len()]
                .parse()
                .unwrap();
            let raised = after
                .sound
                .iter()
                .any(|(k, s)| k.0 == id && self.sound.get(k).is_none_or(|b| s > b));
            let mended =
                after.unsound.get(name).unwrap_or(&0) < self.unsound.get(name).unwrap_or(&0);
            assert!(raised || mended, "{name} changed but was not improved");
        }
        for name in self.files.keys() {
            assert!(after.files.contains_key(name), "{name} was removed");
        }
    }
}
