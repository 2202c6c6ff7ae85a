//! Hex-grid geometry of the 2015 board.
//!
//! Coordinate convention: a cell is `(x, y)` = (column, row) in "odd-r" offset coordinates. Row 0
//! is the top, column 0 the left, and ODD rows are drawn shifted half a cell to the right. For
//! arithmetic (rotation, translation) cells are converted to axial coordinates
//! `q = x - floor(y / 2)`, `r = y`, where the floor division makes row -1 count as odd, as the
//! evaluator's Haskell `even` does. All coordinates are `i64`: a pivot may lie far off the board
//! (up to the `i32` range of the input) and rotating around it may double that.

/// A cell in offset coordinates (column, row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub x: i64,
    pub y: i64,
}

impl Cell {
    pub const fn new(x: i64, y: i64) -> Self {
        Cell { x, y }
    }

    /// The cell in axial coordinates.
    pub fn to_axial(self) -> Axial {
        Axial {
            q: self.x - self.y.div_euclid(2),
            r: self.y,
        }
    }

    /// The neighbour of this cell in direction `dir`.
    pub fn step(self, dir: Dir) -> Cell {
        let (dq, dr) = dir.axial();
        let a = self.to_axial();
        Axial {
            q: a.q + dq,
            r: a.r + dr,
        }
        .to_cell()
    }
}

/// The neighbour of offset cell `(x, y)` in direction `dir`, in offset coordinates: the same
/// cell as [`Cell::step`] without the axial round trip. This is the one statement of the odd-row
/// arithmetic: from an odd row the cells above and below lean one column further right.
#[inline]
pub const fn offset_step(x: i64, y: i64, dir: Dir) -> (i64, i64) {
    let odd = y & 1;
    match dir {
        Dir::E => (x + 1, y),
        Dir::W => (x - 1, y),
        Dir::SE => (x + odd, y + 1),
        Dir::SW => (x + odd - 1, y + 1),
        Dir::NE => (x + odd, y - 1),
        Dir::NW => (x + odd - 1, y - 1),
    }
}

/// A cell in axial coordinates: `q` grows to the east, `r` to the south-east.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Axial {
    pub q: i64,
    pub r: i64,
}

impl Axial {
    pub fn to_cell(self) -> Cell {
        Cell {
            x: self.q + self.r.div_euclid(2),
            y: self.r,
        }
    }

    /// Turns this offset (relative to a pivot) 60 degrees clockwise as seen on screen with y
    /// pointing down: E -> SE -> SW -> W -> NW -> NE -> E.
    pub fn rotate_cw(self) -> Axial {
        Axial {
            q: -self.r,
            r: self.q + self.r,
        }
    }

    /// Turns this offset 60 degrees counter-clockwise; the inverse of [`Axial::rotate_cw`].
    pub fn rotate_ccw(self) -> Axial {
        Axial {
            q: self.q + self.r,
            r: -self.q,
        }
    }

    /// Turns this offset clockwise `k` times (k taken mod 6).
    pub fn rotate_cw_times(self, k: u8) -> Axial {
        (0..k % 6).fold(self, |a, _| a.rotate_cw())
    }
}

impl std::ops::Add for Axial {
    type Output = Axial;
    fn add(self, o: Axial) -> Axial {
        Axial {
            q: self.q + o.q,
            r: self.r + o.r,
        }
    }
}

impl std::ops::Sub for Axial {
    type Output = Axial;
    fn sub(self, o: Axial) -> Axial {
        Axial {
            q: self.q - o.q,
            r: self.r - o.r,
        }
    }
}

/// The six neighbour directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    E,
    W,
    SE,
    SW,
    NE,
    NW,
}

impl Dir {
    /// The axial step of this direction.
    pub const fn axial(self) -> (i64, i64) {
        match self {
            Dir::E => (1, 0),
            Dir::W => (-1, 0),
            Dir::SE => (0, 1),
            Dir::SW => (-1, 1),
            Dir::NE => (1, -1),
            Dir::NW => (0, -1),
        }
    }
}

/// The column offset of a cell at axial offset `(dq, dr)` from a pivot on a row of parity
/// `parity` (0 even, 1 odd): the cell lies at `(pivot.x + dx, pivot.y + dr)`. Derived from
/// `x = q + floor(r / 2)`: shifting the pivot by two rows shifts both columns alike, so only the
/// parity matters.
pub fn column_offset(dq: i64, dr: i64, parity: i64) -> i64 {
    dq + (parity + dr).div_euclid(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_on_even_and_odd_rows() {
        // RULES.md A.1: from an even row SE keeps x and SW lowers it; from an odd row SE raises x.
        assert_eq!(Cell::new(4, 0).step(Dir::SE), Cell::new(4, 1));
        assert_eq!(Cell::new(4, 0).step(Dir::SW), Cell::new(3, 1));
        assert_eq!(Cell::new(4, 1).step(Dir::SE), Cell::new(5, 2));
        assert_eq!(Cell::new(4, 1).step(Dir::SW), Cell::new(4, 2));
        assert_eq!(Cell::new(4, 1).step(Dir::NW), Cell::new(4, 0));
        assert_eq!(Cell::new(4, 1).step(Dir::NE), Cell::new(5, 0));
        assert_eq!(Cell::new(4, 2).step(Dir::NW), Cell::new(3, 1));
        assert_eq!(Cell::new(4, 2).step(Dir::E), Cell::new(5, 2));
        assert_eq!(Cell::new(4, 2).step(Dir::W), Cell::new(3, 2));
    }

    #[test]
    fn negative_rows_count_as_odd() {
        // Row -1 is odd, so its NW neighbour... and SE neighbour behave like an odd row's.
        assert_eq!(Cell::new(0, -1).step(Dir::SE), Cell::new(1, 0));
        assert_eq!(Cell::new(0, -1).step(Dir::SW), Cell::new(0, 0));
        for y in -5..5 {
            for x in -5..5 {
                let c = Cell::new(x, y);
                assert_eq!(c.to_axial().to_cell(), c);
            }
        }
    }

    fn rotate_about(pivot: Cell, cell: Cell, cw: bool) -> Cell {
        let p = pivot.to_axial();
        let d = cell.to_axial() - p;
        let d = if cw { d.rotate_cw() } else { d.rotate_ccw() };
        (p + d).to_cell()
    }

    #[test]
    fn rotations_on_even_and_odd_rows() {
        // RULES.md A.2.
        assert_eq!(
            rotate_about(Cell::new(0, 0), Cell::new(1, 0), true),
            Cell::new(0, 1)
        );
        assert_eq!(
            rotate_about(Cell::new(0, 0), Cell::new(1, 0), false),
            Cell::new(0, -1)
        );
        assert_eq!(
            rotate_about(Cell::new(0, 1), Cell::new(1, 1), true),
            Cell::new(1, 2)
        );
        assert_eq!(
            rotate_about(Cell::new(0, 1), Cell::new(1, 1), false),
            Cell::new(1, 0)
        );
    }

    #[test]
    fn clockwise_cycles_through_the_six_directions() {
        let order = [Dir::E, Dir::SE, Dir::SW, Dir::W, Dir::NW, Dir::NE];
        for i in 0..6 {
            let (q, r) = order[i].axial();
            let (q2, r2) = order[(i + 1) % 6].axial();
            assert_eq!(Axial { q, r }.rotate_cw(), Axial { q: q2, r: r2 });
            assert_eq!(Axial { q: q2, r: r2 }.rotate_ccw(), Axial { q, r });
        }
    }

    #[test]
    fn pivot_outside_the_unit() {
        // RULES.md A.3, problem 20 unit 0 at spawn: pivot (7,5), cells (6,0),(8,0).
        let p = Cell::new(7, 5);
        let cw: Vec<_> = [Cell::new(6, 0), Cell::new(8, 0)]
            .iter()
            .map(|&c| rotate_about(p, c, true))
            .collect();
        assert_eq!(cw, vec![Cell::new(10, 1), Cell::new(11, 3)]);
        let ccw: Vec<_> = [Cell::new(6, 0), Cell::new(8, 0)]
            .iter()
            .map(|&c| rotate_about(p, c, false))
            .collect();
        assert_eq!(ccw, vec![Cell::new(3, 4), Cell::new(4, 2)]);
    }

    #[test]
    fn column_offset_matches_conversion() {
        for py in -3..4i64 {
            for dq in -4..5 {
                for dr in -4..5 {
                    let pivot = Cell::new(7, py);
                    let c = (pivot.to_axial() + Axial { q: dq, r: dr }).to_cell();
                    assert_eq!(c.x - pivot.x, column_offset(dq, dr, py.rem_euclid(2)));
                    assert_eq!(c.y - pivot.y, dr);
                }
            }
        }
    }
}
