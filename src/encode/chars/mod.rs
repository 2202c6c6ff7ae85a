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
//! bounds. The values are computed bottom-up, row by row, with sweeps along each row until they
//! settle; every row move costs a tiny penalty, so that among equal scores the shorter walk wins
//! and the values have no cycles.
//!
//! **Whole game.** A backward pass over the units gives, for each unit, the value of entering it
//! at its spawn in each automaton node (the *terminal* values of the unit before). The forward
//! walk then spells unit after unit: an A* search over exact states (visited positions of the
//! row included) under the programme's values, which are admissible, finds the best path to the
//! planned lock and the best locking character for what follows. Should the search exceed its
//! budget, a depth-first search with backtracking finds a valid path under the same values, and
//! as a last resort the plain shortest path is used: every unit always ends at its planned lock.
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
//! (Spans over three or four units were measured on the official problems: over three, scores
//! within 6 points; over four, some gained and some lost, for 2.6 to 4.5 times the time.)

mod first;
mod kernel;
mod region;
mod rounds;
mod spell;
mod spelling;
mod tables;
mod values;
mod walk;

pub use tables::{corridor_for, CharTables, CORRIDOR};

use super::heading::{self, CCW, CW, EAST, WEST};
use super::{automaton, Encoder, NEG};
use crate::engine::{Board, Command, Problem};
use crate::plan::{Placement, Plan, Sim, Tables};
use first::SoFar;
use spelling::{Backward, Scratch, Spelling};
use std::time::Instant;

/// Scale of the phrase points in the programme's values: a row move costs one unit of value.
const SCALE: i32 = 64;

/// Memory the encoder may keep the backward pass's values in, for the forward walk.
const KEEP_BYTES: usize = 64 << 20;

/// The row moves and the heading each leaves.
const ROW_MOVES: [(Command, usize); 4] = [
    (Command::W, WEST),
    (Command::E, EAST),
    (Command::CW, CW),
    (Command::CCW, CCW),
];

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
    /// Spells `plan` with the character encoder. `None` when the deadline passes first (the
    /// caller keeps its other encoding). The text always replays without error.
    pub fn encode_chars(
        &self,
        ct: &CharTables,
        plan: &Plan,
        deadline: Option<Instant>,
        stats: &mut CharStats,
    ) -> Option<String> {
        self.encode_chars_after(ct, plan, super::Opening::default(), deadline, stats)
    }

    /// As [`Encoder::encode_chars`], the plan's first `opening.units` placements taken as spelt
    /// by `opening.text` (the caller's promise: that text locks exactly them): only the rest is
    /// spelt, from the automaton's node after the opening and with its phrases counted as used.
    ///
    /// The stages: the boards before each unit; the backward pass over the units after the
    /// opening ([`Backward`]); the opening followed on the automata ([`SoFar`]); then unit after
    /// unit, the phrases whose first use counts ([`FirstUses`]), their automaton
    /// ([`FreshAutomata`]), the next unit's values for spans, and the walk with its fallbacks.
    pub fn encode_chars_after(
        &self,
        ct: &CharTables,
        plan: &Plan,
        opening: super::Opening,
        deadline: Option<Instant>,
        stats: &mut CharStats,
    ) -> Option<String> {
        let n = plan.placements.len();
        let first = opening.units.min(n);
        crate::work::add(crate::work::Op::CharsUnit, (n - first) as u64);
        let forward = spell::Forward {
            encoder: self,
            ct,
            plan,
            boards: boards_before(self.problem, plan),
            deadline,
            rep_gains: CharTables::gains(&ct.rep, &ct.rep_ids, |p| ct.repeat[p]),
        };
        let mut so_far = SoFar::new(self.table.phrases.len());
        so_far.push(ct, opening.text);
        forward.spell(first, so_far, stats)
    }

    /// The reference encoder (the character encoder before its fast programme): a backward
    /// pass over the units on the repetition automaton, then A* walks; what
    /// [`Encoder::encode_chars_after`] is tested against.
    #[doc(hidden)]
    pub fn encode_chars_reference(
        &self,
        ct: &CharTables,
        plan: &Plan,
        opening: super::Opening,
        deadline: Option<Instant>,
        stats: &mut CharStats,
    ) -> Option<String> {
        let n = plan.placements.len();
        let first = opening.units.min(n);
        // The work counts ([`crate::work`]): the units to spell here; the programme counts
        // its own cells.
        crate::work::add(crate::work::Op::CharsUnit, (n - first) as u64);
        let mut spelling = Spelling {
            encoder: self,
            ct,
            plan,
            boards: boards_before(self.problem, plan),
            deadline,
            back: Backward::default(),
        };
        let mut scratch = Scratch::default();
        spelling.back = spelling.backward(first, &mut scratch, stats)?;
        let mut so_far = SoFar::new(self.table.phrases.len());
        so_far.push(ct, opening.text);
        for u in first..n {
            if crate::stop::passed(deadline) {
                return None;
            }
            let text = spelling.spell_unit(u, &so_far, &mut scratch, stats);
            so_far.push(ct, &text);
        }
        stats.pops += scratch.bufs.pops;
        Some(so_far.text)
    }
}

#[cfg(test)]
mod tests {
    use super::automaton::{Automaton, Node};
    use super::heading::FRESH;
    use super::region::{Bufs, Region};
    use super::rounds::{Effort, PatternValues, UnitWalk, FIRST_USE_ROUNDS};
    use super::values::{values, Values};
    use super::walk::Walk;
    use super::*;
    use crate::encode::test_util::target_of;
    use crate::engine::{Game, Outcome, Problem};
    use crate::plan::UnitSpace;
    use crate::plan::{gen_locks, Lock, Scratch, Tables};
    use rand::{Rng, SeedableRng};
    use std::collections::HashMap;

    /// The reference: the best objective of any command string from the spawn that locks the
    /// unit at `target` (its member set), found by trying every character of every command
    /// with the engine's own game (which enforces the no-repeat rule), memoised on the exact
    /// state: position, positions visited on the row, and the text's last characters. The
    /// objective is the one the walk maximises: per character the gain of the automaton node it
    /// enters, minus one per row move, plus the terminal value of the node after the lock.
    /// A reference state: pivot, canonical orientation, positions visited on the row, node.
    /// With first uses ([`Reference::first`]), the state also holds the patterns spelt so far.
    type RefKey = (i64, i64, u8, Vec<(i64, u8)>, Node, u32);

    struct Reference<'a> {
        ac: &'a Automaton,
        gains: &'a [i32],
        /// Per pattern of `ac`: a value earned at its first occurrence only (empty: none).
        first: &'a [i32],
        terminal: &'a [i32],
        target: Vec<(i64, i64)>,
        memo: HashMap<RefKey, (i32, String)>,
        /// Set when the memo outgrew [`REFERENCE_STATES`]: the case is then skipped.
        aborted: bool,
    }

    /// The most states the reference may memoise: its state holds the set of positions visited
    /// on the current row, which grows exponentially on the rare wide, many-orientation case.
    const REFERENCE_STATES: usize = 20_000;

    impl Reference<'_> {
        /// The gain of entering node `a` with the patterns of `mask` spelt, and the mask after.
        fn gain(&self, a: Node, mask: u32) -> (i32, u32) {
            let mut g = self.gains[a as usize];
            let mut m = mask;
            for &j in self.ac.ends(a) {
                if let Some(&f) = self.first.get(j as usize) {
                    if m >> j & 1 == 0 {
                        g += f;
                    }
                    m |= 1 << j;
                }
            }
            (g, m)
        }

        fn best_text(
            &mut self,
            game: &Game,
            row: &[(i64, u8)],
            a: Node,
            mask: u32,
        ) -> (i32, String) {
            let piece = game.piece().expect("a unit in play");
            let unit = &game.problem().units[piece.unit];
            let mut sorted = row.to_vec();
            sorted.sort();
            let key = (
                piece.pivot.x,
                piece.pivot.y,
                unit.canon(piece.orient),
                sorted,
                a,
                mask,
            );
            if let Some(v) = self.memo.get(&key) {
                return v.clone();
            }
            if self.memo.len() > REFERENCE_STATES {
                self.aborted = true;
                return (NEG, String::new());
            }
            let mut cells: Vec<(i64, i64)> =
                game.piece_cells().iter().map(|c| (c.x, c.y)).collect();
            cells.sort();
            let mut best = (NEG, String::new());
            for c in Command::ALL {
                for ch in c.chars().bytes() {
                    let a2 = self.ac.step(a, ch);
                    let (gain, mask2) = self.gain(a2, mask);
                    let mut g = game.clone();
                    match g.step(c) {
                        Err(_) | Ok(Outcome::Ignored) => {}
                        Ok(Outcome::Locked { .. }) => {
                            let v = gain + self.terminal[a2 as usize];
                            if cells == self.target && v > best.0 {
                                best = (v, (ch as char).to_string());
                            }
                        }
                        Ok(Outcome::Moved) => {
                            let p = g.piece().expect("moved");
                            let pos = (p.pivot.x, unit.canon(p.orient));
                            let (next_row, pen) = if c.is_descent() {
                                (vec![pos], 0)
                            } else {
                                let mut r = row.to_vec();
                                r.push(pos);
                                (r, 1)
                            };
                            let (v, t) = self.best_text(&g, &next_row, a2, mask2);
                            if possible(v) && v + gain - pen > best.0 {
                                best = (v + gain - pen, format!("{}{t}", ch as char));
                            }
                        }
                    }
                }
            }
            self.memo.insert(key, best.clone());
            best
        }

        /// The objective of a text (which must lock the unit at the target).
        fn score(&self, game: &Game, text: &str) -> i32 {
            let mut g = game.clone();
            let (mut a, mut mask) = (0, 0);
            let mut total = 0;
            for ch in text.bytes() {
                let c = match Command::decode(ch as char) {
                    crate::engine::Decoded::Command(c) => c,
                    _ => panic!("not a command: {ch}"),
                };
                let cells: Vec<(i64, i64)> = {
                    let mut v: Vec<(i64, i64)> =
                        g.piece_cells().iter().map(|c| (c.x, c.y)).collect();
                    v.sort();
                    v
                };
                a = self.ac.step(a, ch);
                let (gain, m) = self.gain(a, mask);
                total += gain;
                mask = m;
                match g.step(c).expect("the walk obeys the rules") {
                    Outcome::Locked { .. } => {
                        assert_eq!(cells, self.target, "locked at the target");
                        return total + self.terminal[a as usize];
                    }
                    Outcome::Moved if !c.is_descent() => total -= 1,
                    _ => {}
                }
            }
            panic!("the text does not lock the unit: {text:?}");
        }
    }

    /// Random short phrases over the command characters, each with a descent (the encoder
    /// leaves the others out), with "ei!" among them now and then.
    fn random_phrases(rng: &mut impl Rng) -> Vec<String> {
        crate::encode::test_util::random_phrases(rng, "pbalmdkei! ", &[("ei!", 0.3)])
    }

    /// A random problem of one unit on a board of 3 to 5 x 3 to 5 (its text too), and a lock
    /// of the unit on the initial board; `None` when the draw has no lock.
    pub(super) fn tiny_case_pub(rng: &mut impl Rng) -> Option<(String, Problem, Tables, Lock)> {
        tiny_case(rng)
    }

    fn tiny_case(rng: &mut impl Rng) -> Option<(String, Problem, Tables, Lock)> {
        let (w, h) = (rng.gen_range(3..=5), rng.gen_range(3..=5));
        let unit = crate::testkit::random_unit(rng, 3, 0.4);
        let json = crate::testkit::random_problem(rng, (w, h), (2, 0.3), &[unit], (1, &[0]));
        let p = Problem::from_json(&json, std::path::Path::new("t")).ok()?;
        let tables = Tables::new(&p);
        let mut scratch = Scratch::default();
        if !gen_locks(&tables, 0, &p.board, &mut scratch) || scratch.locks.is_empty() {
            return None;
        }
        let lock = scratch.locks[rng.gen_range(0..scratch.locks.len())];
        Some((json, p, tables, lock))
    }

    /// The region of unit `sp` on `p`'s initial board towards `lock`; `None` when the spawn
    /// cannot reach it.
    fn region_of(
        sp: &UnitSpace,
        p: &Problem,
        lock: &Lock,
        corridor: Option<i64>,
        bufs: &mut Bufs,
    ) -> Option<Region> {
        let mut free = Vec::new();
        sp.free_map(&p.board, &mut free);
        let mut region = Region::default();
        region
            .build(sp, &free, lock.key, corridor, bufs)
            .then_some(region)
    }

    /// First uses count once: on tiny boards, against the reference with the patterns spelt
    /// in its state, the walk of the Lagrangian rounds is valued exactly, is never worse than
    /// the plain programme's walk (its first round) nor better than the optimum, and reaches
    /// the optimum more often than the plain walk.
    #[test]
    fn a_first_use_counts_once() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(12);
        let (mut checked, mut skipped, mut plain_best, mut rounds_best) = (0, 0, 0, 0);
        for case in 0..800 {
            let Some((json, p, tables, lock)) = tiny_case(&mut rng) else {
                continue;
            };
            let sp = &tables.spaces[0];
            let phrases = random_phrases(&mut rng);
            let ac = Automaton::new(&phrases);
            let values_of = PatternValues {
                first: phrases
                    .iter()
                    .map(|_| rng.gen_range(2..12) * SCALE)
                    .collect(),
                repeat: phrases.iter().map(|s| 2 * s.len() as i32 * SCALE).collect(),
            };
            let terminal: Vec<i32> = (0..ac.len()).map(|_| rng.gen_range(0..3) * SCALE).collect();
            let mut bufs = Bufs::default();
            let region = region_of(sp, &p, &lock, None, &mut bufs)
                .unwrap_or_else(|| panic!("case {case}: {json} lock {lock:?}"));
            let unit = UnitWalk {
                sp,
                region: &region,
                ac: &ac,
                values: &values_of,
                terminal: &terminal,
            };
            let (mut vals, mut stats) = (Values::default(), CharStats::default());
            let mut walk = |rounds| {
                let effort = Effort {
                    exact: 0,
                    budget: usize::MAX,
                    rounds,
                    deadline: None,
                };
                let mut programme = super::values::Slow {
                    bufs: &mut bufs,
                    vals: &mut vals,
                };
                unit.best(0, effort, &mut programme, &mut stats)
                    .unwrap_or_else(|| panic!("case {case}: no path"))
            };
            let (plain, relaxed) = (walk(1), walk(FIRST_USE_ROUNDS));
            let gains = ac.gains(&values_of.repeat);
            let game = Game::new(&p, 0);
            let mut reference = Reference {
                ac: &ac,
                gains: &gains,
                first: &values_of.first,
                terminal: &terminal,
                target: target_of(sp, &lock),
                memo: HashMap::new(),
                aborted: false,
            };
            let (best, best_text) =
                reference.best_text(&game, &[(game.piece().unwrap().pivot.x, 0)], 0, 0);
            if reference.aborted {
                skipped += 1;
                continue;
            }
            let (pv, rv) = (
                reference.score(&game, &plain),
                reference.score(&game, &relaxed),
            );
            assert_eq!(unit.exact(0, &plain).0, pv as i64, "case {case}: {plain:?}");
            assert_eq!(
                unit.exact(0, &relaxed).0,
                rv as i64,
                "case {case}: {relaxed:?}"
            );
            assert!(
                pv <= rv && rv <= best,
                "case {case}: {json}\nphrases {phrases:?} plain {plain:?} {pv}, rounds {relaxed:?} {rv}, best {best_text:?} {best}"
            );
            plain_best += (pv == best) as usize;
            rounds_best += (rv == best) as usize;
            checked += 1;
        }
        eprintln!(
            "{checked} cases checked ({skipped} skipped as too big): optimum reached by the plain walk {plain_best}, by the rounds {rounds_best}"
        );
        assert!(checked > 300 && skipped * 4 < checked, "{checked} cases");
        assert!(rounds_best > plain_best, "{rounds_best} <= {plain_best}");
    }

    #[test]
    fn the_walk_finds_the_best_valid_path_on_tiny_boards() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(11);
        let mut checked = 0;
        let mut rotating = 0;
        let mut skipped = 0;
        for case in 0..1500 {
            let Some((json, p, tables, lock)) = tiny_case(&mut rng) else {
                continue;
            };
            let sp = &tables.spaces[0];
            let phrases = random_phrases(&mut rng);
            let ac = Automaton::new(&phrases);
            let values_of: Vec<i32> = phrases.iter().map(|s| 2 * s.len() as i32 * SCALE).collect();
            let gains = ac.gains(&values_of);
            let terminal: Vec<i32> = (0..ac.len()).map(|_| rng.gen_range(0..3) * SCALE).collect();
            let mut bufs = Bufs::default();
            let corridor = if rng.gen_bool(0.3) { Some(1) } else { None };
            let region = region_of(sp, &p, &lock, corridor, &mut bufs).unwrap_or_else(|| {
                panic!("case {case}: {json} lock {lock:?} corridor {corridor:?}")
            });
            let mut vals = Values::default();
            values(sp, &region, &ac, &gains, &terminal, &mut bufs, &mut vals);
            let walk = Walk {
                sp,
                region: &region,
                vals: &vals,
                ac: &ac,
                gains: &gains,
                terminal: &terminal,
            };
            let mut expanded = 0;
            let text = walk
                .astar(0, usize::MAX, &mut expanded)
                .unwrap_or_else(|| panic!("case {case}: no path"));
            let game = Game::new(&p, 0);
            let target = target_of(sp, &lock);
            let mut reference = Reference {
                ac: &ac,
                gains: &gains,
                first: &[],
                terminal: &terminal,
                target,
                memo: HashMap::new(),
                aborted: false,
            };
            let got = reference.score(&game, &text);
            // The region of a corridor may leave the best path out; the walk is then only
            // valid, never better than the reference.
            let (best, best_text) =
                reference.best_text(&game, &[(game.piece().unwrap().pivot.x, 0)], 0, 0);
            if reference.aborted {
                skipped += 1;
                continue;
            }
            if corridor.is_none() {
                assert_eq!(
                    got, best,
                    "case {case}: {json}\nphrases {phrases:?} lock {lock:?} terminal {terminal:?}\nwalk {text:?} reference {best_text:?} value at spawn {}",
                    vals.at(region.spawn as usize, FRESH, 0)
                );
                // The values bound every path from above.
                assert!(
                    vals.at(region.spawn as usize, FRESH, 0) >= best,
                    "case {case}"
                );
            } else {
                assert!(got <= best, "case {case}");
            }
            // The depth-first search finds a valid path as well.
            let dfs = walk.depth_first(0, usize::MAX).expect("a path exists");
            assert!(reference.score(&game, &dfs) <= best);
            checked += 1;
            rotating += sp.rotates() as usize;
        }
        eprintln!("{checked} cases checked, {rotating} rotating, {skipped} skipped as too big");
        assert!(
            checked > 500 && rotating > 150 && skipped * 5 < checked,
            "{checked} cases, {rotating} rotating, {skipped} skipped"
        );
    }
}

#[cfg(test)]
mod opening_tests {
    use crate::encode::test_util::{Setup, SAMPLES};
    use crate::encode::{CharStats, Opening};
    use crate::engine::evaluate;
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
            let whole = encoder.encode_chars(&ct, &plan, None, &mut stats).unwrap();
            let e = evaluate(problem, seed, &whole, phrases);
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
                        None,
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
    use crate::engine::evaluate;

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
                .encode_chars(&ct, &plan, None, &mut CharStats::default())
                .unwrap();
            let e = evaluate(problem, seed, &text, phrases);
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
    use crate::engine::evaluate;

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
            .encode_chars(&ct, &plan, None, &mut CharStats::default())
            .unwrap();
        let e = evaluate(problem, 0, &text, phrases);
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

#[cfg(test)]
mod stage_tests {
    use super::first::{begun, SoFar};
    use super::region::{Bufs, Region};
    use super::values::{values, Values};
    use super::*;
    use crate::encode::test_util::{Setup, SAMPLES};
    use crate::encode::{CharStats, PhraseTable};
    use crate::engine::{evaluate, Phrases, Problem};
    use crate::plan::{gen_locks, Lock, Scratch as PlanScratch, Tables};
    use crate::plan::{State, UnitSpace};
    use rand::{Rng, SeedableRng};
    use std::collections::HashSet;

    /// The states of `sp` reachable from `from` through free states (every usable command),
    /// `from` included when free.
    fn reachable(sp: &UnitSpace, free: &[u64], from: State) -> HashSet<State> {
        let mut seen = HashSet::new();
        let mut stack = vec![from];
        while let Some(s) = stack.pop() {
            if sp.index(s).is_none() || !sp.is_free(free, s) || !seen.insert(s) {
                continue;
            }
            for &c in Command::usable(sp.rotates()) {
                stack.push(sp.step(s, c));
            }
        }
        seen
    }

    /// A region holds exactly the states reachable from the spawn from which the target can
    /// still be reached (without a corridor), every one of them can reach a lock through the
    /// region's own transitions, and the spawn is among them.
    #[test]
    fn a_region_holds_the_states_on_some_way_to_the_target() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(31);
        let mut checked = 0;
        for case in 0..400 {
            let (w, h) = (rng.gen_range(3..=6), rng.gen_range(3..=6));
            let unit = crate::testkit::random_unit(&mut rng, 3, 0.4);
            let json =
                crate::testkit::random_problem(&mut rng, (w, h), (2, 0.3), &[unit], (1, &[0]));
            let Ok(p) = Problem::from_json(&json, std::path::Path::new("t")) else {
                continue;
            };
            let tables = Tables::new(&p);
            let mut scratch = PlanScratch::default();
            if !gen_locks(&tables, 0, &p.board, &mut scratch) || scratch.locks.is_empty() {
                continue;
            }
            let lock: Lock = scratch.locks[rng.gen_range(0..scratch.locks.len())];
            let sp = &tables.spaces[0];
            let mut free = Vec::new();
            sp.free_map(&p.board, &mut free);
            let mut region = Region::default();
            assert!(
                region.build(sp, &free, lock.key, None, &mut Bufs::default()),
                "case {case}: {json}"
            );
            let on_the_way: HashSet<State> = reachable(sp, &free, sp.spawn_state())
                .into_iter()
                .filter(|&s| {
                    reachable(sp, &free, s)
                        .iter()
                        .any(|&t| sp.is_lock_state(&free, t, lock.key))
                })
                .collect();
            let got: HashSet<State> = region.states.iter().copied().collect();
            assert_eq!(got, on_the_way, "case {case}: {json}");
            assert_eq!(region.states[region.spawn as usize], sp.spawn_state());
            // Every state reaches a lock through the region's transitions.
            let mut alive: Vec<bool> = region.locks.iter().map(|&m| m != 0).collect();
            loop {
                let mut changed = false;
                for i in 0..region.states.len() {
                    if !alive[i]
                        && region.next[i]
                            .iter()
                            .any(|&n| n != NONE && alive[n as usize])
                    {
                        alive[i] = true;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
            assert!(alive.iter().all(|&a| a), "case {case}: {json}");
            checked += 1;
        }
        assert!(checked > 200, "{checked} cases");
    }

    /// `begun` finds the longest proper prefix of a phrase that a text ends with, and the
    /// descents of the rest of the phrase.
    #[test]
    fn begun_finds_the_part_of_a_phrase_already_spelt() {
        let phrases = Phrases::official();
        let table = PhraseTable::new(&phrases);
        let ia = table
            .phrases
            .iter()
            .find(|p| p.text == "ia! ia!")
            .expect("an official phrase");
        let descents_from = |d: usize| ia.cmds[d..].iter().filter(|c| c.is_descent()).count();
        assert_eq!(begun(ia, "bbbia! i"), (5, descents_from(5)));
        assert_eq!(begun(ia, "bbbi"), (1, descents_from(1)));
        assert_eq!(begun(ia, "bbb"), (0, ia.descents));
        // The whole phrase is not begun but done; its own prefix "ia!" is begun again.
        assert_eq!(begun(ia, "ia! ia!"), (3, descents_from(3)));
    }

    /// The stages on a whole game of the sample problems: the boards are those before each
    /// lock; the values the backward pass keeps are those the programme computes again; the
    /// text followed on the automata records the phrases the engine counts, piece by piece as
    /// at once; each unit's first uses are unused phrases, spans too long for the unit alone
    /// but not for it and the next; and the stages run one by one give the encoder's text.
    #[test]
    fn the_stages_keep_their_contracts_on_a_sample_game() {
        for json in SAMPLES {
            let setup = Setup::new(json);
            let (problem, table, phrases) = (&setup.problem, &setup.table, &setup.phrases);
            let (encoder, ct) = (setup.encoder(), setup.char_tables());
            let seed = problem.seeds[0];
            let plan = setup.greedy_plan(seed);
            let n = plan.placements.len();
            let mut stats = CharStats::default();
            let whole = encoder.encode_chars(&ct, &plan, None, &mut stats).unwrap();

            let mut spelling = Spelling {
                encoder: &encoder,
                ct: &ct,
                plan: &plan,
                boards: boards_before(problem, &plan),
                deadline: None,
                back: Backward::default(),
            };
            assert_eq!(spelling.boards.len(), n);
            assert_eq!(spelling.boards[0], problem.board);
            let mut free = Vec::new();
            for (u, pl) in plan.placements.iter().enumerate() {
                let sp = spelling.space(u);
                sp.free_map(&spelling.boards[u], &mut free);
                assert!(
                    sp.is_lock_state(&free, pl.lock.state, pl.lock.key),
                    "unit {u}"
                );
            }

            let mut scratch = Scratch::default();
            spelling.back = spelling.backward(0, &mut scratch, &mut stats).unwrap();
            assert!(spelling.back.enter[n].iter().all(|&v| v == 0));
            let mut kept = 0;
            for u in 0..n {
                let Some((region, vals)) = &spelling.back.saved[u] else {
                    continue;
                };
                let sp = spelling.space(u);
                sp.free_map(&spelling.boards[u], &mut free);
                let (mut again, mut again_vals) = (Region::default(), Values::default());
                let key = plan.placements[u].lock.key;
                assert!(again.build(sp, &free, key, ct.corridor, &mut scratch.bufs));
                assert_eq!(again.states, region.states, "unit {u}");
                let terminal = &spelling.back.enter[u + 1];
                let gains = &spelling.back.gains;
                values(
                    sp,
                    &again,
                    &ct.rep,
                    gains,
                    terminal,
                    &mut scratch.bufs,
                    &mut again_vals,
                );
                assert_eq!(again_vals.vals, vals.vals, "unit {u}");
                kept += 1;
            }
            assert!(kept > 0);

            let mut so_far = SoFar::new(table.phrases.len());
            for u in 0..n {
                let region = match &spelling.back.saved[u] {
                    Some((r, _)) => r,
                    None => {
                        let sp = spelling.space(u);
                        sp.free_map(&spelling.boards[u], &mut free);
                        let key = plan.placements[u].lock.key;
                        assert!(scratch.region.build(
                            sp,
                            &free,
                            key,
                            ct.corridor,
                            &mut scratch.bufs
                        ));
                        &scratch.region
                    }
                };
                let uses = spelling.first_uses(u, &so_far, region);
                let rows = spelling.rows(u);
                for &p in uses.wanted.iter().chain(&uses.spans) {
                    assert!(!so_far.used[p], "unit {u}: phrase {p} used already");
                    assert!(
                        uses.ids.binary_search(&p).is_ok(),
                        "unit {u}: {p} not in the ids"
                    );
                }
                for &p in &uses.spans {
                    assert!(!uses.wanted.contains(&p));
                    assert!(u + 1 < n, "the last unit has no span");
                    let next = spelling.rows(u + 1);
                    assert!(ct.descents[p] > rows && ct.descents[p] < rows + next);
                }
                assert!(uses.ids.windows(2).all(|w| w[0] < w[1]));
                assert_eq!(uses.ids.is_empty(), uses.is_empty());
                let text = spelling.spell_unit(u, &so_far, &mut scratch, &mut stats);
                so_far.push(&ct, &text);
            }
            assert_eq!(so_far.text, whole);

            // Followed piece by piece or at once, the automata end in the same nodes, and the
            // phrases used are those the engine counts.
            let mut at_once = SoFar::new(table.phrases.len());
            at_once.push(&ct, &whole.to_ascii_uppercase());
            assert_eq!(
                (at_once.full, at_once.rep, &at_once.used),
                (so_far.full, so_far.rep, &so_far.used)
            );
            let e = evaluate(problem, seed, &whole, phrases);
            for &p in &ct.full_ids {
                let counted = e.phrase_counts[table.phrases[p].score_index] > 0;
                assert_eq!(
                    so_far.used[p], counted,
                    "phrase {:?}",
                    table.phrases[p].text
                );
            }
        }
    }
}
