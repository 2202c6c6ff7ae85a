//! The seven tetrominoes on a square grid, their 19 fixed orientations, and puzzle 1's
//! figure/angle table.
//!
//! Coordinates: `x` is the column (growing to the right), `y` the row (growing downwards), both
//! from 0. A [`Shape`] is a set of four cells normalised so that its bounding box starts at
//! (0, 0); its cells are sorted in row-major order (by `y`, then `x`), so two equal shapes have
//! equal arrays. Mirroring is never allowed: J and L, S and Z stay distinct.
//!
//! Invariant: [`fixed`] lists each of the 19 fixed tetrominoes exactly once, and [`Figure::angles`]
//! returns, for each figure, the indices into [`fixed`] of its valid angles in the order of the
//! table of `../shared/pack/PUZZLES.md` (angle k = k quarter turns clockwise from angle 0).

use std::fmt;

/// Four cells `(x, y)` normalised to a bounding box starting at (0, 0), sorted row-major.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    /// The cells, sorted by `y` then `x`.
    pub cells: [(u8, u8); 4],
}

impl Shape {
    /// Builds a shape from any four distinct cells: shifts them to the origin and sorts them.
    /// Returns `None` unless the cells are four distinct, edge-connected cells (a tetromino).
    pub fn from_cells(cells: &[(i32, i32)]) -> Option<Shape> {
        if cells.len() != 4 {
            return None;
        }
        let min_x = cells.iter().map(|c| c.0).min()?;
        let min_y = cells.iter().map(|c| c.1).min()?;
        let mut out = [(0u8, 0u8); 4];
        for (o, &(x, y)) in out.iter_mut().zip(cells) {
            let (dx, dy) = (x - min_x, y - min_y);
            if !(0..4).contains(&dx) || !(0..4).contains(&dy) {
                return None;
            }
            *o = (dx as u8, dy as u8);
        }
        out.sort_by_key(|&(x, y)| (y, x));
        if out.windows(2).any(|w| w[0] == w[1]) {
            return None;
        }
        let shape = Shape { cells: out };
        shape.is_connected().then_some(shape)
    }

    /// Parses the table notation of PUZZLES.md: rows from top to bottom separated by `/`,
    /// `#` filled and `.` empty, e.g. `###/.#.`.
    pub fn parse(text: &str) -> Option<Shape> {
        let mut cells = Vec::new();
        for (y, row) in text.split('/').enumerate() {
            for (x, ch) in row.chars().enumerate() {
                match ch {
                    '#' => cells.push((x as i32, y as i32)),
                    '.' => {}
                    _ => return None,
                }
            }
        }
        Shape::from_cells(&cells)
    }

    /// Width of the bounding box.
    pub fn width(&self) -> usize {
        self.cells.iter().map(|c| c.0 as usize).max().unwrap_or(0) + 1
    }

    /// Height of the bounding box.
    pub fn height(&self) -> usize {
        self.cells.iter().map(|c| c.1 as usize).max().unwrap_or(0) + 1
    }

    /// Whether a cell belongs to the shape.
    pub fn contains(&self, x: i32, y: i32) -> bool {
        self.cells
            .iter()
            .any(|&(cx, cy)| cx as i32 == x && cy as i32 == y)
    }

    /// Index of this shape in [`fixed`]; every tetromino has one.
    pub fn fixed_index(&self) -> usize {
        fixed()
            .iter()
            .position(|s| s == self)
            .expect("every tetromino is one of the 19 fixed shapes")
    }

    /// Edge-connectivity of the four cells, by a tiny flood fill.
    fn is_connected(&self) -> bool {
        let mut seen = [false; 4];
        let mut stack = vec![0usize];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            let (x, y) = self.cells[i];
            for (j, &(u, v)) in self.cells.iter().enumerate() {
                let adjacent = (x.abs_diff(u) + y.abs_diff(v)) == 1;
                if adjacent && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        seen.iter().all(|&s| s)
    }
}

impl fmt::Display for Shape {
    /// Writes the table notation, e.g. `###/.#.`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..self.height() {
            if y > 0 {
                f.write_str("/")?;
            }
            for x in 0..self.width() {
                f.write_str(if self.contains(x as i32, y as i32) {
                    "#"
                } else {
                    "."
                })?;
            }
        }
        Ok(())
    }
}

/// The seven figures, in the order of the signatures (`I, J, L, O, S, T, Z`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Figure {
    I,
    J,
    L,
    O,
    S,
    T,
    Z,
}

/// Puzzle 1's angle table, verbatim from PUZZLES.md: angle k is k quarter turns clockwise.
const ANGLES: [(Figure, &[&str]); 7] = [
    (Figure::I, &["#/#/#/#", "####"]),
    (Figure::J, &[".#/.#/##", "#../###", "##/#./#.", "###/..#"]),
    (Figure::L, &["#./#./##", "###/#..", "##/.#/.#", "..#/###"]),
    (Figure::O, &["##/##"]),
    (Figure::S, &[".##/##.", "#./##/.#"]),
    (Figure::T, &["###/.#.", ".#/##/.#", ".#./###", "#./##/#."]),
    (Figure::Z, &["##./.##", ".#/##/#."]),
];

impl Figure {
    /// All figures in signature order.
    pub const ALL: [Figure; 7] = [
        Figure::I,
        Figure::J,
        Figure::L,
        Figure::O,
        Figure::S,
        Figure::T,
        Figure::Z,
    ];

    /// The figure's letter.
    pub fn letter(self) -> char {
        b"IJLOSTZ"[self as usize] as char
    }

    /// The figure named by a letter, if any.
    pub fn from_letter(c: char) -> Option<Figure> {
        Figure::ALL.into_iter().find(|f| f.letter() == c)
    }

    /// The shapes of the figure's valid angles, angle k at index k.
    pub fn angles(self) -> Vec<Shape> {
        ANGLES[self as usize]
            .1
            .iter()
            .map(|t| Shape::parse(t).expect("the angle table holds tetrominoes"))
            .collect()
    }
}

/// The 19 fixed tetrominoes: every angle of every figure, in signature then angle order.
pub fn fixed() -> &'static [Shape] {
    use std::sync::OnceLock;
    static FIXED: OnceLock<Vec<Shape>> = OnceLock::new();
    FIXED.get_or_init(|| Figure::ALL.iter().flat_map(|f| f.angles()).collect())
}

/// Number of fixed tetrominoes.
pub const FIXED_COUNT: usize = 19;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nineteen_distinct_fixed_shapes() {
        let all = fixed();
        assert_eq!(all.len(), FIXED_COUNT);
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(a, b, "{a} is listed twice");
            }
        }
    }

    /// Rotates a shape a quarter turn clockwise: (x, y) -> (h - 1 - y, x).
    fn rotate_cw(s: &Shape) -> Shape {
        let h = s.height() as i32;
        let cells: Vec<(i32, i32)> = s
            .cells
            .iter()
            .map(|&(x, y)| (h - 1 - y as i32, x as i32))
            .collect();
        Shape::from_cells(&cells).unwrap()
    }

    #[test]
    fn angle_k_is_k_clockwise_quarter_turns() {
        for f in Figure::ALL {
            let angles = f.angles();
            for k in 0..angles.len() {
                let next = rotate_cw(&angles[k]);
                assert_eq!(next, angles[(k + 1) % angles.len()], "{f:?} angle {k}");
            }
        }
    }

    #[test]
    fn rejects_non_tetrominoes() {
        assert!(Shape::parse("#.#/.#.").is_none());
        assert!(Shape::parse("##/#.").is_none());
        assert!(Shape::from_cells(&[(0, 0), (0, 0), (1, 0), (2, 0)]).is_none());
        assert_eq!(Shape::parse("###/.#.").unwrap().to_string(), "###/.#.");
    }
}
