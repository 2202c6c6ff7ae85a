//! Encoders: turn a [`Plan`] (a lock per unit) into the command string of a whole game.
//!
//! Three modes: [`Mode::Plain`] spells the shortest path to each lock in plain characters;
//! [`Mode::Greedy`] and [`Mode::Dp`] spell phrases of power on the way (see [`unit`]). Every unit
//! ends with a lock at exactly the member set the plan chose, so the board evolves as planned
//! whatever the mode.

pub mod phrases;
pub mod unit;

pub use phrases::{Dropped, Phrase, PhraseTable, Word};

use crate::engine::Problem;
use crate::plan::{Bfs, Plan, Sim, Tables};
use std::time::Instant;
use unit::{Comps, Job, Spelt, UnitGeometry};

/// How to spell a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Plain,
    Greedy,
    Dp,
}

/// The encoder of one problem and one phrase table.
pub struct Encoder<'a> {
    problem: &'a Problem,
    tables: &'a Tables,
    table: &'a PhraseTable,
    /// Per unit, per word.
    geometry: Vec<Vec<UnitGeometry>>,
    words: Vec<String>,
    /// Per word, the phrases it holds.
    word_phrases: Vec<Vec<usize>>,
}

/// Reusable buffers of the encoder.
#[derive(Debug, Default)]
struct Buffers {
    free: Vec<u64>,
    bfs: [Bfs; 2],
    comps: Comps,
}

impl<'a> Encoder<'a> {
    pub fn new(problem: &'a Problem, tables: &'a Tables, table: &'a PhraseTable) -> Encoder<'a> {
        let geometry = tables
            .spaces
            .iter()
            .map(|sp| {
                table
                    .words
                    .iter()
                    .map(|w| {
                        w.playable(sp.k).then(|| {
                            std::array::from_fn(|par| {
                                w.geometry[par]
                                    .steps
                                    .iter()
                                    .map(|&(dx, dy, r)| (dx, dy, r % sp.k))
                                    .collect()
                            })
                        })
                    })
                    .collect()
            })
            .collect();
        let words = table.words.iter().map(|w| w.text.clone()).collect();
        let word_phrases = table
            .words
            .iter()
            .map(|w| w.counts.iter().map(|&(p, _)| p).collect())
            .collect();
        Encoder {
            problem,
            tables,
            table,
            geometry,
            words,
            word_phrases,
        }
    }

    /// Spells a whole plan. Past `deadline`, it stops after the unit in hand: the string then
    /// ends early (a valid, shorter game).
    pub fn encode(&self, plan: &Plan, mode: Mode, deadline: Option<Instant>) -> String {
        let mut sim = Sim::new(self.problem);
        let mut b = Buffers::default();
        let mut out = String::new();
        let mut used = vec![false; self.table.phrases.len()];
        for pl in &plan.placements {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let space = &self.tables.spaces[pl.unit];
            space.free_map(&sim.board, &mut b.free);
            let job = Job {
                space,
                geometry: &self.geometry[pl.unit],
                words: &self.words,
                free: &b.free,
                target: pl.lock.key,
                start: space.spawn_state(),
            };
            let spelt = match mode {
                Mode::Plain => None,
                Mode::Greedy => {
                    b.comps.build(&job, None);
                    let order = self.greedy_order(&used);
                    unit::greedy(&job, &b.comps, &order, &mut b.bfs)
                }
                Mode::Dp => {
                    let mut bonus: Vec<i32> =
                        used.iter().map(|&u| if u { 0 } else { 300 }).collect();
                    let mut wval: Vec<i32> = self
                        .table
                        .words
                        .iter()
                        .map(|w| w.value(&self.table.phrases, &used))
                        .collect();
                    b.comps.build(&job, Some(&wval));
                    let dp = unit::dp(
                        &job,
                        &b.comps,
                        &mut wval,
                        &self.word_phrases,
                        &mut bonus,
                        &mut b.bfs,
                    );
                    // The programme's values are estimates (they ignore the positions a word
                    // leaves visited on its last row), so the greedy walk sometimes does better on
                    // a unit; both end at the same lock, so the better of the two is kept.
                    let order = self.greedy_order(&used);
                    let greedy = unit::greedy(&job, &b.comps, &order, &mut b.bfs);
                    let value = |s: &Option<Spelt>| s.as_ref().map_or(-1, |s| self.power(s, &used));
                    if value(&greedy) > value(&dp) {
                        greedy
                    } else {
                        dp
                    }
                }
            };
            let spelt = spelt.unwrap_or_else(|| plain_unit(&job, &mut b.bfs[0]));
            for &w in &spelt.words {
                for &p in &self.word_phrases[w] {
                    used[p] = true;
                }
            }
            out.push_str(&spelt.text);
            sim.lock(self.problem, pl.unit, pl.lock.state);
        }
        out
    }

    /// The power score the words of `s` add, given the phrases used before.
    fn power(&self, s: &Spelt, used: &[bool]) -> i64 {
        let mut used = used.to_vec();
        let mut total = 0i64;
        for &w in &s.words {
            total += self.table.words[w].value(&self.table.phrases, &used) as i64;
            for &p in &self.word_phrases[w] {
                used[p] = true;
            }
        }
        total
    }

    /// Words holding a phrase not used yet first, then by power per descent, longer first.
    fn greedy_order(&self, used: &[bool]) -> Vec<usize> {
        let ws = &self.table.words;
        let fresh = |w: usize| self.word_phrases[w].iter().any(|&p| !used[p]);
        let density =
            |w: usize| ws[w].value(&self.table.phrases, used) as f64 / ws[w].descents.max(1) as f64;
        let mut order: Vec<usize> = (0..ws.len()).collect();
        order.sort_by(|&a, &b| {
            fresh(b)
                .cmp(&fresh(a))
                .then(density(b).total_cmp(&density(a)))
                .then(ws[b].text.len().cmp(&ws[a].text.len()))
        });
        order
    }
}

/// The shortest path to the unit's lock in plain characters.
fn plain_unit(job: &Job, bfs: &mut Bfs) -> Spelt {
    let (cmds, end) = job
        .space
        .path(job.free, job.start, job.target, bfs)
        .expect("a planned lock is reachable");
    let mut text: String = cmds.iter().map(|c| c.char()).collect();
    text.push(job.lock_cmd(end).char());
    Spelt {
        text,
        words: Vec::new(),
    }
}

/// The shortest path to each lock, in plain characters, each ended by a locking command.
pub fn plain(problem: &Problem, tables: &Tables, plan: &Plan) -> String {
    let table = PhraseTable::default();
    Encoder::new(problem, tables, &table).encode(plan, Mode::Plain, None)
}
