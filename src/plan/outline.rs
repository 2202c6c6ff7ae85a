//! The outline of a unit's shape around its pivot, precomputed once per (orientation, pivot-row
//! parity) for the heuristic: the rows it spans, the cells beside its runs, and every neighbour
//! cell that is not a member (what the shape touches once locked).
//!
//! Offsets are `(dx, dy)` from the pivot in offset coordinates ([`crate::engine::hex`]); the
//! neighbours of a member depend on the parity of the board row it lies in, which is the pivot
//! row's parity plus `dy`, hence one outline per parity.

use crate::engine::{offset_step, Dir};

/// The outline of a shape around its pivot, precomputed for the heuristic: what touches it.
#[derive(Clone, Debug, Default)]
pub struct Outline {
    /// Rows of the shape: `(dy, members in that row)`.
    pub rows: Vec<(i64, usize)>,
    /// The cells just left and right of each run of members along a row.
    pub run_ends: Vec<(i64, i64)>,
    /// Every (member, direction) pair whose neighbour is not a member: the neighbour's offset
    /// and whether it lies below the member (SW or SE).
    pub neighbours: Vec<(i64, i64, bool)>,
    /// Sum of the members' `dy`.
    pub sum_dy: i64,
    /// The box of every neighbour and run end, `(dx, dy)` at its least and at its most: where
    /// it lies on the board, the heuristic reads their cells without testing the edges.
    pub lo: (i64, i64),
    pub hi: (i64, i64),
    /// The cells of the box, a row at a time, for reading each row of the board once
    /// ([`crate::engine::Board::window`] from column `lo.0`): per row `(dy, first, end)`, its
    /// cells being `near_cells[first..end]`.
    pub near_rows: Vec<(i64, u32, u32)>,
    /// Each cell that is a neighbour or a run end, once, as its column from `lo.0` and what it
    /// adds where it is filled, packed ([`NEAR_FILLED`], [`NEAR_BELOW`], [`NEAR_END`]): a cell
    /// counts once per (member, neighbour) pair and per run end, as the heuristic counts it.
    pub near_cells: Vec<(u32, u64)>,
    /// The (member, neighbour) pairs whose neighbour lies below the member.
    pub below: u32,
    /// Whether [`Outline::near_rows`] serves: the box is at most 64 columns wide (a window) and
    /// no count overflows its 16 bits of the packed sum.
    pub windowed: bool,
}

/// The field of a packed count of [`Outline::near_cells`] that counts (member, neighbour)
/// pairs, each 16 bits wide.
pub const NEAR_FILLED: u32 = 0;
/// ... the pairs whose neighbour lies below its member.
pub const NEAR_BELOW: u32 = 16;
/// ... the run ends.
pub const NEAR_END: u32 = 32;

impl Outline {
    /// Fills [`Outline::near_rows`] and [`Outline::near_cells`] from the neighbours and the run
    /// ends (and the box).
    fn pack_near(&mut self) {
        let mut cells: std::collections::BTreeMap<(i64, i64), u64> = Default::default();
        for &(dx, dy, below) in &self.neighbours {
            *cells.entry((dy, dx)).or_default() += 1 << NEAR_FILLED | (below as u64) << NEAR_BELOW;
        }
        for &(dx, dy) in &self.run_ends {
            *cells.entry((dy, dx)).or_default() += 1 << NEAR_END;
        }
        self.below = self.neighbours.iter().filter(|n| n.2).count() as u32;
        self.windowed = self.hi.0 - self.lo.0 < 64
            && self.neighbours.len() < 1 << 16
            && self.run_ends.len() < 1 << 16;
        for ((dy, dx), inc) in cells {
            let at = self.near_cells.len() as u32;
            match self.near_rows.last_mut() {
                Some(r) if r.0 == dy => r.2 = at + 1,
                _ => self.near_rows.push((dy, at, at + 1)),
            }
            self.near_cells.push(((dx - self.lo.0) as u32, inc));
        }
    }

    pub(super) fn new(cells: &[(i64, i64)], parity: i64) -> Outline {
        let mut o = Outline::default();
        let own = |x: i64, y: i64| cells.contains(&(x, y));
        for (i, &(dx, dy)) in cells.iter().enumerate() {
            o.sum_dy += dy;
            match o.rows.last_mut() {
                Some(r) if r.0 == dy => r.1 += 1,
                _ => o.rows.push((dy, 1)),
            }
            // Cells are sorted by row then column, so a run starts where the previous cell is
            // not the left neighbour and ends where the next is not the right neighbour.
            if i == 0 || cells[i - 1] != (dx - 1, dy) {
                o.run_ends.push((dx - 1, dy));
            }
            if i + 1 == cells.len() || cells[i + 1] != (dx + 1, dy) {
                o.run_ends.push((dx + 1, dy));
            }
            // The pivot row's parity decides how the rows around this member lean.
            let at = |dir| {
                let (x, y) = offset_step(dx, parity + dy, dir);
                (x, y - parity)
            };
            let around = [
                (at(Dir::W), false),
                (at(Dir::E), false),
                (at(Dir::SW), true),
                (at(Dir::SE), true),
                (at(Dir::NW), false),
                (at(Dir::NE), false),
            ]
            .map(|((x, y), below)| (x, y, below));
            o.neighbours
                .extend(around.into_iter().filter(|&(x, y, _)| !own(x, y)));
        }
        // A run end is the W or E neighbour of a member: the neighbours' box holds them.
        let near = || o.neighbours.iter().map(|n| (n.0, n.1));
        o.lo = (
            near().map(|n| n.0).min().unwrap_or(0),
            near().map(|n| n.1).min().unwrap_or(0),
        );
        o.hi = (
            near().map(|n| n.0).max().unwrap_or(0),
            near().map(|n| n.1).max().unwrap_or(0),
        );
        o.pack_near();
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lone cell touches its six neighbours, two of them below it, whatever the parity.
    #[test]
    fn a_single_cell_has_six_neighbours_two_below() {
        for parity in [0, 1] {
            let o = Outline::new(&[(0, 0)], parity);
            assert_eq!(o.rows, [(0, 1)]);
            assert_eq!(o.run_ends, [(-1, 0), (1, 0)]);
            assert_eq!(o.neighbours.len(), 6);
            let below: Vec<_> = o.neighbours.iter().filter(|n| n.2).collect();
            assert_eq!(below.len(), 2);
            // From an even row the cells below are columns -1 and 0; from an odd one, 0 and 1.
            let xs: Vec<i64> = below.iter().map(|n| n.0).collect();
            assert_eq!(xs, [parity - 1, parity]);
            assert!(below.iter().all(|n| n.1 == 1));
        }
    }

    /// A horizontal domino: one run, the shared side is not a neighbour, ten remain.
    #[test]
    fn a_domino_has_one_run_and_ten_neighbours() {
        let o = Outline::new(&[(0, 0), (1, 0)], 0);
        assert_eq!(o.rows, [(0, 2)]);
        assert_eq!(o.run_ends, [(-1, 0), (2, 0)]);
        assert_eq!(o.neighbours.len(), 10);
        assert!(!o
            .neighbours
            .iter()
            .any(|n| (n.0, n.1) == (0, 0) || (n.0, n.1) == (1, 0)));
        assert_eq!(o.sum_dy, 0);
    }

    /// The neighbours agree with the engine's hex geometry for members on any row.
    #[test]
    fn neighbours_match_the_hex_geometry() {
        use crate::engine::Cell;
        let cells = [(0, 0), (0, 1), (1, 2)];
        for parity in [0i64, 1] {
            let o = Outline::new(&cells, parity);
            let mut want = Vec::new();
            for &(dx, dy) in &cells {
                let c = Cell::new(dx, dy + parity);
                for dir in [Dir::W, Dir::E, Dir::SW, Dir::SE, Dir::NW, Dir::NE] {
                    let n = c.step(dir);
                    let rel = (n.x, n.y - parity);
                    if !cells.contains(&rel) {
                        want.push((rel.0, rel.1, matches!(dir, Dir::SW | Dir::SE)));
                    }
                }
            }
            assert_eq!(o.neighbours, want, "parity {parity}");
        }
    }
}
