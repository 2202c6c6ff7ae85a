//! Exact search for one small block: place a given multiset of totems in a w x h rectangle
//! (w, h <= 8), leaving a given number of cells empty.
//!
//! **Board.** One `u64`: cell (x, y) is bit `8 y + x`, x to the right and y up (the server's
//! convention, so coordinates need no flip). Bits outside the block start filled, so "the block is
//! full" is `filled == u64::MAX` and the first empty cell is `(!filled).trailing_zeros()`.
//!
//! **Search.** Depth-first over cells, not pieces: the first empty cell in (y, x) order must be
//! covered by the first cell of some orientation of some remaining shape, or left as a hole while
//! the hole budget lasts. The invariant `empty cells == 4 * pieces left + holes left` holds at
//! every node, so a full board means every piece is placed. Shapes are tried by decreasing count
//! left (ties in a seeded random order), which keeps the remaining multiset balanced.
//!
//! **Pruning.** The empty cells split into edge-connected regions; a region of size s needs at
//! least s mod 4 holes, so the sum over regions must not exceed the holes left. With no holes,
//! this is the classic "every region a multiple of 4" test.
//!
//! **Limits.** A node limit (for block packing, where a hard block is better re-dealt than
//! searched to the end), a deadline, and a shared stop flag. Without a limit hit the search is
//! complete: [`Outcome::Infeasible`] is a proof.

use super::shapes::{all_orientations, Kind, Orientation, KINDS};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

/// Bits of column x = 0 in every row.
const COL_FIRST: u64 = 0x0101_0101_0101_0101;
/// Bits of column x = 7 in every row.
const COL_LAST: u64 = 0x8080_8080_8080_8080;

/// A totem placed in a block: its shape and its four cells (x, y), block-relative.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    pub kind: Kind,
    pub cells: [(i32, i32); 4],
}

/// The result of a block search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A packing of every piece.
    Solved(Vec<Placed>),
    /// The search ended without limit: no packing exists.
    Infeasible,
    /// The node limit, the deadline or the stop flag ended the search first.
    Aborted,
}

/// Placement masks of every orientation at every anchor of a w x h block.
struct Geometry {
    /// `place[o][p]`: the mask of orientation o with its first cell at bit p, or 0 when it would
    /// leave the block.
    place: Vec<[u64; 64]>,
    /// The shape of each orientation.
    kinds: Vec<Kind>,
    /// Orientation indices of each shape.
    by_kind: [Vec<usize>; KINDS],
}

/// The 19 orientations, computed once.
fn orientations() -> &'static [Orientation] {
    static O: OnceLock<Vec<Orientation>> = OnceLock::new();
    O.get_or_init(all_orientations)
}

impl Geometry {
    fn new(w: usize, h: usize) -> Geometry {
        let orients = orientations();
        let mut place = vec![[0u64; 64]; orients.len()];
        for (oi, o) in orients.iter().enumerate() {
            for y in 0..h as i32 {
                for x in 0..w as i32 {
                    let mut m = 0u64;
                    let mut ok = true;
                    for &(dx, dy) in &o.offsets {
                        let (cx, cy) = (x + dx, y + dy);
                        if cx < 0 || cy < 0 || cx >= w as i32 || cy >= h as i32 {
                            ok = false;
                            break;
                        }
                        m |= 1u64 << (cy * 8 + cx);
                    }
                    if ok {
                        place[oi][(y * 8 + x) as usize] = m;
                    }
                }
            }
        }
        let mut by_kind: [Vec<usize>; KINDS] = Default::default();
        for (oi, o) in orients.iter().enumerate() {
            by_kind[o.kind.index()].push(oi);
        }
        Geometry {
            place,
            kinds: orients.iter().map(|o| o.kind).collect(),
            by_kind,
        }
    }

    /// The geometry of a w x h block, built once per size.
    fn get(w: usize, h: usize) -> &'static Geometry {
        static CACHE: OnceLock<Vec<OnceLock<Geometry>>> = OnceLock::new();
        let cache = CACHE.get_or_init(|| (0..81).map(|_| OnceLock::new()).collect());
        cache[h * 9 + w].get_or_init(|| Geometry::new(w, h))
    }
}

/// The mask of a w x h block's cells.
pub fn block_mask(w: usize, h: usize) -> u64 {
    let mut m = 0u64;
    for y in 0..h {
        for x in 0..w {
            m |= 1u64 << (y * 8 + x);
        }
    }
    m
}

/// The least number of holes the empty cells force: the sum over edge-connected regions of
/// (size mod 4). Stops counting once it exceeds `budget`.
#[inline]
fn forced_holes(empty: u64, budget: u32) -> u32 {
    let mut rest = empty;
    let mut need = 0;
    while rest != 0 {
        let mut comp = rest & rest.wrapping_neg();
        loop {
            let grown = (comp
                | (comp << 8)
                | (comp >> 8)
                | ((comp << 1) & !COL_FIRST)
                | ((comp >> 1) & !COL_LAST))
                & empty;
            if grown == comp {
                break;
            }
            comp = grown;
        }
        rest &= !comp;
        need += comp.count_ones() % 4;
        if need > budget {
            return need;
        }
    }
    need
}

/// Limits of one block search.
#[derive(Clone, Copy)]
pub struct Limits<'a> {
    /// Most nodes to expand (`u64::MAX` for none).
    pub nodes: u64,
    /// The search stops when this passes.
    pub deadline: Instant,
    /// Set by anyone to stop every search sharing it.
    pub stop: &'a AtomicBool,
}

struct Search<'a> {
    geo: &'static Geometry,
    counts: [u32; KINDS],
    /// Random tie-break rank of each shape.
    rank: [u8; KINDS],
    nodes: u64,
    limits: Limits<'a>,
    aborted: bool,
    /// Orientation and anchor bit of each piece placed so far.
    stack: Vec<(usize, u32)>,
}

impl Search<'_> {
    fn dfs(&mut self, filled: u64, holes: u32) -> bool {
        if filled == u64::MAX {
            return true;
        }
        self.nodes += 1;
        if self.nodes >= self.limits.nodes {
            self.aborted = true;
            return false;
        }
        if self.nodes & 1023 == 0
            && (self.limits.stop.load(Ordering::Relaxed) || Instant::now() >= self.limits.deadline)
        {
            self.aborted = true;
            return false;
        }
        let p = (!filled).trailing_zeros();
        let mut order = [0usize; KINDS];
        let mut k = 0;
        for t in 0..KINDS {
            if self.counts[t] > 0 {
                order[k] = t;
                k += 1;
            }
        }
        let counts = self.counts;
        let rank = self.rank;
        order[..k].sort_unstable_by_key(|&t| (std::cmp::Reverse(counts[t]), rank[t]));
        for &t in &order[..k] {
            for &oi in &self.geo.by_kind[t] {
                let m = self.geo.place[oi][p as usize];
                if m == 0 || m & filled != 0 {
                    continue;
                }
                let next = filled | m;
                if forced_holes(!next, holes) > holes {
                    continue;
                }
                self.counts[t] -= 1;
                self.stack.push((oi, p));
                if self.dfs(next, holes) {
                    return true;
                }
                self.stack.pop();
                self.counts[t] += 1;
                if self.aborted {
                    return false;
                }
            }
        }
        if holes > 0 {
            let next = filled | (1u64 << p);
            if forced_holes(!next, holes - 1) < holes && self.dfs(next, holes - 1) {
                return true;
            }
        }
        false
    }
}

/// Packs `counts[k]` totems of each shape k into a w x h block (w, h <= 8) with exactly
/// `w h - 4 * pieces` holes. `seed` only changes the order of equally frequent shapes.
pub fn solve(w: usize, h: usize, counts: [u32; KINDS], seed: u64, limits: Limits) -> Outcome {
    assert!(
        (1..=8).contains(&w) && (1..=8).contains(&h),
        "block {w}x{h}"
    );
    let pieces: u32 = counts.iter().sum();
    let area = (w * h) as u32;
    if 4 * pieces > area {
        return Outcome::Infeasible;
    }
    let holes = area - 4 * pieces;
    let mut rank: [u8; KINDS] = [0, 1, 2, 3, 4, 5, 6];
    rank.shuffle(&mut Pcg64::seed_from_u64(seed));
    let mut s = Search {
        geo: Geometry::get(w, h),
        counts,
        rank,
        nodes: 0,
        limits,
        aborted: false,
        stack: Vec::with_capacity(pieces as usize),
    };
    let start = !block_mask(w, h);
    if forced_holes(!start, holes) > holes {
        return Outcome::Infeasible;
    }
    if s.dfs(start, holes) {
        let placed = s
            .stack
            .iter()
            .map(|&(oi, p)| {
                let mut cells = [(0, 0); 4];
                let mut m = s.geo.place[oi][p as usize];
                for c in cells.iter_mut() {
                    let b = m.trailing_zeros() as i32;
                    *c = (b % 8, b / 8);
                    m &= m - 1;
                }
                Placed {
                    kind: s.geo.kinds[oi],
                    cells,
                }
            })
            .collect();
        Outcome::Solved(placed)
    } else if s.aborted {
        Outcome::Aborted
    } else {
        Outcome::Infeasible
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn limits(stop: &AtomicBool) -> Limits<'_> {
        Limits {
            nodes: u64::MAX,
            deadline: Instant::now() + Duration::from_secs(30),
            stop,
        }
    }

    fn counts(s: &str) -> [u32; KINDS] {
        let mut c = [0; KINDS];
        for ch in s.chars() {
            c[Kind::from_name(&ch.to_string()).unwrap().index()] += 1;
        }
        c
    }

    fn check(w: usize, h: usize, want: [u32; KINDS], out: &Outcome) {
        let Outcome::Solved(placed) = out else {
            panic!("not solved: {out:?}")
        };
        let mut seen = 0u64;
        let mut got = [0u32; KINDS];
        for p in placed {
            got[p.kind.index()] += 1;
            let cells = super::super::shapes::normalise(p.cells);
            assert!(p.kind.orientations().contains(&cells), "{p:?}");
            for &(x, y) in &p.cells {
                assert!(x >= 0 && y >= 0 && (x as usize) < w && (y as usize) < h);
                let b = 1u64 << (y * 8 + x);
                assert_eq!(seen & b, 0, "overlap at {x},{y}");
                seen |= b;
            }
        }
        assert_eq!(got, want);
    }

    #[test]
    fn tiles_a_4x4_with_four_i() {
        let stop = AtomicBool::new(false);
        let c = counts("IIII");
        let out = solve(4, 4, c, 1, limits(&stop));
        check(4, 4, c, &out);
    }

    #[test]
    fn odd_t_count_cannot_tile_a_square() {
        let stop = AtomicBool::new(false);
        assert_eq!(
            solve(4, 4, counts("TIII"), 1, limits(&stop)),
            Outcome::Infeasible
        );
    }

    #[test]
    fn two_o_do_not_fit_a_3x3_but_l_and_t_do() {
        let stop = AtomicBool::new(false);
        assert_eq!(
            solve(3, 3, counts("OO"), 1, limits(&stop)),
            Outcome::Infeasible
        );
        // L and J do not fit: with the J's foot against the L, the rest is never a J.
        assert_eq!(
            solve(3, 3, counts("LJ"), 1, limits(&stop)),
            Outcome::Infeasible
        );
        let c = counts("LT");
        check(3, 3, c, &solve(3, 3, c, 1, limits(&stop)));
    }

    #[test]
    fn balanced_8x8_tiles_and_holes_are_used() {
        let stop = AtomicBool::new(false);
        let c = counts("IIJJLLOOSSTTZZIO");
        check(8, 8, c, &solve(8, 8, c, 7, limits(&stop)));
        // 7 x 7 with 12 pieces leaves one hole.
        let c = counts("IJLOSTZIJLOT");
        check(7, 7, c, &solve(7, 7, c, 3, limits(&stop)));
    }

    #[test]
    fn forced_holes_counts_regions_mod_4() {
        // Two separate regions of 3 cells and 5 cells need 3 + 1 holes.
        let empty = 0b111u64 | (0b11111u64 << 16);
        assert_eq!(forced_holes(empty, 10), 4);
        // A region wrapping from x = 7 to the next row's x = 0 is two regions.
        let split = (1u64 << 7) | (1u64 << 8);
        assert_eq!(forced_holes(split, 10), 2);
    }

    #[test]
    fn node_limit_aborts_instead_of_claiming_infeasible() {
        let stop = AtomicBool::new(false);
        let l = Limits {
            nodes: 5,
            deadline: Instant::now() + Duration::from_secs(30),
            stop: &stop,
        };
        let out = solve(8, 8, counts("SSSSSSSSZZZZZZZT"), 1, l);
        assert_eq!(out, Outcome::Aborted);
    }
}
