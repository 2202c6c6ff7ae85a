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
    /// The neighbours (with whether they lie below their member) and the run ends again, as
    /// offsets in a board's row-major bit array of `row_bits` bits a row
    /// ([`crate::engine::Board::bit`]): empty until [`Outline::at_row_bits`].
    pub near_at: Vec<(i64, bool)>,
    pub ends_at: Vec<i64>,
    pub row_bits: usize,
}

impl Outline {
    /// The outline with its offsets in a board of `row_bits` bits a row.
    pub(super) fn at_row_bits(mut self, row_bits: usize) -> Outline {
        let at = |dx: i64, dy: i64| dy * row_bits as i64 + dx;
        self.near_at = self
            .neighbours
            .iter()
            .map(|n| (at(n.0, n.1), n.2))
            .collect();
        self.ends_at = self.run_ends.iter().map(|e| at(e.0, e.1)).collect();
        self.row_bits = row_bits;
        self
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
