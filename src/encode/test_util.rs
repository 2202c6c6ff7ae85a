//! Helpers shared by the encoders' tests (and the phrase valuers'): the sample problems, a
//! problem set up for spelling, its greedy plan, and random phrases.

use super::{CharTables, Encoder, PhraseTable};
use crate::engine::{Command, Decoded, Phrases, Problem};
use crate::plan::{Lock, Plan, Tables, UnitSpace};
use rand::Rng;

/// The bundled sample problems: a small board and a wide one.
pub const SAMPLES: [&str; 2] = [
    include_str!("../../problems/sample_hex.json"),
    include_str!("../../problems/sample_wide.json"),
];

/// A problem set up for spelling with the official phrases: what the encoders' tests of
/// whole games start from.
pub struct Setup {
    pub problem: Problem,
    pub tables: Tables,
    pub phrases: Phrases,
    pub table: PhraseTable,
}

impl Setup {
    /// The problem of `json` with the official phrases.
    pub fn new(json: &str) -> Setup {
        let problem = Problem::from_json(json, std::path::Path::new("test")).unwrap();
        let tables = Tables::new(&problem);
        let phrases = Phrases::official();
        let table = PhraseTable::new(&phrases);
        Setup {
            problem,
            tables,
            phrases,
            table,
        }
    }

    pub fn encoder(&self) -> Encoder<'_> {
        Encoder::new(&self.problem, &self.tables, &self.table)
    }

    pub fn char_tables(&self) -> CharTables {
        CharTables::new(&self.table, &self.tables.spaces, self.problem.width)
    }

    /// The greedy planner's plan of the whole game of `seed`, with the `balanced` weights.
    pub fn greedy_plan(&self, seed: u32) -> Plan {
        crate::testkit::greedy_plan(&self.problem, &self.tables, seed)
    }
}

/// The cells a unit locked at `lock` covers, sorted: the member set the references lock at.
pub fn target_of(sp: &UnitSpace, lock: &Lock) -> Vec<(i64, i64)> {
    let mut target: Vec<(i64, i64)> = sp
        .cells(lock.state)
        .iter()
        .map(|&(dx, dy)| (lock.state.x + dx, lock.state.y + dy))
        .collect();
    target.sort();
    target
}

/// Random short phrases (1 to 3, of 2 to 4 characters) over `alphabet`, each with a descent
/// (the encoders leave the others out), followed by each of `extras` with its probability.
pub fn random_phrases(rng: &mut impl Rng, alphabet: &str, extras: &[(&str, f64)]) -> Vec<String> {
    let alphabet: Vec<char> = alphabet.chars().collect();
    let descent = |c: char| matches!(Command::decode(c), Decoded::Command(cmd) if cmd.is_descent());
    let mut v: Vec<String> = (0..rng.gen_range(1..=3))
        .map(|_| loop {
            let p: String = (0..rng.gen_range(2..=4))
                .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
                .collect();
            if p.chars().any(descent) {
                break p;
            }
        })
        .collect();
    for &(extra, p) in extras {
        if rng.gen_bool(p) {
            v.push(extra.into());
        }
    }
    v
}
