//! The character-level forward programme for the planner: for a unit that cannot rotate, one
//! pass from its spawn values every lock at once by the repetition points the best path there
//! can spell, character by character on the phrase automaton ([`super::automaton`]), the lock's
//! own character included, starting from the automaton node the unit before left. So the
//! planner sees what the character encoder ([`super::chars`]) will spell: a chain such as
//! "ia! ia! ia!" that runs on from one unit into the next, or "ei!" whose "!" is the lock.
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

use super::automaton::{Automaton, Node};
use super::PhraseTable;
use crate::engine::Command;
use crate::plan::{bits, Lock, UnitSpace};

/// Value of an impossible state.
const NEG: i32 = i32::MIN / 4;

/// Headings along a row.
const FRESH: usize = 0;
const WEST: usize = 1;
const EAST: usize = 2;

/// How many characters ahead the potential of a node looks: the next unit's first few (a
/// chain such as "ia! ia!" goes on in four, " ia!"). Looking eight ahead credited nodes that
/// a later unit rarely realises: problem 8 at 10 attempts 21,170 against 21,305 with four, and
/// the tuning set of random problems 184,298 against 184,482 (at half that potential).
const POTENTIAL_CHARS: usize = 4;

/// The programme's tables for one problem and phrase table.
#[derive(Clone, Debug)]
pub struct Forward {
    ac: Automaton,
    /// Gain of entering each node: the repetition points of the phrases ending there.
    gains: Vec<i32>,
    /// Per node: what being in it is worth to the next unit (see the module doc).
    potential: Vec<i32>,
    /// Per node and command: the distinct successor nodes.
    succ: Vec<[Vec<Node>; 4]>,
    /// Per command: its transitions `(from, to, gain of entering to)`, by `from`: the loops of
    /// the programme run over these lists.
    edges: [Vec<(usize, usize, i32)>; 4],
    /// Per node: the best value of a column whatever the heading (a buffer).
    best: Vec<i32>,
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
        let edges = std::array::from_fn(|c| {
            (0..succ.len())
                .flat_map(|a| succ[a][c].iter().map(move |&b| (a, b as usize)))
                .map(|(a, b)| (a, b, gains[b]))
                .collect()
        });
        Some(Forward {
            ac,
            gains,
            potential,
            succ,
            edges,
            best: Vec::new(),
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
    /// from the spawn of `sp` (which must not rotate) on free map `free` can spell, the lock's
    /// character included, starting in automaton node `carry`, plus the potential of the node
    /// the lock leaves; with that node. A lock no path reaches gets `None`.
    pub fn lock_values(
        &mut self,
        sp: &UnitSpace,
        free: &[u64],
        carry: u32,
        locks: &[Lock],
        potential: bool,
        out: &mut Vec<Option<(i32, u32)>>,
    ) {
        self.run(sp, free, carry, locks, potential, out);
        debug_assert!(self.cur.iter().chain(&self.next).all(|&v| v == NEG));
    }

    /// The best value of locking from the column whose values start at `base` by one of the
    /// commands `cmds`, with the node the lock leaves.
    fn lock_value(&self, base: usize, cmds: u8, with_potential: bool) -> Option<(i32, u32)> {
        let na = self.ac.len();
        let mut best: Option<(i32, u32)> = None;
        for h in 0..3 {
            for a in 0..na {
                let v = self.cur[base + h * na + a];
                if v <= NEG {
                    continue;
                }
                for c in 0..4 {
                    if cmds >> c & 1 == 0 {
                        continue;
                    }
                    for &a2 in &self.succ[a][c] {
                        let mut total = v + self.gains[a2 as usize];
                        if with_potential {
                            total += self.potential[a2 as usize];
                        }
                        if best.is_none_or(|b| total > b.0) {
                            best = Some((total, a2 as u32));
                        }
                    }
                }
            }
        }
        best
    }

    fn run(
        &mut self,
        sp: &UnitSpace,
        free: &[u64],
        carry: u32,
        locks: &[Lock],
        with_potential: bool,
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
        let na = self.ac.len();
        let x_lo = sp.x_lo(0);
        let width = sp.row_len(0) * 64;
        let slot = |xi: usize, h: usize, a: usize| (xi * 3 + h) * na + a;
        // Both rows start (and are left) all impossible; only a row's free columns are written.
        if self.cur.len() != width * 3 * na {
            self.cur = vec![NEG; width * 3 * na];
            self.next = vec![NEG; width * 3 * na];
        }
        let carry = (carry as usize).min(na - 1);
        self.cur[slot((s0.x - x_lo) as usize, FRESH, carry)] = 0;
        // Locks by row, to be valued when their row settles.
        let mut order: Vec<usize> = (0..locks.len()).collect();
        order.sort_by_key(|&i| locks[i].state.y);
        let last_row = locks[order[order.len() - 1]].state.y;
        let mut k = 0;
        let mut cols: Vec<usize> = Vec::new();
        for y in sp.rows_from(s0.y) {
            cols.clear();
            cols.extend(sp.free_in_row(free, 0, y).map(|s| (s.x - x_lo) as usize));
            if y > last_row {
                // No lock lies this low: the fresh arrivals here are dropped.
                for &xi in &cols {
                    let base = slot_base(xi, na);
                    self.cur[base..base + 3 * na].fill(NEG);
                }
                break;
            }
            // East: from a fresh arrival or going east, one step on; west, the mirror.
            for j in 1..cols.len() {
                let (p, xi) = (cols[j - 1], cols[j]);
                if p + 1 == xi {
                    self.step_along(p, xi, EAST);
                }
            }
            for j in (0..cols.len().saturating_sub(1)).rev() {
                let (p, xi) = (cols[j + 1], cols[j]);
                if xi + 1 == p {
                    self.step_along(p, xi, WEST);
                }
            }
            // The locks of this row: a blocked command, spelt by any of its characters.
            while k < order.len() && locks[order[k]].state.y == y {
                let lock = &locks[order[k]];
                let xi = (lock.state.x - x_lo) as usize;
                out[order[k]] = self.lock_value(slot_base(xi, na), lock.cmds, with_potential);
                k += 1;
            }
            // Down: descents arrive fresh on the next row.
            let [sw, se] = [Command::SW, Command::SE].map(|c| {
                let s = sp.step(crate::plan::State { x: x_lo, y, o: 0 }, c);
                s.x - x_lo
            });
            let below = sp.row(0, y + 1).map_or(&[][..], |(b, n)| &free[b..b + n]);
            let mut any = false;
            for &xi in &cols {
                let targets = [(Command::SW, sw), (Command::SE, se)].map(|(c, dx)| {
                    let nxi = xi as i64 + dx;
                    let open = nxi >= 0 && (nxi as usize) < below.len() * 64;
                    (open && bits::get(below, nxi as usize)).then_some((c, nxi as usize))
                });
                if targets.iter().any(Option::is_some) {
                    any |= self.descend(xi, targets);
                }
            }
            // The row is done: its values go (only its free columns were written), and the fresh
            // arrivals on the next row become the current row.
            for &xi in &cols {
                let base = slot_base(xi, na);
                self.cur[base..base + 3 * na].fill(NEG);
            }
            std::mem::swap(&mut self.cur, &mut self.next);
            if !any {
                break;
            }
        }
    }
}

impl Forward {
    /// One step along a row from column `p` to its neighbour `xi`, heading `heading` (east or
    /// west): from a fresh arrival at `p` or one going that way already.
    fn step_along(&mut self, p: usize, xi: usize, heading: usize) {
        let na = self.ac.len();
        let Forward {
            cur, best, edges, ..
        } = self;
        best.clear();
        best.extend(
            (0..na).map(|a| cur[(p * 3 + FRESH) * na + a].max(cur[(p * 3 + heading) * na + a])),
        );
        if best.iter().all(|&v| v <= NEG) {
            return;
        }
        let cmd = if heading == EAST {
            Command::E
        } else {
            Command::W
        };
        let base = (xi * 3 + heading) * na;
        for &(a, b, gain) in &edges[cmd as usize] {
            let v = best[a];
            if v > NEG {
                let t = &mut cur[base + b];
                *t = (*t).max(v + gain);
            }
        }
    }

    /// The descents from column `xi` into the free columns `targets` of the next row (by SW and
    /// SE), where they arrive fresh; whether any value there rose. A descent's value does not
    /// depend on the heading it leaves, so the best of the three is carried.
    fn descend(&mut self, xi: usize, targets: [Option<(Command, usize)>; 2]) -> bool {
        let na = self.ac.len();
        let Forward {
            cur,
            next,
            best,
            edges,
            ..
        } = self;
        let base = slot_base(xi, na);
        best.clear();
        best.extend((0..na).map(|a| {
            cur[base + a]
                .max(cur[base + na + a])
                .max(cur[base + 2 * na + a])
        }));
        if best.iter().all(|&v| v <= NEG) {
            return false;
        }
        let mut any = false;
        for (c, nxi) in targets.into_iter().flatten() {
            let to = (nxi * 3 + FRESH) * na;
            for &(a, b, gain) in &edges[c as usize] {
                let v = best[a];
                if v > NEG && v + gain > next[to + b] {
                    next[to + b] = v + gain;
                    any = true;
                }
            }
        }
        any
    }
}

/// Where the values of column `xi` start (headings and nodes follow).
#[inline]
fn slot_base(xi: usize, na: usize) -> usize {
    xi * 3 * na
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

    /// On thousands of random boards, units that cannot rotate (one cell with its pivot, a ring
    /// of six around an empty pivot) and random phrases and carries, every lock's value equals
    /// the reference's, and the node a lock leaves is one the reference's best string can leave.
    #[test]
    fn lock_values_equal_an_exhaustive_search() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        let ring: Vec<(i64, i64)> = vec![(1, 0), (2, 0), (0, 1), (2, 1), (1, 2), (2, 2)];
        let (mut cases, mut locks_checked) = (0, 0);
        for _ in 0..3000 {
            let (w, h) = (rng.gen_range(3..=7), rng.gen_range(3..=6));
            let unit = if rng.gen_bool(0.8) {
                crate::testkit::unit_json(&[(0, 0)], (0, 0))
            } else {
                crate::testkit::unit_json(&ring, (1, 1))
            };
            let from_row = rng.gen_range(1..=h);
            let fill = rng.gen_range(0.0..0.6);
            let json = crate::testkit::random_problem(
                &mut rng,
                (w, h),
                (from_row, fill),
                &[unit],
                (1, &[0]),
            );
            let Ok(problem) = Problem::from_json(&json, std::path::Path::new("t")) else {
                continue;
            };
            let tables = Tables::new(&problem);
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
            fw.lock_values(sp, &scratch.free, carry, &scratch.locks, false, &mut out);
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
}
