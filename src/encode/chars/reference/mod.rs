//! The reference encoder: the character encoder as it was before its fast programme, kept for
//! the tests, which compare the encoder with it (`cargo test --release --lib
//! encode::chars::reference`). Its programme values every (state, heading, automaton node) and
//! settles each row by a work list of states valued again whole ([`programme`]); its backward
//! pass covers the walks' corridor and keeps values while they fit in 64 MB; its walks are A*
//! searches within a budget, then depth first ([`spelling`]). The stages it shares with the
//! encoder (regions, tables, first uses, the Lagrangian rounds, the walk's children) are the
//! encoder's own.

mod programme;
mod spelling;
#[cfg(test)]
mod tests;

pub(super) use programme::{values, SlowBufs, Values};

use super::first::SoFar;
use super::tables::CharTables;
use super::{boards_before, CharStats};
use crate::encode::Encoder;
use crate::plan::Plan;
use crate::work::Limit;
use spelling::{Backward, Scratch, Spelling};

impl Encoder<'_> {
    /// The reference encoder (the character encoder before its fast programme): a backward
    /// pass over the units on the repetition automaton, then A* walks; what
    /// [`Encoder::encode_chars_after`] is tested against.
    pub(in crate::encode) fn encode_chars_reference(
        &self,
        ct: &CharTables,
        plan: &Plan,
        opening: crate::encode::Opening,
        limit: &Limit,
        stats: &mut CharStats,
    ) -> Option<String> {
        let n = plan.placements.len();
        let first = opening.units.min(n);
        // The work counts ([`crate::work`]): the units to spell here; the programme counts
        // its own cells.
        crate::work::add(crate::work::Op::CharsCall, 1);
        crate::work::add(crate::work::Op::CharsUnit, (n - first) as u64);
        let mut spelling = Spelling {
            encoder: self,
            ct,
            plan,
            boards: boards_before(self.problem, plan),
            limit: *limit,
            back: Backward::default(),
        };
        let mut scratch = Scratch::default();
        spelling.back = spelling.backward(first, &mut scratch, stats)?;
        let mut so_far = SoFar::new(self.table.phrases.len());
        so_far.push(ct, opening.text);
        for u in first..n {
            if limit.stopped() {
                return None;
            }
            let text = spelling.spell_unit(u, &so_far, &mut scratch, stats);
            so_far.push(ct, &text);
        }
        stats.pops += scratch.slow.pops;
        Some(so_far.text)
    }
}
