//! The spelling loop: a plan spelt unit by unit in a mode ([`Encoder::spell`],
//! [`Encoder::encode_after`]), each unit's lock reached at exactly the member set the plan
//! chose, so the board evolves as planned whatever the mode; the DP encoder hands over to the
//! greedy one where the task's counted work runs short. A [`Spelling`] is its answer as data:
//! the text with the mode that spelt it.

use super::encoder::Buffers;
use super::plain::plain_unit;
use super::unit::Job;
use super::walk::Spelt;
use super::{line, walk, CharStats, CharTables, Encoder, Mode, Opening};
use crate::plan::{Plan, Sim};
use crate::work::{Limit, Op};

/// A plan spelt: its text and the mode that spelt it (which may differ from the mode asked
/// for: see [`Mode::Chars`]).
#[derive(Clone, Debug)]
pub struct Spelling {
    pub text: String,
    pub mode: Mode,
    /// What the character encoder did, when it was asked for.
    pub stats: CharStats,
}

impl Encoder<'_> {
    /// Spells `plan` with any `mode` (see [`Encoder::encode_after`] for `opening` and `limit`)
    /// and says which mode spelt it. [`Mode::Chars`] needs the character encoder's tables
    /// `chars`; when it cannot finish within the limit, the plan is spelt
    /// with [`Mode::Dp`] instead (which ends early rather than not at all). The other modes
    /// ignore `chars`.
    ///
    /// # Panics
    /// With [`Mode::Chars`] and no tables.
    pub fn spell(
        &self,
        plan: &Plan,
        opening: Opening,
        mode: Mode,
        chars: Option<&CharTables>,
        limit: &Limit,
    ) -> Spelling {
        let mut stats = CharStats::default();
        if mode == Mode::Chars {
            let ct = chars.expect("Mode::Chars needs the character encoder's tables");
            if let Some(text) = self.encode_chars_after(ct, plan, opening, limit, &mut stats) {
                return Spelling { text, mode, stats };
            }
        }
        let mode = if mode == Mode::Chars { Mode::Dp } else { mode };
        Spelling {
            text: self.encode_after(plan, opening, mode, limit),
            mode,
            stats,
        }
    }

    /// Spells a whole plan. Once `limit` is [`Limit::stopped`], it stops after the unit in hand:
    /// the string then
    /// ends early (a valid, shorter game). Plain paths spell the first unit whatever the time
    /// (one short search), so that a plan never gives an empty answer.
    pub fn encode(&self, plan: &Plan, mode: Mode, limit: &Limit) -> String {
        self.encode_after(plan, Opening::default(), mode, limit)
    }

    /// As [`Encoder::encode`], with one more option and one more use of the limit. The plan's
    /// first `opening.units`
    /// placements are taken as spelt by `opening.text` (the caller's promise: that text locks
    /// exactly them), so that only the rest is spelt; the phrases the opening holds count as
    /// used. And the DP encoder hands over to the greedy one (several times faster) once the work
    /// left before the task's horizon falls below what the greedy one would need for the units
    /// left (the limit's [`Cut::hands_over`](crate::work::Cut::hands_over), in counted work): a
    /// DP encoding that runs late then still spells a whole game instead of ending it early.
    /// [`Limit::NONE`] never hands over.
    ///
    /// The modes that spell unit by unit: [`Mode::Chars`], which spells the whole game at once
    /// and may not finish, is [`Encoder::spell`]'s or [`Encoder::encode_chars_after`]'s.
    ///
    /// # Panics
    /// With [`Mode::Chars`].
    pub fn encode_after(&self, plan: &Plan, opening: Opening, mode: Mode, limit: &Limit) -> String {
        // The buffers are sized by the board's state count: each thread keeps its own between
        // encodings (see [`Buffers::with`]).
        if mode != Mode::Plain {
            crate::work::add(Op::SpellCall, 1);
        }
        Buffers::with(|b| {
            assert!(
                mode != Mode::Chars,
                "Mode::Chars spells through Encoder::spell"
            );
            let mut sim = Sim::new(self.problem);
            let mut out = String::from(opening.text);
            let mut used = self.used_by(opening.text);
            let mut mode = mode;
            let units = plan.placements.len();
            for (u, pl) in plan.placements.iter().enumerate() {
                if u < opening.units {
                    sim.lock(self.problem, pl.unit, pl.lock.state);
                    continue;
                }
                let first_plain = u == 0 && mode == Mode::Plain;
                if limit.stopped() && !first_plain {
                    break;
                }
                if mode == Mode::Dp && limit.cut.hands_over(units - u) {
                    mode = Mode::Greedy;
                }
                let space = &self.tables.spaces[pl.unit];
                // Plain paths search the rows from the spawn down to the lock's; the other
                // encoders count their own work as they go.
                crate::work::add(work_op(mode), 1);
                if mode == Mode::Plain {
                    let rows = (pl.lock.state.y - space.spawn_state().y).max(0) as u64 + 1;
                    crate::work::add(Op::PlainState, space.states_per_row() * rows);
                }
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
                    Mode::Plain | Mode::Chars => None,
                    Mode::Greedy => {
                        b.comps.build(&job, None);
                        let order = self.greedy_order(&used);
                        walk::greedy(&job, &b.comps, &order, &mut b.bfs)
                    }
                    Mode::Dp => {
                        let mut bonus: Vec<i32> = self
                            .table
                            .phrases
                            .iter()
                            .zip(&used)
                            .map(|(p, &u)| if u { 0 } else { p.first_use() })
                            .collect();
                        let mut wval: Vec<i32> = self
                            .table
                            .words
                            .iter()
                            .map(|w| w.value(&self.table.phrases, &used))
                            .collect();
                        // The component values serve the DP walk of rotating units; a unit that
                        // cannot rotate has its own programme, and the greedy walk needs only
                        // which components are alive.
                        b.comps.build(&job, space.rotates().then_some(&wval[..]));
                        // The programme's value at the start, before the walk lowers any word's
                        // value: a bound on the power of any walk (see below).
                        let bound;
                        let dp = if !space.rotates() {
                            // A unit that cannot rotate has its own programme (see `line`).
                            let lw = line::LineWords::new(&job);
                            line::values(&job, &lw, &wval, &mut b.line);
                            bound = line::start_value(&job, &b.line);
                            let [bfs, _] = &mut b.bfs;
                            line::walk(
                                &job,
                                &lw,
                                &mut wval,
                                &self.word_phrases,
                                &mut bonus,
                                &b.line,
                                bfs,
                            )
                        } else {
                            bound = b.comps.value_of(space, job.start);
                            walk::dp(
                                &job,
                                &b.comps,
                                &mut wval,
                                &self.word_phrases,
                                &mut bonus,
                                &mut b.bfs,
                            )
                        };
                        // The programme's values are estimates (they ignore the positions a word
                        // leaves visited on its last row), so the greedy walk sometimes does better on
                        // a unit; both end at the same lock, so the better of the two is kept. They
                        // are also bounds: every walk's words, each at its value before the unit
                        // (a first use counted at each use), sum to no more than the start's value.
                        // So a walk that scores the bound cannot be beaten, and the greedy walk is
                        // skipped (in a profile of problem 24 it took 17 % of the run, the quick
                        // answer's greedy spelling included).
                        let value = |s: &Option<Spelt>| {
                            s.as_ref()
                                .map_or(-1, |s| s.power(self.table, &self.word_phrases, &used))
                        };
                        let dp_value = value(&dp);
                        if dp.is_some() && dp_value >= bound as i64 {
                            dp
                        } else {
                            let order = self.greedy_order(&used);
                            let greedy = walk::greedy(&job, &b.comps, &order, &mut b.bfs);
                            if value(&greedy) > dp_value {
                                greedy
                            } else {
                                dp
                            }
                        }
                    }
                };
                let spelt = spelt.unwrap_or_else(|| plain_unit(&job, &mut b.path));
                for &w in &spelt.words {
                    for &p in &self.word_phrases[w] {
                        used[p] = true;
                    }
                }
                out.push_str(&spelt.text);
                sim.lock(self.problem, pl.unit, pl.lock.state);
            }
            out
        })
    }

    /// Words holding a phrase not used yet first, the most valuable (the longest: see
    /// [`Phrase::first_use`]) first; then by power per descent, longer first.
    fn greedy_order(&self, used: &[bool]) -> Vec<usize> {
        let ws = &self.table.words;
        let value = |w: usize| ws[w].value(&self.table.phrases, used);
        let fresh = |w: usize| self.word_phrases[w].iter().any(|&p| !used[p]);
        let density = |w: usize| value(w) as f64 / ws[w].descents.max(1) as f64;
        let mut order: Vec<usize> = (0..ws.len()).collect();
        order.sort_by(|&a, &b| {
            fresh(b).cmp(&fresh(a)).then_with(|| {
                if fresh(a) {
                    value(b).cmp(&value(a))
                } else {
                    density(b)
                        .total_cmp(&density(a))
                        .then(ws[b].text.len().cmp(&ws[a].text.len()))
                }
            })
        });
        order
    }

    /// Which phrases `text` has used: the engine counts an opening's phrases as it scores
    /// them, so a spelling that goes on from it finds them used.
    fn used_by(&self, text: &str) -> Vec<bool> {
        if text.is_empty() {
            return vec![false; self.table.phrases.len()];
        }
        self.counted.count(text).iter().map(|&n| n > 0).collect()
    }
}

/// The operation counted ([`crate::work`]) for each unit spelt in `mode`.
fn work_op(mode: Mode) -> Op {
    match mode {
        Mode::Plain => Op::PlainUnit,
        Mode::Greedy => Op::GreedyUnit,
        Mode::Dp | Mode::Chars => Op::DpUnit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::test_util;
    use crate::work::Cut;
    use std::time::{Duration, Instant};

    /// A DP spelling hands over to the greedy encoder by the task's counted work: with no work
    /// left before its horizon it spells greedily from the first unit; with plenty, it spells
    /// as without a cut.
    #[test]
    fn a_dp_spelling_hands_over_by_counted_work() {
        let setup = test_util::Setup::new(include_str!("../../problems/sample_hex.json"));
        let encoder = setup.encoder();
        let plan = setup.greedy_plan(setup.problem.seeds[0]);
        let open = Opening::default();
        let late = Limit::new(Cut::starting_now(0.0, 0.0, 1e-6), None);
        let greedy = encoder.encode(&plan, Mode::Greedy, &Limit::NONE);
        let dp = encoder.encode(&plan, Mode::Dp, &Limit::NONE);
        assert_ne!(greedy, dp, "the test needs a plan the two spell apart");
        assert_eq!(encoder.encode_after(&plan, open, Mode::Dp, &late), greedy);
        let early = Limit::new(Cut::starting_now(1e9, 0.0, 1e-6), None);
        assert_eq!(encoder.encode_after(&plan, open, Mode::Dp, &early), dp);
    }

    /// `spell` with [`Mode::Chars`] gives the character encoder's text and says so; past its
    /// limit it gives the DP encoder's (ended early) and says that; the other modes give
    /// `encode_after`'s text under their own name.
    #[test]
    fn spell_returns_the_text_with_the_mode_that_spelt_it() {
        let setup = test_util::Setup::new(include_str!("../../problems/sample_hex.json"));
        let (encoder, ct) = (setup.encoder(), setup.char_tables());
        let plan = setup.greedy_plan(setup.problem.seeds[0]);
        let open = Opening::default();
        let chars = encoder.spell(&plan, open, Mode::Chars, Some(&ct), &Limit::NONE);
        let by_chars = encoder.encode_chars(&ct, &plan, &Limit::NONE, &mut CharStats::default());
        assert_eq!((chars.mode, Some(chars.text)), (Mode::Chars, by_chars));
        let past = Limit::until(Some(Instant::now() - Duration::from_secs(1)));
        let late = encoder.spell(&plan, open, Mode::Chars, Some(&ct), &past);
        assert_eq!(late.mode, Mode::Dp);
        assert_eq!(late.text, encoder.encode(&plan, Mode::Dp, &past));
        for m in [Mode::Plain, Mode::Greedy, Mode::Dp] {
            let s = encoder.spell(&plan, open, m, None, &Limit::NONE);
            assert_eq!(
                (s.mode, s.text),
                (m, encoder.encode(&plan, m, &Limit::NONE))
            );
        }
    }
}
