//! The character-level forward programme for the planner: for a unit that cannot rotate, one
//! pass from its spawn values every lock at once by the repetition points the best path there
//! can spell, character by character on the phrase automaton ([`crate::encode::automaton`]),
//! the lock's own character included, starting from the automaton node the unit before left.
//! So the planner sees what the character encoder ([`crate::encode::chars`]) will spell: a chain
//! such as "ia! ia! ia!" that runs on from one unit into the next, or "ei!" whose "!" is the
//! lock.
//!
//! **Model.** A unit that cannot rotate (a 1-cell unit whose pivot is its cell, or a shape
//! symmetric under 60 degrees) can only move east or west along a row, and once it has moved
//! one way it cannot turn back: the cell behind it was visited. So the state (cell, heading,
//! automaton node) is exact for the no-repeat rule, with the heading *fresh* (arrived by a
//! descent or the spawn), *west* or *east*. The values of a row settle in one sweep each way,
//! then flow down to the next row; rows are kept two at a time, so the memory follows the
//! board's width, not its area.
//!
//! **Carry.** A lock leaves the automaton in some node; what that node is worth to the next
//! unit is not known yet (its path is not planned), so each lock is valued by the best path
//! plus a potential of the node it leaves ([`Forward::potential`]: the best gain the next few
//! characters could make from it, beyond a fresh start), and reports that node, which the
//! planner hands to the next unit. The caller takes the potential back from the next unit's
//! values, which realise it (see [`super::PhraseValuer`]). A potential from the board instead
//! (what the next unit of the source could spell from the node, less from the root) was
//! measured too: problems 17 and 19 gained by it, problem 8 and the tuning set lost.
//!
//! Only repetition points count (2 x length per occurrence): the first use of each phrase is
//! the encoders' business, and the planner would otherwise chase it unit after unit.
//!
//! **Above the stack.** The values of a row depend only on the rows above it and itself: on
//! boards that agree down to a row, they agree there, for a given unit and starting node. So the
//! programme keeps, per (unit, node, potential or not), a few checkpoints: the fresh arrivals on
//! a row [`checkpoint::MARGIN`] rows above the top of the stack ([`UnitSpace::stack_top`], or the
//! lowest lock where the unit cannot get so far), the free map's rows down to it, and the
//! values of the locks above it. A later call on a board whose rows agree with a checkpoint's
//! starts from the deepest such: on a tall board the programme then costs the rows of the stack,
//! not those of the board, and cells high above the stack (problem 18's shelf) do not stop it.
//! Below that first checkpoint, a call makes one every [`DEEPER`] rows of the stack: the boards
//! of a beam share their rows down to where their last units locked, so a sibling starts there
//! (problem 14's stack reaches row 12 of its 50: its 10 s game on the work clock took 5.6
//! seconds of one core, now 3.9). The work counted does not change: a call counts the rows a
//! checkpoint skips.
//!
//! Files: this one the tables and the programme's run over the rows; [`rows`] the steps along a
//! row and down to the next; [`checkpoint`] the checkpoints above the stack.

mod checkpoint;
mod rows;

use crate::encode::automaton::{Automaton, Node};
use crate::encode::heading::{EAST, FRESH, WEST};
use crate::encode::PhraseTable;
use crate::encode::NEG;
use crate::engine::Command;
use crate::plan::{Lock, UnitSpace};
use checkpoint::{Checkpoint, CheckpointKey, MARGIN};

/// How many characters ahead the potential of a node looks: the next unit's first few (a
/// chain such as "ia! ia!" goes on in four, " ia!"). Looking further ahead credits nodes that
/// a later unit rarely realises, and scored less (docs/tuning.md).
const POTENTIAL_CHARS: usize = 4;

/// Rows between two checkpoints of one call, below the first (see the module doc, "Above the
/// stack"): the boards of a beam share the rows above where their last units locked.
const DEEPER: i64 = 4;

/// The programme's tables for one problem and phrase table.
#[derive(Clone, Debug)]
pub struct Forward {
    ac: Automaton,
    /// Gain of entering each node: the repetition points of the phrases ending there (the
    /// tables below hold them; the tests' reference reads them here).
    #[cfg(test)]
    gains: Vec<i32>,
    /// Per node: what being in it is worth to the next unit (see the module doc).
    potential: Vec<i32>,
    /// Per command: the successors that every node reaches by it, with the gain of entering
    /// them. A character outside every phrase leads each node where it leads the root, so most
    /// transitions are of this kind: a step takes the best value of any node once for each
    /// (problem 18: 3 of 25 transitions by a descent are not).
    shared: [Vec<(Node, i32)>; 4],
    /// Per command: its other transitions, by `from`: the loops of the programme run over these
    /// lists (eight bytes an edge, for the cache).
    edges: [Vec<Edge>; 4],
    /// Without and with the potential, per node and per set of the four commands (a bit each,
    /// as a lock's commands): the best gain of locking from the node by one of them, the
    /// potential of the node it leaves included where asked, and that node; the first of the
    /// best in the order of the commands and their successors.
    lock_gains: [Vec<LockGains>; 2],
    /// Per node: the best value of a column whatever the heading (a buffer).
    best: Vec<i32>,
    checkpoints: rustc_hash::FxHashMap<CheckpointKey, Vec<Checkpoint>>,
    /// Calls that started from a checkpoint, and from one in the stack's rows (for the tests).
    resumed: usize,
    resumed_in_stack: usize,
    checkpoint_bytes: usize,
    // Buffers: the values of the current row and the fresh arrivals on the next, per column,
    // heading and node.
    cur: Vec<i32>,
    next: Vec<i32>,
}

impl Forward {
    /// The programme over the phrases of `table` that a unit without rotations can play and
    /// that descend (a phrase along one row could be spelt again and again); `None` when there
    /// is none.
    pub fn new(table: &PhraseTable) -> Option<Forward> {
        let texts: Vec<&str> = table
            .phrases
            .iter()
            .filter(|p| p.playable(1) && p.descents > 0)
            .map(|p| p.text.as_str())
            .collect();
        if texts.is_empty() {
            return None;
        }
        let ac = Automaton::new(&texts);
        let values: Vec<i32> = table
            .phrases
            .iter()
            .filter(|p| p.playable(1) && p.descents > 0)
            .map(|p| p.repetition_points(1))
            .collect();
        let gains = ac.gains(&values);
        let succ: Vec<[Vec<Node>; 4]> = (0..ac.len())
            .map(|a| {
                std::array::from_fn(|c| {
                    ac.edges(a as Node, Command::ALL[c])
                        .iter()
                        .map(|&(n, _)| n)
                        .collect()
                })
            })
            .collect();
        let potential = potential(&succ, &gains);
        let shared: [Vec<Node>; 4] = std::array::from_fn(|c| {
            (0..ac.len() as Node)
                .filter(|t| succ.iter().all(|s| s[c].contains(t)))
                .collect()
        });
        let edges = std::array::from_fn(|c| {
            (0..succ.len())
                .flat_map(|a| succ[a][c].iter().map(move |&b| (a as Node, b)))
                .filter(|(_, to)| !shared[c].contains(to))
                .map(|(from, to)| Edge {
                    from,
                    to,
                    gain: gains[to as usize],
                })
                .collect()
        });
        let shared = shared.map(|ts| ts.iter().map(|&t| (t, gains[t as usize])).collect());
        let lock_gains = [false, true].map(|with| lock_gains(&succ, &gains, &potential, with));
        Some(Forward {
            ac,
            #[cfg(test)]
            gains,
            potential,
            shared,
            edges,
            lock_gains,
            best: Vec::new(),
            checkpoints: Default::default(),
            resumed: 0,
            resumed_in_stack: 0,
            checkpoint_bytes: 0,
            cur: Vec::new(),
            next: Vec::new(),
        })
    }

    /// The automaton node after `text` from the root (for a game that starts from a kept
    /// opening).
    pub fn carry_after(&self, text: &str) -> u32 {
        self.ac.feed(0, &text.to_ascii_lowercase()) as u32
    }

    /// What being in node `a` at a unit's spawn is worth, beyond a fresh start.
    pub fn potential(&self, a: u32) -> i32 {
        self.potential[a as usize]
    }

    /// Values every lock of `locks` (same order, into `out`): the most repetition points a path
    /// from the spawn of `sp` (which must not rotate; unit `unit` of the problem) on free map
    /// `free` can spell, the lock's character included, starting in automaton node `carry`, plus
    /// the potential of the node the lock leaves; with that node. A lock no path reaches gets
    /// `None`.
    #[allow(clippy::too_many_arguments)]
    pub fn lock_values(
        &mut self,
        sp: &UnitSpace,
        unit: usize,
        free: &[u64],
        carry: u32,
        locks: &[Lock],
        potential: bool,
        out: &mut Vec<Option<(i32, u32)>>,
    ) {
        self.run(sp, (unit, carry, potential), free, locks, out);
        debug_assert!(self.cur.iter().chain(&self.next).all(|&v| v == NEG));
    }

    /// The best value of locking from the column whose values start at `base` by one of the
    /// commands `cmds`, with the node the lock leaves.
    fn lock_value(&self, base: usize, cmds: u8, with_potential: bool) -> Option<(i32, u32)> {
        let na = self.ac.len();
        let table = &self.lock_gains[with_potential as usize];
        let mask = (cmds & 15) as usize;
        let mut best: Option<(i32, u32)> = None;
        for h in 0..3 {
            let row = &self.cur[base + h * na..base + (h + 1) * na];
            for (&v, gains) in row.iter().zip(table) {
                if v <= NEG {
                    continue;
                }
                if let Some((gain, a2)) = gains[mask] {
                    if best.is_none_or(|b| v + gain > b.0) {
                        best = Some((v + gain, a2 as u32));
                    }
                }
            }
        }
        best
    }

    fn run(
        &mut self,
        sp: &UnitSpace,
        key: CheckpointKey,
        free: &[u64],
        locks: &[Lock],
        out: &mut Vec<Option<(i32, u32)>>,
    ) {
        debug_assert!(
            !sp.rotates(),
            "the programme is exact only without rotations"
        );
        out.clear();
        out.resize(locks.len(), None);
        let s0 = sp.spawn_state();
        if !sp.is_free(free, s0) || locks.is_empty() {
            return;
        }
        let (_, carry, with_potential) = key;
        let na = self.ac.len();
        let x_lo = sp.x_lo(0);
        let width = sp.row_len(0) * 64;
        // Both rows start (and are left) all impossible; only a row's free columns are written.
        if self.cur.len() != width * 3 * na {
            self.cur = vec![NEG; width * 3 * na];
            self.next = vec![NEG; width * 3 * na];
        }
        self.best.resize(na, NEG);
        // Locks by row, to be valued when their row settles.
        let mut order: Vec<usize> = (0..locks.len()).collect();
        order.sort_by_key(|&i| locks[i].state.y);
        let last_row = locks[order[order.len() - 1]].state.y;
        // A checkpoint MARGIN rows above the stack; a kept one that lies more than MARGIN rows
        // above that is made again lower (the stack went down), one that lies below it (the
        // stack grew) no longer matches the board's rows.
        let save_row = sp.stack_top(free).min(last_row + 1) - MARGIN;
        let (mut first, mut k) = (s0.y, 0);
        // The work counted so far. The rows and locks a checkpoint skips count as worked out
        // (the work it kept): which checkpoints serve depends on the boards this programme
        // valued before, and the counted work must not (a longer virtual run holds a shorter
        // run's answers, `tests/monotone.rs`: with only the rows worked out counted, one case of
        // its 200 differed).
        let mut worked = 0;
        let mut save_at = (save_row > s0.y).then_some(save_row);
        match self.resume(key, sp, free, locks, &order, out) {
            Some((row, done, work)) => {
                (first, k, worked) = (row, done, work);
                crate::work::add(crate::work::Op::ValuerChars, work);
                self.resumed_in_stack += usize::from(row > save_row + MARGIN);
                // The next checkpoint: the first of the stack's rows that lies more than MARGIN
                // rows below the one resumed from.
                save_at = save_at.map(|y| y.max(row + MARGIN + 1));
            }
            None => {
                let carry = (carry as usize).min(na - 1);
                self.cur[((s0.x - x_lo) as usize * 3 + FRESH) * na + carry] = 0;
            }
        }
        let mut cols: Vec<usize> = Vec::new();
        for y in first..sp.rows_from(s0.y).end {
            cols.clear();
            cols.extend(sp.free_in_row(free, 0, y).map(|s| (s.x - x_lo) as usize));
            let row_work = (cols.len() * na) as u64;
            crate::work::add(crate::work::Op::ValuerChars, row_work);
            if y > last_row {
                // No lock lies this low: the fresh arrivals here are dropped.
                for &xi in &cols {
                    let base = slot_base(xi, na);
                    self.cur[base..base + 3 * na].fill(NEG);
                }
                break;
            }
            if save_at == Some(y) {
                self.save(key, (sp, free), (y, worked), &order[..k], locks, out);
                save_at = Some(y + DEEPER);
            }
            worked += row_work;
            self.settle(&cols);
            // The locks of this row: a blocked command, spelt by any of its characters.
            while k < order.len() && locks[order[k]].state.y == y {
                let lock = &locks[order[k]];
                crate::work::add(crate::work::Op::ValuerChars, 12 * na as u64);
                worked += 12 * na as u64;
                let xi = (lock.state.x - x_lo) as usize;
                out[order[k]] = self.lock_value(slot_base(xi, na), lock.cmds, with_potential);
                k += 1;
            }
            if !self.descend_row(sp, free, y, &cols) {
                break;
            }
        }
    }
}

/// A transition of the automaton by a command: from a node to another, with the gain of entering
/// it.
#[derive(Clone, Copy, Debug)]
struct Edge {
    from: Node,
    to: Node,
    gain: i32,
}

/// Where the values of column `xi` start (headings and nodes follow).
#[inline]
fn slot_base(xi: usize, na: usize) -> usize {
    xi * 3 * na
}

/// One node's row of [`Forward::lock_gains`]: per set of the four commands, the best gain of
/// locking by one of them and the node it leaves.
type LockGains = [Option<(i32, Node)>; 16];

/// The table [`Forward::lock_gains`], with the potential or without.
fn lock_gains(
    succ: &[[Vec<Node>; 4]],
    gains: &[i32],
    potential: &[i32],
    with_potential: bool,
) -> Vec<LockGains> {
    succ.iter()
        .map(|by_cmd| {
            std::array::from_fn(|mask| {
                let mut best: Option<(i32, Node)> = None;
                for (c, next) in by_cmd.iter().enumerate() {
                    if mask >> c & 1 == 0 {
                        continue;
                    }
                    for &a2 in next {
                        let mut gain = gains[a2 as usize];
                        if with_potential {
                            gain += potential[a2 as usize];
                        }
                        if best.is_none_or(|b| gain > b.0) {
                            best = Some((gain, a2));
                        }
                    }
                }
                best
            })
        })
        .collect()
}

/// Per node: the best gain of the next [`POTENTIAL_CHARS`] characters from it, less the same
/// from the root (never below 0: a node is never worse than a fresh start, since a character
/// outside every phrase returns to the root).
fn potential(succ: &[[Vec<Node>; 4]], gains: &[i32]) -> Vec<i32> {
    let n = succ.len();
    let mut best = vec![0i32; n];
    for _ in 0..POTENTIAL_CHARS {
        best = (0..n)
            .map(|a| {
                succ[a]
                    .iter()
                    .flatten()
                    .map(|&b| gains[b as usize] + best[b as usize])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
    }
    best.iter().map(|&b| (b - best[0]).max(0)).collect()
}

#[cfg(test)]
mod tests {
    use super::checkpoint::LockValue;
    use super::*;
    use crate::engine::{Game, Outcome, Phrases, Problem};
    use crate::plan::{gen_locks, Scratch, Tables};
    use rand::{Rng, SeedableRng};
    use std::collections::HashMap;

    /// The reference: the most repetition points of any command string from the spawn that
    /// locks the unit at `target` (its member set), found by trying every character of every
    /// command that moves without rotating, with the engine's own game (which enforces the
    /// no-repeat rule), memoised on the exact state: pivot, the positions visited on the row,
    /// and the automaton node. The lock's character counts.
    struct Reference<'a> {
        ac: &'a Automaton,
        gains: &'a [i32],
        target: Vec<(i64, i64)>,
        memo: HashMap<(i64, i64, Vec<i64>, Node), i32>,
    }

    impl Reference<'_> {
        fn best(&mut self, game: &Game, row: &[i64], a: Node) -> i32 {
            let piece = game.piece().expect("a unit in play");
            let mut sorted = row.to_vec();
            sorted.sort();
            let key = (piece.pivot.x, piece.pivot.y, sorted, a);
            if let Some(&v) = self.memo.get(&key) {
                return v;
            }
            let mut cells: Vec<(i64, i64)> =
                game.piece_cells().iter().map(|c| (c.x, c.y)).collect();
            cells.sort();
            let mut best = NEG;
            for c in [Command::W, Command::E, Command::SW, Command::SE] {
                for ch in c.chars().bytes() {
                    let a2 = self.ac.step(a, ch);
                    let gain = self.gains[a2 as usize];
                    let mut g = game.clone();
                    match g.step(c) {
                        Err(_) | Ok(Outcome::Ignored) => {}
                        Ok(Outcome::Locked { .. }) => {
                            if cells == self.target {
                                best = best.max(gain);
                            }
                        }
                        Ok(Outcome::Moved) => {
                            let p = g.piece().expect("moved");
                            let next_row = if c.is_descent() {
                                vec![p.pivot.x]
                            } else {
                                let mut r = row.to_vec();
                                r.push(p.pivot.x);
                                r
                            };
                            let v = self.best(&g, &next_row, a2);
                            if v > NEG / 2 {
                                best = best.max(v + gain);
                            }
                        }
                    }
                }
            }
            self.memo.insert(key, best);
            best
        }
    }

    /// Random short phrases over the characters of the moves (no rotation), each with a
    /// descent, with "ei!" and "ia! ia!" among them now and then.
    fn random_phrases(rng: &mut impl Rng) -> Vec<String> {
        crate::encode::test_util::random_phrases(
            rng,
            "pbaleio! ",
            &[("ei!", 0.4), ("ia! ia!", 0.3)],
        )
    }

    /// A unit of one cell with its pivot: it cannot rotate.
    fn one_cell() -> String {
        crate::testkit::unit_json(&[(0, 0)], (0, 0))
    }

    /// A ring of six cells around an empty pivot: it cannot rotate either.
    /// A random problem of `units` on a board of `size` filled from row `rows.0` down with
    /// density `rows.1`: its JSON, the problem and its tables; `None` when it is refused.
    fn random_case(
        rng: &mut impl Rng,
        size: (usize, usize),
        rows: (usize, f64),
        units: &[String],
    ) -> Option<(String, Problem, Tables)> {
        let json = crate::testkit::random_problem(rng, size, rows, units, (1, &[0]));
        let problem = Problem::from_json(&json, std::path::Path::new("t")).ok()?;
        let tables = Tables::new(&problem);
        Some((json, problem, tables))
    }

    fn ring() -> String {
        crate::testkit::unit_json(&[(1, 0), (2, 0), (0, 1), (2, 1), (1, 2), (2, 2)], (1, 1))
    }

    /// On thousands of random boards, units that cannot rotate (one cell with its pivot, a ring
    /// of six around an empty pivot) and random phrases and carries, every lock's value equals
    /// the reference's, and the node a lock leaves is one the reference's best string can leave.
    #[test]
    fn lock_values_equal_an_exhaustive_search() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        let (mut cases, mut locks_checked) = (0, 0);
        for _ in 0..3000 {
            let (w, h) = (rng.gen_range(3..=7), rng.gen_range(3..=6));
            let unit = if rng.gen_bool(0.8) {
                one_cell()
            } else {
                ring()
            };
            let from_row = rng.gen_range(1..=h);
            let fill = rng.gen_range(0.0..0.6);
            let Some((json, problem, tables)) =
                random_case(&mut rng, (w, h), (from_row, fill), &[unit])
            else {
                continue;
            };
            let sp = &tables.spaces[0];
            assert!(!sp.rotates());
            let mut scratch = Scratch::default();
            if !gen_locks(&tables, 0, &problem.board, &mut scratch) {
                continue;
            }
            let phrases = Phrases::new(random_phrases(&mut rng));
            let table = PhraseTable::new(&phrases);
            let Some(mut fw) = Forward::new(&table) else {
                continue;
            };
            let carry = rng.gen_range(0..fw.ac.len()) as u32;
            let mut out = Vec::new();
            fw.lock_values(sp, 0, &scratch.free, carry, &scratch.locks, false, &mut out);
            let game = Game::new(&problem, 0);
            for (lock, got) in scratch.locks.iter().zip(&out) {
                let mut r = Reference {
                    ac: &fw.ac,
                    gains: &fw.gains,
                    target: crate::encode::test_util::target_of(sp, lock),
                    memo: HashMap::new(),
                };
                let spawn = game.piece().unwrap().pivot.x;
                let want = r.best(&game, &[spawn], carry as Node);
                let want = (want > NEG / 2).then_some(want);
                assert_eq!(
                    got.map(|g| g.0),
                    want,
                    "{json} phrases {:?} carry {carry} lock {:?}",
                    phrases.iter().collect::<Vec<_>>(),
                    lock.state
                );
                locks_checked += 1;
            }
            cases += 1;
        }
        println!("forward programme: {cases} boards, {locks_checked} locks checked");
        assert!(
            cases > 1000 && locks_checked > 5000,
            "{cases} {locks_checked}"
        );
    }

    /// The checkpoints above the stack change nothing: along random games on tall boards whose
    /// stacks grow and clear (units that cannot rotate, random phrases, random carries, with and
    /// without the potential), the values of one programme kept from call to call equal those
    /// of a fresh programme at each call. Half the boards have cells high above the stack (a
    /// shelf, as problem 18's), and two games share the programme, a call of one or the other
    /// at random, as a beam's boards do: each finds its own checkpoints, or none.
    #[test]
    fn checkpoints_above_the_stack_change_no_value() {
        use crate::plan::Sim;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(30);
        let units = [one_cell(), ring()];
        // Calls of the kept programme.
        let mut calls = 0;
        let (mut resumed, mut in_stack) = (0, 0);
        for _ in 0..60 {
            let (w, h) = (rng.gen_range(3..=40), rng.gen_range(8..=60));
            let (from_row, fill) = (rng.gen_range(h / 2..=h), rng.gen_range(0.0..0.7));
            let Some((json, mut problem, tables)) =
                random_case(&mut rng, (w, h), (from_row, fill), &units)
            else {
                continue;
            };
            if rng.gen_bool(0.5) {
                // A shelf of cells a few rows below the spawn.
                let y = rng.gen_range(2..=h / 3);
                for x in 0..w {
                    if rng.gen_bool(0.3) {
                        problem.board.fill(x, y);
                    }
                }
            }
            let table = PhraseTable::new(&Phrases::new(random_phrases(&mut rng)));
            let Some(mut kept) = Forward::new(&table) else {
                continue;
            };
            let mut sims = [Sim::new(&problem), Sim::new(&problem)];
            let mut scratch = Scratch::default();
            let (mut got, mut want) = (Vec::new(), Vec::new());
            for _ in 0..80 {
                let sim = &mut sims[rng.gen_range(0..2)];
                let unit = rng.gen_range(0..2);
                if !gen_locks(&tables, unit, &sim.board, &mut scratch) || scratch.locks.is_empty() {
                    break;
                }
                let sp = &tables.spaces[unit];
                let carry = rng.gen_range(0..kept.ac.len()) as u32;
                let potential = rng.gen_bool(0.7);
                let (free, locks) = (&scratch.free, &scratch.locks);
                let values = |fw: &mut Forward, out: &mut Vec<LockValue>| {
                    fw.lock_values(sp, unit, free, carry, locks, potential, out)
                };
                values(&mut kept, &mut got);
                values(
                    &mut Forward::new(&table).expect("the same table"),
                    &mut want,
                );
                assert_eq!(got, want, "{json}");
                calls += 1;
                // The lowest locks first, so that the stack grows and rows clear; now and then
                // a high one, so that the boards differ above their stacks.
                let deepest = scratch.locks.iter().map(|l| l.state.y).max().unwrap();
                let low: Vec<_> = scratch
                    .locks
                    .iter()
                    .filter(|l| l.state.y + 1 >= deepest || rng.gen_bool(0.02))
                    .collect();
                let lock = low[rng.gen_range(0..low.len())];
                sim.lock(&problem, unit, lock.state);
            }
            resumed += kept.resumed;
            in_stack += kept.resumed_in_stack;
        }
        println!(
            "checkpoints: {calls} calls, {resumed} from a checkpoint, {in_stack} in the stack"
        );
        assert!(
            calls > 2000 && resumed > 500 && in_stack > 100,
            "{calls} calls, {resumed} resumed, {in_stack} in the stack"
        );
    }
}
