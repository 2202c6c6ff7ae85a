//! The slow obvious twin of a unit's walk, for the tests: the best objective of any command
//! string from the spawn to a target lock, found by trying every character of every command with
//! the engine's own game (which enforces the no-repeat rule); and the random cases it is tried on.

use super::automaton::{Automaton, Node};
use super::region::{Bufs, Region};
use super::{possible, NEG};
use crate::engine::{Command, Game, Outcome, Problem};
use crate::plan::{gen_locks, Lock, Scratch, Tables, UnitSpace};
use rand::Rng;
use std::collections::HashMap;

/// The slow obvious twin of the walk: the best objective of any command string from the spawn that locks the
/// unit at `target` (its member set), found by trying every character of every command
/// with the engine's own game (which enforces the no-repeat rule), memoised on the exact
/// state: position, positions visited on the row, and the text's last characters. The
/// objective is the one the walk maximises: per character the gain of the automaton node it
/// enters, minus one per row move, plus the terminal value of the node after the lock.
/// A reference state: pivot, canonical orientation, positions visited on the row, node.
/// With first uses ([`Brute::first`]), the state also holds the patterns spelt so far.
pub(super) type RefKey = (i64, i64, u8, Vec<(i64, u8)>, Node, u32);

pub(super) struct Brute<'a> {
    pub(super) ac: &'a Automaton,
    pub(super) gains: &'a [i32],
    /// Per pattern of `ac`: a value earned at its first occurrence only (empty: none).
    pub(super) first: &'a [i32],
    pub(super) terminal: &'a [i32],
    pub(super) target: Vec<(i64, i64)>,
    pub(super) memo: HashMap<RefKey, (i32, String)>,
    /// Set when the memo outgrew [`BRUTE_STATES`]: the case is then skipped.
    pub(super) aborted: bool,
}

/// The most states the reference may memoise: its state holds the set of positions visited
/// on the current row, which grows exponentially on the rare wide, many-orientation case.
pub(super) const BRUTE_STATES: usize = 20_000;

impl Brute<'_> {
    /// The gain of entering node `a` with the patterns of `mask` spelt, and the mask after.
    pub(super) fn gain(&self, a: Node, mask: u32) -> (i32, u32) {
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

    pub(super) fn best_text(
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
        if self.memo.len() > BRUTE_STATES {
            self.aborted = true;
            return (NEG, String::new());
        }
        let mut cells: Vec<(i64, i64)> = game.piece_cells().iter().map(|c| (c.x, c.y)).collect();
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
    pub(super) fn score(&self, game: &Game, text: &str) -> i32 {
        let mut g = game.clone();
        let (mut a, mut mask) = (0, 0);
        let mut total = 0;
        for ch in text.bytes() {
            let c = match Command::decode(ch as char) {
                crate::engine::Decoded::Command(c) => c,
                _ => panic!("not a command: {ch}"),
            };
            let cells: Vec<(i64, i64)> = {
                let mut v: Vec<(i64, i64)> = g.piece_cells().iter().map(|c| (c.x, c.y)).collect();
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
pub(super) fn random_phrases(rng: &mut impl Rng) -> Vec<String> {
    crate::encode::test_util::random_phrases(rng, "pbalmdkei! ", &[("ei!", 0.3)])
}

/// A random problem of one unit on a board of 3 to 5 x 3 to 5 (its text too), and a lock
/// of the unit on the initial board; `None` when the draw has no lock.
pub(super) fn tiny_case(rng: &mut impl Rng) -> Option<(String, Problem, Tables, Lock)> {
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
pub(super) fn region_of(
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
