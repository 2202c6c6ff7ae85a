//! Units: their six orientations and the collision tables precomputed once per problem.
//!
//! A unit is a set of member cells around a pivot. Orientation `k` (0..6) is the spawn
//! orientation turned clockwise `k` times; counter-clockwise from `k` is `k + 5`. Members are kept
//! as axial offsets from the pivot, which do not depend on the pivot's row. For the board's
//! offset coordinates the member columns do depend on the parity of the pivot's row, so the cell
//! lists and the bit masks are stored per (orientation, parity).
//!
//! Invariant: two orientations with the same member set (a symmetric unit) have the same
//! canonical orientation [`Unit::canon`]; positions are compared by (pivot, canonical
//! orientation), never by raw orientation number, which is how the rules compare member SETS.

use super::hex::{column_offset, Axial, Cell};

/// One row of a unit's collision mask: members at `(pivot.x + dx + i, pivot.y + dy)` for every bit
/// `i` set in `mask`. Bit 0 is always set, so a member lies at `dx` itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    pub dy: i64,
    pub dx: i64,
    pub mask: u64,
}

/// The shape of one orientation for pivots on rows of one parity.
#[derive(Clone, Debug, Default)]
pub struct Shape {
    /// Member offsets `(dx, dy)` from the pivot, sorted by row then column.
    pub cells: Vec<(i64, i64)>,
    /// The same members as row segments, sorted by row.
    pub segments: Vec<Segment>,
    /// Bounding box of the offsets: smallest and largest dx and dy.
    pub min_dx: i64,
    pub max_dx: i64,
    pub min_dy: i64,
    pub max_dy: i64,
}

impl Shape {
    fn new(offsets: &[Axial], parity: i64) -> Shape {
        let mut cells: Vec<(i64, i64)> = offsets
            .iter()
            .map(|a| (column_offset(a.q, a.r, parity), a.r))
            .collect();
        cells.sort_by_key(|&(dx, dy)| (dy, dx));
        let mut segments: Vec<Segment> = Vec::new();
        for &(dx, dy) in &cells {
            match segments.last_mut() {
                Some(s) if s.dy == dy && dx - s.dx < 64 => s.mask |= 1u64 << (dx - s.dx),
                _ => segments.push(Segment { dy, dx, mask: 1 }),
            }
        }
        let min_dx = cells.iter().map(|c| c.0).min().unwrap_or(0);
        let max_dx = cells.iter().map(|c| c.0).max().unwrap_or(0);
        let min_dy = cells.iter().map(|c| c.1).min().unwrap_or(0);
        let max_dy = cells.iter().map(|c| c.1).max().unwrap_or(0);
        Shape {
            cells,
            segments,
            min_dx,
            max_dx,
            min_dy,
            max_dy,
        }
    }
}

/// A unit with everything precomputed for a board of a given width.
#[derive(Clone, Debug)]
pub struct Unit {
    /// Members as axial offsets from the pivot, per orientation, sorted.
    offsets: [Vec<Axial>; 6],
    /// Per orientation, the smallest orientation with the same member set.
    canon: [u8; 6],
    /// Per orientation and pivot-row parity.
    shapes: [[Shape; 2]; 6],
    /// The pivot's cell at spawn (orientation 0).
    spawn: Cell,
}

impl Unit {
    /// Builds a unit from its members and pivot as the problem file gives them, placed for a
    /// board `width` columns wide (RULES.md section 4): moved as a rigid hex shape so that its top
    /// members are in row 0 and its left-most member in column 0, then right by
    /// `floor((width - unit width) / 2)` columns. `members` must be non-empty.
    ///
    /// The evaluator subtracts the smallest member row from every row, which distorts the shape
    /// when that row is odd (RULES.md 4, quirk a; it never happens in 2015 data). Here the shape is
    /// translated rigidly instead, so the geometry is preserved; for an even smallest row the two
    /// agree exactly.
    pub fn new(members: &[Cell], pivot: Cell, width: usize) -> Unit {
        assert!(!members.is_empty(), "a unit needs at least one member");
        let min_y = members.iter().map(|c| c.y).min().unwrap();
        let lift = |c: Cell| {
            let a = c.to_axial();
            Axial {
                q: a.q,
                r: a.r - min_y,
            }
            .to_cell()
        };
        let lifted: Vec<Cell> = members.iter().map(|&c| lift(c)).collect();
        let pivot = lift(pivot);
        let min_x = lifted.iter().map(|c| c.x).min().unwrap();
        let max_x = lifted.iter().map(|c| c.x).max().unwrap();
        let unit_width = max_x - min_x + 1;
        // div_euclid rounds toward minus infinity, so a unit wider than the board gets a negative
        // shift and some member off the board: its spawn is blocked, as documented in RULES.md B.9.
        let left = (width as i64 - unit_width).div_euclid(2);
        let shift = left - min_x;
        let spawn = Cell::new(pivot.x + shift, pivot.y);
        let p = spawn.to_axial();
        let base: Vec<Axial> = lifted
            .iter()
            .map(|c| Cell::new(c.x + shift, c.y).to_axial() - p)
            .collect();
        let offsets: [Vec<Axial>; 6] = std::array::from_fn(|k| {
            let mut v: Vec<Axial> = base.iter().map(|a| a.rotate_cw_times(k as u8)).collect();
            v.sort();
            v
        });
        let canon: [u8; 6] =
            std::array::from_fn(|k| (0..6).find(|&j| offsets[j] == offsets[k]).unwrap() as u8);
        let shapes =
            std::array::from_fn(|k| [Shape::new(&offsets[k], 0), Shape::new(&offsets[k], 1)]);
        Unit {
            offsets,
            canon,
            shapes,
            spawn,
        }
    }

    /// Number of members.
    pub fn size(&self) -> usize {
        self.offsets[0].len()
    }

    /// The pivot's cell at spawn, in orientation 0.
    pub fn spawn(&self) -> Cell {
        self.spawn
    }

    /// The smallest orientation with the same member set as `orient`.
    pub fn canon(&self, orient: u8) -> u8 {
        self.canon[orient as usize]
    }

    /// How many distinct member sets the six orientations give (1, 2, 3 or 6).
    pub fn distinct_orientations(&self) -> usize {
        (0..6).filter(|&k| self.canon[k] == k as u8).count()
    }

    /// Member offsets in axial coordinates for an orientation, sorted.
    pub fn axial_offsets(&self, orient: u8) -> &[Axial] {
        &self.offsets[orient as usize]
    }

    /// The shape of an orientation for a pivot on row `pivot_y`.
    pub fn shape(&self, orient: u8, pivot_y: i64) -> &Shape {
        &self.shapes[orient as usize][pivot_y.rem_euclid(2) as usize]
    }

    /// The member cells of the unit with its pivot at `pivot` in orientation `orient`.
    pub fn cells(&self, pivot: Cell, orient: u8) -> impl Iterator<Item = Cell> + '_ {
        self.shape(orient, pivot.y)
            .cells
            .iter()
            .map(move |&(dx, dy)| Cell::new(pivot.x + dx, pivot.y + dy))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(v: &[(i64, i64)]) -> Vec<Cell> {
        v.iter().map(|&(x, y)| Cell::new(x, y)).collect()
    }

    /// Sorts cells by row, then column.
    fn sorted(mut v: Vec<Cell>) -> Vec<Cell> {
        v.sort_by_key(|c| (c.y, c.x));
        v
    }

    #[test]
    fn spawn_centres_with_the_extra_column_on_the_right() {
        // RULES.md B.6: problem 0 unit 3, board width 10.
        let u = Unit::new(&cells(&[(0, 1), (2, 0), (2, 2)]), Cell::new(1, 1), 10);
        assert_eq!(u.spawn(), Cell::new(4, 1));
        assert_eq!(
            sorted(u.cells(u.spawn(), 0).collect()),
            cells(&[(5, 0), (3, 1), (5, 2)])
        );
        let one = Unit::new(&cells(&[(0, 0)]), Cell::new(0, 0), 10);
        assert_eq!(one.spawn(), Cell::new(4, 0));
    }

    /// The geometry's arithmetic at the 32-bit ends of the input (issue 72): a member 2^31
    /// columns or rows from its pivot keeps its distance through every turn, six turns give the
    /// spawn shape back, and nothing overflows.
    #[test]
    fn members_at_the_32_bit_ends_keep_their_distance_through_turns() {
        let (lo, hi) = (i32::MIN as i64, i32::MAX as i64);
        let hex_distance = |a: Axial| (a.q.abs() + a.r.abs() + (a.q + a.r).abs()) / 2;
        for (m, p) in [
            ((lo, 0), (0, 0)),
            ((hi, hi), (lo, lo)),
            ((lo, hi), (hi, lo)),
            ((0, lo), (0, hi)),
        ] {
            let (m, p) = (Cell::new(m.0, m.1), Cell::new(p.0, p.1));
            let u = Unit::new(&[m, Cell::new(0, 0)], p, 15);
            let d = hex_distance(m.to_axial() - p.to_axial());
            assert!(d >= 1 << 31, "{m:?} {p:?}");
            for k in 0..6u8 {
                let offs = u.axial_offsets(k);
                assert_eq!(offs.iter().map(|&a| hex_distance(a)).max(), Some(d));
                let mut back: Vec<Axial> = offs.iter().map(|a| a.rotate_cw_times(6 - k)).collect();
                back.sort();
                assert_eq!(back, u.axial_offsets(0));
                // The cells of a turn at the spawn are its axial offsets from the spawn pivot.
                let mut cells: Vec<Axial> = u
                    .cells(u.spawn(), k)
                    .map(|c| c.to_axial() - u.spawn().to_axial())
                    .collect();
                cells.sort();
                assert_eq!(cells, offs);
            }
        }
    }

    #[test]
    fn smallest_member_x_is_subtracted_from_the_pivot_too() {
        // RULES.md A.3, problem 10 unit 0.
        let u = Unit::new(&cells(&[(2, 0), (3, 0)]), Cell::new(0, 0), 10);
        assert_eq!(u.spawn(), Cell::new(2, 0));
        assert_eq!(
            sorted(u.cells(u.spawn(), 0).collect()),
            cells(&[(4, 0), (5, 0)])
        );
    }

    #[test]
    fn symmetric_units_share_canonical_orientations() {
        let single = Unit::new(&cells(&[(0, 0)]), Cell::new(0, 0), 5);
        assert_eq!(single.distinct_orientations(), 1);
        let bar = Unit::new(&cells(&[(0, 0), (2, 0)]), Cell::new(1, 0), 5);
        assert_eq!(bar.distinct_orientations(), 3);
        assert_eq!(bar.canon(3), 0);
        let domino = Unit::new(&cells(&[(0, 0), (1, 0)]), Cell::new(0, 0), 5);
        assert_eq!(domino.distinct_orientations(), 6);
    }

    #[test]
    fn negative_and_odd_rows_are_normalised_rigidly() {
        // (3,-1) is the NE neighbour of (3,0); the pair must move rigidly to rows 0 and 1.
        let u = Unit::new(&cells(&[(3, -1), (3, 0)]), Cell::new(3, 0), 10);
        let got = sorted(u.cells(u.spawn(), 0).collect());
        // After the lift the top cell must still be the NE neighbour of the bottom one.
        assert_eq!(got.len(), 2);
        let (top, bottom) = (got[0], got[1]);
        assert_eq!(top.y, 0);
        assert_eq!(bottom.y, 1);
        assert_eq!(bottom.step(crate::engine::hex::Dir::NE), top);
    }

    #[test]
    fn wide_rows_split_into_segments() {
        let members: Vec<Cell> = (0..70).map(|x| Cell::new(x, 0)).collect();
        let u = Unit::new(&members, Cell::new(0, 0), 100);
        let s = u.shape(0, 0);
        assert_eq!(s.segments.len(), 2);
        assert_eq!(s.segments[0].mask, u64::MAX);
        assert_eq!(s.segments[1].dx - s.segments[0].dx, 64);
        assert_eq!(s.segments[1].mask, (1 << 6) - 1);
    }
}
