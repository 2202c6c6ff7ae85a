//! The character encoder ([`super::Mode::Chars`]): spells a plan character by character with
//! the phrase automaton ([`super::automaton`]), so that every occurrence counts, overlapping or
//! spanning two units, and a lock command is a phrase character like any other.
//!
//! **Model.** Within one unit, the state of the search is the unit's position (pivot and canonical
//! orientation, as in [`crate::plan::space`]), the automaton node, and what the no-repeat rule
//! needs of the positions visited on the current row. A descent empties that set (no command
//! climbs), so at a row entry the state is exact. Within a row the dynamic programme keeps only the
//! last move, the [`super::heading`] (fresh, W, E, CW, CCW), and forbids its reversal: for a unit
//! that cannot rotate this is exact (it can only keep going one way along a row), for the others it
//! is a relaxation (a walk such as E, CW, W, CCW returns to its start), so the values are upper
//! bounds. The values are computed bottom-up, row by row, by a work list along each row until they
//! settle; every row move costs a tiny penalty, so that among equal scores the shorter walk wins
//! and the values have no cycles. The programme ([`kernel`]) keeps a value per (state, *context
//! node*): an automaton node other than the root is entered by one command only, so it carries
//! its heading, and only the root needs one value per heading.
//!
//! **Whole game.** A backward pass over the units gives, for each unit, the value of entering it
//! at its spawn in each automaton node (the *terminal* values of the unit before), window by
//! window of units, each valued from a little past its end, so that the values it keeps for the
//! walks fit in memory. The forward walk then spells unit after unit ([`spell`]): a search over exact states (visited positions of the row included) under the
//! programme's values, which bound every exact path from above, finds the best path to the
//! planned lock and the best locking character for what follows: depth first at the bound (where
//! it is tight, the path is found after a few nodes per character), then below it until a path
//! is found, and a bisection for the best ([`walk`]). Past its budget a valid path found depth
//! first serves, and as a last resort the plain shortest path: every unit always ends at its
//! planned lock.
//!
//! **The reference.** The encoder as it was before its fast programme (a value per heading and
//! node, a work list of whole states, A* walks) is kept for the tests in `reference/`: the two
//! spell the same plans to the same scores in all, game by game to within ties the walks break
//! apart.
//!
//! **First uses.** The backward pass values repetitions only (2 x length per occurrence), on the
//! automaton of the phrases; while a phrase is unused, the units that can spell it are re-valued
//! in the forward walk with its first-use value ([`super::Phrase::first_use`]) added, so that the
//! first units spell the long phrases while the board still has room for them.
//!
//! **Spans.** An unused phrase with more descents than a unit's fall but fewer than its fall and
//! the next unit's together may begin in one unit and end in the next, the first unit's lock a
//! character of the phrase: the next unit is valued first, on the same automaton with only the
//! spans' first uses counted, and its value at its spawn in each node becomes the terminal value
//! of the unit before; the next unit then counts the phrase begun among the ones it may finish.
//! Spans stop at two units: longer ones gained nothing for several times the time (the figures
//! are in docs/tuning.md).

#[cfg(test)]
mod brute;
mod first;
mod kernel;
#[cfg(test)]
mod reference;
mod region;
mod rounds;
mod spell;
mod tables;
mod walk;

pub use tables::{corridor_for, CharTables, CORRIDOR};

use super::heading;
use super::{automaton, Encoder, NEG};
use crate::engine::{Board, Problem};
use crate::plan::{Placement, Plan, Sim, Tables};
use crate::work::Limit;
use first::SoFar;

/// Scale of the phrase points in the programme's values: a row move costs one unit of value.
const SCALE: i32 = 64;

/// No compact index.
const NONE: u32 = u32::MAX;

/// Whether a value stands for a possible way on: impossible ones are [`NEG`] plus at most the
/// gains of a path, far below this.
#[inline]
fn possible(v: i32) -> bool {
    v > NEG / 2
}

/// What the character encoder did, for the solver's cost model.
#[derive(Clone, Copy, Debug, Default)]
pub struct CharStats {
    /// Compact states valued (summed over both passes).
    pub states: usize,
    /// Units whose search fell back to a plain path.
    pub fallbacks: usize,
    /// States re-valued along the rows (at least one per state).
    pub pops: usize,
    /// Programmes computed (a unit's values on one automaton: the backward pass's, a
    /// Lagrangian round's, a span's next unit's), and their values, states times context
    /// nodes, summed: with `states` and `pops`, what the encoder's cost is made of.
    pub programmes: usize,
    pub cells: usize,
    /// Nodes the walks expanded.
    pub expansions: usize,
    /// Units whose A* search ran out of budget, spelt by the depth-first search instead.
    pub depth_first: usize,
    /// Walks where no path reached the programme's bound within the depth-first search's
    /// budget, searched by A* instead.
    pub exact_misses: usize,
}

/// The rows a placement's unit passes through from its spawn to its lock, both included: a
/// phrase needs as many as it has descents, but for the last one, which may be the lock.
fn fall_rows(tables: &Tables, pl: &Placement) -> usize {
    pl.descent(tables) as usize + 1
}

/// The board before each unit of `plan`, from the problem's initial board.
fn boards_before(problem: &Problem, plan: &Plan) -> Vec<Board> {
    let mut boards = Vec::with_capacity(plan.placements.len());
    let mut sim = Sim::new(problem);
    for pl in &plan.placements {
        boards.push(sim.board.clone());
        sim.lock(problem, pl.unit, pl.lock.state);
    }
    boards
}

impl Encoder<'_> {
    /// Spells `plan` with the character encoder. `None` when `limit` stops it first (the
    /// caller keeps its other encoding). The text always replays without error.
    pub fn encode_chars(
        &self,
        ct: &CharTables,
        plan: &Plan,
        limit: &Limit,
        stats: &mut CharStats,
    ) -> Option<String> {
        self.encode_chars_after(ct, plan, super::Opening::default(), limit, stats)
    }

    /// As [`Encoder::encode_chars`], the plan's first `opening.units` placements taken as spelt
    /// by `opening.text` (the caller's promise: that text locks exactly them): only the rest is
    /// spelt, from the automaton's node after the opening and with its phrases counted as used.
    ///
    /// The stages ([`spell`]): the boards before each unit; the backward pass over the units
    /// after the opening; the opening followed on the automata ([`SoFar`]); then unit after unit,
    /// the phrases whose first use counts ([`first::FirstUses`]), their automaton
    /// ([`tables::FreshAutomata`]), the next unit's values for spans, and the walk with its
    /// fallbacks.
    pub fn encode_chars_after(
        &self,
        ct: &CharTables,
        plan: &Plan,
        opening: super::Opening,
        limit: &Limit,
        stats: &mut CharStats,
    ) -> Option<String> {
        self.encode_chars_part(ct, plan, opening, limit, None, stats)
            .map(|(text, _)| text)
    }

    /// As [`Encoder::encode_chars_after`], but asking `enough` after each unit spelt (with the
    /// units spelt so far) whether to stop there; the limit then stops it the same way. The
    /// text and the units it spells (`plan`'s first units; all of them without a stop).
    /// `None` when the limit stops it before the first unit is spelt.
    pub fn encode_chars_part(
        &self,
        ct: &CharTables,
        plan: &Plan,
        opening: super::Opening,
        limit: &Limit,
        enough: Option<&dyn Fn(usize) -> bool>,
        stats: &mut CharStats,
    ) -> Option<(String, usize)> {
        let n = plan.placements.len();
        let first = opening.units.min(n);
        crate::work::add(crate::work::Op::CharsCall, 1);
        crate::work::add(crate::work::Op::CharsUnit, (n - first) as u64);
        let window = spell::window_for(self, ct);
        let forward = spell::Forward::new(self, ct, plan, *limit, window);
        let mut so_far = SoFar::new(self.table.phrases.len());
        so_far.push(ct, opening.text);
        let expanded = stats.expansions;
        let text = forward.spell(first, so_far, stats, enough);
        crate::work::add(
            crate::work::Op::CharsNode,
            stats.expansions.saturating_sub(expanded) as u64,
        );
        text
    }
}

#[cfg(test)]
mod opening_tests {
    use crate::encode::test_util::{Setup, SAMPLES};
    use crate::encode::{CharStats, Opening};
    use crate::engine::replay;
    use crate::plan::text_of_opening;

    /// Spelling a plan after an opening taken from the encoder's own text for it gives that
    /// text back (the units after the cut are valued and walked exactly as in the whole
    /// encoding), at every cut; and the text replays to the planned locks.
    #[test]
    fn an_opening_of_its_own_text_gives_the_same_text() {
        for json in SAMPLES {
            let setup = Setup::new(json);
            let (problem, phrases) = (&setup.problem, &setup.phrases);
            let (encoder, ct) = (setup.encoder(), setup.char_tables());
            let seed = problem.seeds[0];
            let plan = setup.greedy_plan(seed);
            let mut stats = CharStats::default();
            let whole = encoder
                .encode_chars(&ct, &plan, &crate::work::Limit::NONE, &mut stats)
                .unwrap();
            let e = replay(problem, seed, &whole, phrases);
            assert!(!e.end.is_error());
            assert_eq!(e.locked as usize, plan.placements.len());
            let n = plan.placements.len();
            for units in [0, 1, n / 3, n / 2, n - 1, n] {
                let opening = text_of_opening(problem, seed, &whole, units).unwrap();
                let again = encoder
                    .encode_chars_after(
                        &ct,
                        &plan,
                        Opening {
                            units,
                            text: opening,
                        },
                        &crate::work::Limit::NONE,
                        &mut stats,
                    )
                    .unwrap();
                assert_eq!(again, whole, "cut at {units} of {n}");
            }
        }
    }
}

#[cfg(test)]
mod span_tests {
    use crate::encode::test_util::Setup;
    use crate::encode::CharStats;
    use crate::engine::replay;

    /// On an 8-row board no unit falls far enough to spell "necronomicon", "vigintillion",
    /// "cthulhu fhtagn!", "john bigboote" or "case nightmare green" alone: the character
    /// encoder spells them across two units, the lock a character of the phrase, and the text
    /// replays to the planned locks. (Measured: 15 of the 15 (seed, phrase) pairs with spans,
    /// 3 without.)
    #[test]
    fn long_phrases_are_spelt_across_two_units() {
        let json = r#"{"id":8,"width":10,"height":8,"filled":[],"sourceLength":120,
            "sourceSeeds":[0, 2629, 4491],"units":[
            {"members":[{"x":0,"y":0},{"x":1,"y":0},{"x":2,"y":0},{"x":3,"y":0}],"pivot":{"x":1,"y":0}},
            {"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}},
            {"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}},
            {"members":[{"x":0,"y":0},{"x":1,"y":0}],"pivot":{"x":0,"y":0}}]}"#;
        let setup = Setup::new(json);
        let (problem, phrases) = (&setup.problem, &setup.phrases);
        let (encoder, ct) = (setup.encoder(), setup.char_tables());
        let long = [
            "necronomicon",
            "vigintillion",
            "cthulhu fhtagn!",
            "john bigboote",
            "case nightmare green",
        ];
        let mut spanned = 0;
        for &seed in &problem.seeds {
            let plan = setup.greedy_plan(seed);
            let text = encoder
                .encode_chars(
                    &ct,
                    &plan,
                    &crate::work::Limit::NONE,
                    &mut CharStats::default(),
                )
                .unwrap();
            let e = replay(problem, seed, &text, phrases);
            assert!(!e.end.is_error(), "seed {seed}: {}", e.end);
            assert_eq!(e.locked as usize, plan.placements.len());
            spanned += phrases
                .iter()
                .zip(&e.phrase_counts)
                .filter(|(p, &n)| long.contains(p) && n > 0)
                .count();
        }
        assert!(
            spanned >= 12,
            "only {spanned} of 15 (seed, long phrase) pairs spelt"
        );
    }
}

#[cfg(test)]
mod first_use_tests {
    use crate::encode::test_util::Setup;
    use crate::encode::CharStats;
    use crate::engine::replay;

    /// Regression: the first unit of a game on an empty 15 x 20 board (problem 13's size), with
    /// every phrase unused, spelt "ei!" again and again, each occurrence valued as a first use
    /// by the programme, instead of several phrases once each (see [`super::UnitWalk::best`]).
    #[test]
    fn a_first_unit_spells_many_phrases_not_one_many_times() {
        let json = r#"{"id":13,"width":15,"height":20,"filled":[],"sourceLength":1,
            "sourceSeeds":[0],"units":[{"members":[{"x":0,"y":0},{"x":1,"y":0},{"x":0,"y":1}],
            "pivot":{"x":0,"y":0}}]}"#;
        let setup = Setup::new(json);
        let (problem, phrases) = (&setup.problem, &setup.phrases);
        let (encoder, ct) = (setup.encoder(), setup.char_tables());
        let plan = setup.greedy_plan(0);
        let text = encoder
            .encode_chars(
                &ct,
                &plan,
                &crate::work::Limit::NONE,
                &mut CharStats::default(),
            )
            .unwrap();
        let e = replay(problem, 0, &text, phrases);
        let distinct = e.phrase_counts.iter().filter(|&&n| n > 0).count();
        assert!(!e.end.is_error());
        // Measured: "blue hadeskpppkyuggothe laundrynecronomicon", 4 phrases and 1,280 points;
        // before, "ei!" 18 times and "r'lyeh", 720 points.
        assert!(
            distinct >= 4 && e.power_score >= 1000,
            "{text:?}: {} points, {distinct} phrases",
            e.power_score
        );
    }
}
