//! The pruning arguments of the [`Tiler`], all sound (a state they cut has no solution): closed
//! empty regions that cannot be filled (area not a multiple of 4, or a 4-cell pocket of a shape
//! no remaining kind provides), and the three colourings (checkerboard, column and row stripes)
//! whose imbalance the remaining pieces must produce exactly.

use super::search::Search;
use super::shapes::Shape;
use super::{sign, Tiler, REGION_LIMIT};

/// How the pieces of one kind can change one colouring imbalance, in half units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Swing {
    /// Always 0.
    Zero,
    /// Always +-1.
    Forced1,
    /// 0 or +-1, as the piece chooses.
    Free1,
    /// Always +-2.
    Forced2,
    /// 0 or +-2.
    Free2,
    /// Anything else: the colouring test is switched off.
    Unknown,
}

impl Tiler {
    /// Whether the placement just made leaves the board unsolvable, by the colourings and the
    /// dead regions around the new piece.
    pub(super) fn prune_after(&mut self, cell: usize, c: usize, st: &Search) -> bool {
        if st.slack == 0 && !self.colourings_reachable(&st.imbalance) {
            return true;
        }
        // Flood fill the empty regions next to the piece, each with its own stamp; every stamp
        // of this call is at least `first`. At most 16 floods follow (4 cells, 4 neighbours), so
        // the stamps are reset well before they could wrap.
        if self.generation > u32::MAX - 32 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 0;
        }
        let first = self.generation + 1;
        let others = self.cands[c].others;
        let piece = [
            cell,
            (cell as isize + others[0]) as usize,
            (cell as isize + others[1]) as usize,
            (cell as isize + others[2]) as usize,
        ];
        let s = self.stride as isize;
        let mut waste = 0usize;
        for p in piece {
            for d in [-1, 1, -s, s] {
                let n = (p as isize + d) as usize;
                if self.filled(n) || self.stamp[n] >= first {
                    continue; // Filled, or in a region already measured.
                }
                if let Some(w) = self.closed_region_waste(n, first, st.slack == 0) {
                    waste = waste.saturating_add(w);
                    if waste > st.slack {
                        return true;
                    }
                }
            }
        }
        self.cover_on() && self.forced_waste() as usize > st.slack
    }

    /// Flood fills the empty region of `start` up to [`REGION_LIMIT`] cells. For a closed region,
    /// returns the number of its cells that must stay empty at least (with `exact`, any such
    /// cell means the region is dead, reported as `usize::MAX`); for an open one, `None`.
    ///
    /// The flood gets a fresh stamp. A cell stamped since `first` (by an earlier flood of the
    /// same pruning step) belongs to the same region, which that flood left unfinished at the
    /// limit: the region is then open too. Treating such cells as walls (as this once did)
    /// made a large region look like a small closed one and cut real solutions (issue 14).
    pub(super) fn closed_region_waste(
        &mut self,
        start: usize,
        first: u32,
        exact: bool,
    ) -> Option<usize> {
        self.generation += 1;
        let stamp = self.generation;
        let mut region = [0usize; REGION_LIMIT];
        let mut n = 0;
        let mut head = 0;
        region[n] = start;
        n += 1;
        self.stamp[start] = stamp;
        let s = self.stride as isize;
        while head < n {
            let p = region[head];
            head += 1;
            for d in [-1, 1, -s, s] {
                let q = (p as isize + d) as usize;
                if self.filled(q) || self.stamp[q] == stamp {
                    continue;
                }
                if n == REGION_LIMIT || self.stamp[q] >= first {
                    return None;
                }
                self.stamp[q] = stamp;
                region[n] = q;
                n += 1;
            }
        }
        let mut waste = n % 4;
        if n == 4 {
            let cells: Vec<(i32, i32)> = region[..4]
                .iter()
                .map(|&i| ((i % self.stride) as i32, (i / self.stride) as i32))
                .collect();
            let available = Shape::from_cells(&cells).is_some_and(|sh| {
                let f = sh.fixed_index();
                (0..self.kinds.len()).any(|k| self.counts[k] > 0 && self.kind_has[k][f])
            });
            if !available {
                waste = 4;
            }
        }
        if exact && waste > 0 {
            Some(usize::MAX)
        } else {
            Some(waste)
        }
    }

    /// Whether the remaining counts can produce the three colouring imbalances of the empty
    /// cells (checked separately per colouring, which is necessary, not sufficient).
    pub(super) fn colourings_reachable(&self, imbalance: &[i32; 3]) -> bool {
        (0..3).all(|d| self.colouring_reachable(imbalance, d))
    }

    /// The test of [`Tiler::colourings_reachable`] for colouring `d` alone.
    pub(super) fn colouring_reachable(&self, imbalance: &[i32; 3], d: usize) -> bool {
        let mut tally = [0i64; 4]; // forced1, free1, forced2, free2
        for (k, sw) in self.swings.iter().enumerate() {
            let c = self.counts[k] as i64;
            match sw[d] {
                Swing::Zero => {}
                Swing::Forced1 => tally[0] += c,
                Swing::Free1 => tally[1] += c,
                Swing::Forced2 => tally[2] += c,
                Swing::Free2 => tally[3] += c,
                Swing::Unknown if c > 0 => return true,
                Swing::Unknown => {}
            }
        }
        reachable(imbalance[d] as i64, tally)
    }

    /// The three colouring imbalances of the empty cells: checkerboard, column and row stripes.
    pub(super) fn imbalances(&self) -> [i32; 3] {
        let mut im = [0i32; 3];
        for &i in &self.order {
            if !self.filled(i) {
                let par = self.parity[i] as i32;
                let (x, y) = (par & 1, par >> 1);
                im[0] += sign(x + y);
                im[1] += sign(x);
                im[2] += sign(y);
            }
        }
        im
    }
}

/// How each colouring imbalance of a kind's shapes can vary, from the magnitudes its shapes
/// produce (the sign flips with the placement's parity, so only magnitudes matter).
pub(super) fn kind_swings(shapes: &[Shape]) -> [Swing; 3] {
    let mut out = [Swing::Zero; 3];
    for (d, o) in out.iter_mut().enumerate() {
        let mut mags: Vec<i32> = shapes
            .iter()
            .map(|s| {
                s.cells
                    .iter()
                    .map(|&(x, y)| {
                        let (x, y) = (x as i32, y as i32);
                        sign([x + y, x, y][d])
                    })
                    .sum::<i32>()
                    .abs()
            })
            .collect();
        mags.sort_unstable();
        mags.dedup();
        *o = match mags.as_slice() {
            [0] => Swing::Zero,
            [2] => Swing::Forced1,
            [0, 2] => Swing::Free1,
            [4] => Swing::Forced2,
            [0, 4] => Swing::Free2,
            _ => Swing::Unknown,
        };
    }
    out
}

/// Whether `v` (in whole cells) is a sum of: `t[0]` terms +-2, `t[1]` terms in {0, +-2},
/// `t[2]` terms +-4 and `t[3]` terms in {0, +-4}.
fn reachable(v: i64, t: [i64; 4]) -> bool {
    if v % 2 != 0 {
        return false;
    }
    // In half units: v = a + 2u, where a is a sum of t[0] terms +-1 and t[1] terms {0, +-1},
    // and u a sum of t[2] terms +-1 and t[3] terms {0, +-1}. Such a sum of n forced and f free
    // terms takes every value of [-(n + f), n + f] when f > 0, and otherwise the values of that
    // interval with the parity of n.
    let h = v / 2;
    let (r1, r2) = (t[0] + t[1], t[2] + t[3]);
    if t[1] == 0 && (h - t[0]).rem_euclid(2) != 0 {
        return false; // a has the parity of t[0], and 2u is even.
    }
    // |h - 2u| <= r1 and |u| <= r2.
    let lo = (h - r1).div_euclid(2) + i64::from((h - r1).rem_euclid(2) != 0);
    let lo = lo.max(-r2);
    let hi = (h + r1).div_euclid(2).min(r2);
    if lo > hi {
        return false;
    }
    t[3] > 0 || lo < hi || (lo - t[2]).rem_euclid(2) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reachable_matches_brute_force() {
        // Enumerate all sums for small tallies and compare.
        for a in 0..3i64 {
            for b in 0..3i64 {
                for c in 0..3i64 {
                    for d in 0..3i64 {
                        let mut sums = std::collections::HashSet::new();
                        sums.insert(0i64);
                        let terms: Vec<Vec<i64>> = std::iter::repeat_n(vec![-2, 2], a as usize)
                            .chain(std::iter::repeat_n(vec![-2, 0, 2], b as usize))
                            .chain(std::iter::repeat_n(vec![-4, 4], c as usize))
                            .chain(std::iter::repeat_n(vec![-4, 0, 4], d as usize))
                            .collect();
                        for t in terms {
                            sums = sums
                                .iter()
                                .flat_map(|s| t.iter().map(move |x| s + x))
                                .collect();
                        }
                        for v in -20..=20 {
                            assert_eq!(
                                reachable(v, [a, b, c, d]),
                                sums.contains(&v),
                                "v={v} tally={:?}",
                                [a, b, c, d]
                            );
                        }
                    }
                }
            }
        }
    }
}
