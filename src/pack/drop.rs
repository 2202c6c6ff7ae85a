//! Puzzle 3 of `../shared/pack/PUZZLES.md` (`hextris pack drop`): drop a sequence of
//! tetrominoes into a well of width W, choosing each piece's rotation and column, so that the
//! final stack is as low as possible.
//!
//! **Coordinates.** Columns are numbered 0..W from the left; rows are counted upwards from the
//! floor (row 0 is the bottom row). A piece's column is the column of the left edge of its
//! bounding box in the chosen rotation. Rotation index r means r quarter turns *anticlockwise*
//! from the shape of index 0 (this puzzle's own convention, the opposite of puzzle 1).
//!
//! **Model.** A piece falls straight down until one of its cells would enter a filled cell; it
//! never slides under an overhang and no line is cleared. Because a falling piece can only meet
//! the top filled cell of each column, where it comes to rest depends on the skyline (the height
//! of each column) alone: holes below the skyline can never be reached again. The search state is
//! therefore the skyline, not the grid ([`search`]).
//!
//! **Canonical answer.** Among all placement vectors reaching the minimum height, the
//! lexicographically smallest vector of (rotation, column) pairs, piece 0 first: exactly the first
//! optimum the original program finds (rotation 0 before 1, column 0 before 1).
//!
//! Invariants: `1 <= W <= 16` (a skyline fits in a `u128`, one byte per column) and at most
//! [`MAX_PIECES`] pieces, so every height fits in a byte.

pub mod search;

use serde::Serialize;
use std::fmt;

/// The widest well the skyline encoding supports (one byte per column in a `u128`).
pub const MAX_WIDTH: usize = 16;

/// The longest sequence accepted: 4 rows per piece must stay below 256 so a height fits in a byte.
pub const MAX_PIECES: usize = 63;

/// The seven tetrominoes, in the order of PUZZLES.md's rotation table for this puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Piece {
    I,
    O,
    T,
    J,
    L,
    S,
    Z,
}

impl Piece {
    /// All pieces, in a fixed order.
    pub const ALL: [Piece; 7] = [
        Piece::I,
        Piece::O,
        Piece::T,
        Piece::J,
        Piece::L,
        Piece::S,
        Piece::Z,
    ];

    /// The piece named by a letter (upper or lower case), or `None`.
    pub fn from_letter(c: char) -> Option<Piece> {
        Some(match c.to_ascii_uppercase() {
            'I' => Piece::I,
            'O' => Piece::O,
            'T' => Piece::T,
            'J' => Piece::J,
            'L' => Piece::L,
            'S' => Piece::S,
            'Z' => Piece::Z,
            _ => return None,
        })
    }

    /// The piece's capital letter.
    pub fn letter(self) -> char {
        match self {
            Piece::I => 'I',
            Piece::O => 'O',
            Piece::T => 'T',
            Piece::J => 'J',
            Piece::L => 'L',
            Piece::S => 'S',
            Piece::Z => 'Z',
        }
    }

    /// The distinct rotations of the piece as PUZZLES.md draws them: rows from top to bottom,
    /// `#` filled, `/` between rows; index r is r quarter turns anticlockwise.
    fn pictures(self) -> &'static [&'static str] {
        match self {
            Piece::I => &["#/#/#/#", "####"],
            Piece::O => &["##/##"],
            Piece::T => &["###/.#.", "#./##/#.", ".#./###", ".#/##/.#"],
            Piece::J => &[".#/.#/##", "###/..#", "##/#./#.", "#../###"],
            Piece::L => &["#./#./##", "..#/###", "##/.#/.#", "###/#.."],
            Piece::S => &[".##/##.", "#./##/.#"],
            Piece::Z => &["##./.##", ".#/##/#."],
        }
    }

    /// The piece's rotations, decoded from the pictures of PUZZLES.md.
    pub fn rotations(self) -> Vec<Shape> {
        self.pictures()
            .iter()
            .map(|p| Shape::from_picture(p))
            .collect()
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// One rotation of a piece, as the well sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    /// Width of the bounding box (number of columns the piece spans).
    pub width: usize,
    /// Filled cells as (column offset, row offset from the bounding box's bottom).
    pub cells: [(u8, u8); 4],
    /// For each column offset: the lowest filled row of the piece in that column.
    pub bottom: [u8; 4],
    /// For each column offset: one above the highest filled row of the piece in that column.
    pub top: [u8; 4],
}

impl Shape {
    /// Decodes a picture such as `###/.#.` (rows top to bottom). The table is fixed and
    /// well-formed (four cells, every column of the box used), so malformed input is a bug.
    fn from_picture(picture: &str) -> Shape {
        let rows: Vec<&str> = picture.split('/').collect();
        let height = rows.len();
        let width = rows[0].len();
        let mut cells = [(0u8, 0u8); 4];
        let mut k = 0;
        let mut bottom = [u8::MAX; 4];
        let mut top = [0u8; 4];
        for (i, row) in rows.iter().enumerate() {
            let y = (height - 1 - i) as u8;
            for (x, ch) in row.chars().enumerate() {
                if ch == '#' {
                    cells[k] = (x as u8, y);
                    k += 1;
                    bottom[x] = bottom[x].min(y);
                    top[x] = top[x].max(y + 1);
                }
            }
        }
        assert_eq!(k, 4, "picture {picture} must have four cells");
        Shape {
            width,
            cells,
            bottom,
            top,
        }
    }
}

/// A parsed, validated problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub pieces: Vec<Piece>,
    pub width: usize,
    pub rotations: bool,
}

impl Problem {
    /// Parses a sequence of letters and checks the width; the error is one line naming the
    /// argument at fault.
    pub fn new(sequence: &str, width: usize, rotations: bool) -> Result<Problem, String> {
        let mut pieces = Vec::with_capacity(sequence.len());
        for (i, c) in sequence.chars().enumerate() {
            match Piece::from_letter(c) {
                Some(p) => pieces.push(p),
                None => {
                    return Err(format!(
                    "SEQUENCE: unknown piece {c:?} at position {i} (expected letters from IJLOSTZ)"
                ))
                }
            }
        }
        if pieces.is_empty() {
            return Err("SEQUENCE: empty (expected letters from IJLOSTZ)".into());
        }
        if pieces.len() > MAX_PIECES {
            return Err(format!(
                "SEQUENCE: {} pieces, at most {MAX_PIECES} are supported",
                pieces.len()
            ));
        }
        if width > MAX_WIDTH {
            return Err(format!(
                "--width {width}: at most {MAX_WIDTH} columns are supported"
            ));
        }
        for &p in &pieces {
            let rots = p.rotations();
            let usable = if rotations { &rots[..] } else { &rots[..1] };
            let narrowest = usable.iter().map(|s| s.width).min().unwrap_or(0);
            if narrowest > width {
                return Err(format!(
                    "--width {width}: below the width of piece {p} ({narrowest} columns{})",
                    if rotations { "" } else { " without rotations" }
                ));
            }
        }
        Ok(Problem {
            pieces,
            width,
            rotations,
        })
    }
}

/// Where one piece goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Placement {
    pub piece: Piece,
    /// Column of the left edge of the bounding box.
    pub column: usize,
    /// Rotation index (quarter turns anticlockwise).
    pub rotation: usize,
}

/// The canonical optimum of a problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    pub height: usize,
    pub placements: Vec<Placement>,
}

/// Drops the pieces as placed and returns the final grid, bottom row first, each cell the letter
/// of the piece covering it or `None`. Returns `None` when a placement is out of range (a
/// rotation the piece lacks, or a column that puts the piece outside the well).
pub fn simulate(width: usize, placements: &[Placement]) -> Option<Vec<Vec<Option<char>>>> {
    let mut heights = vec![0usize; width];
    let mut grid: Vec<Vec<Option<char>>> = Vec::new();
    for pl in placements {
        let rots = pl.piece.rotations();
        let shape = rots.get(pl.rotation)?;
        if pl.column + shape.width > width {
            return None;
        }
        let base = (0..shape.width)
            .map(|j| heights[pl.column + j].saturating_sub(shape.bottom[j] as usize))
            .max()
            .unwrap_or(0);
        for &(x, y) in &shape.cells {
            let (cx, cy) = (pl.column + x as usize, base + y as usize);
            while grid.len() <= cy {
                grid.push(vec![None; width]);
            }
            grid[cy][cx] = Some(pl.piece.letter());
        }
        for j in 0..shape.width {
            heights[pl.column + j] = base + shape.top[j] as usize;
        }
    }
    Some(grid)
}

/// The stack height a placement vector leaves (the highest filled row, counted from 1).
pub fn stack_height(width: usize, placements: &[Placement]) -> Option<usize> {
    simulate(width, placements).map(|g| g.len())
}

/// Solves a problem: the canonical optimum (lowest height, then lexicographically first).
pub fn solve(problem: &Problem) -> Solution {
    search::solve(problem)
}

/// The grid as text, top row first, framed by the well's walls and floor.
pub fn render(width: usize, placements: &[Placement]) -> String {
    let grid = simulate(width, placements).unwrap_or_default();
    let mut out = String::new();
    for row in grid.iter().rev() {
        out.push('|');
        out.extend(row.iter().map(|c| c.unwrap_or('.')));
        out.push_str("|\n");
    }
    out.push('+');
    out.extend(std::iter::repeat_n('-', width));
    out.push_str("+\n");
    out
}

/// The original program's summary line: `Best permutation: Z:0(0) O:0(0) ...`, each entry
/// piece:column(rotation in degrees anticlockwise).
pub fn permutation_line(placements: &[Placement]) -> String {
    let parts: Vec<String> = placements
        .iter()
        .map(|p| format!("{}:{}({})", p.piece, p.column, p.rotation * 90))
        .collect();
    format!("Best permutation: {}", parts.join(" "))
}

/// The `--json` form: `{"height": h, "placements": [{"piece", "column", "rotation"}, ...]}`.
pub fn to_json(solution: &Solution) -> String {
    #[derive(Serialize)]
    struct Out<'a> {
        height: usize,
        placements: &'a [Placement],
    }
    serde_json::to_string(&Out {
        height: solution.height,
        placements: &solution.placements,
    })
    .expect("plain structs serialise")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_have_four_cells_and_consistent_profiles() {
        for p in Piece::ALL {
            for s in p.rotations() {
                for j in 0..s.width {
                    assert!(s.bottom[j] < s.top[j], "{p:?} column {j}");
                }
                let cells: u8 = (0..s.width).map(|j| s.top[j] - s.bottom[j]).sum();
                // Every tetromino's columns are contiguous, so the profile accounts for all cells.
                assert_eq!(cells, 4, "{p:?}");
            }
        }
    }

    #[test]
    fn rotation_one_is_a_quarter_turn_anticlockwise() {
        // Rotating (x, y) anticlockwise gives (-y, x); normalise and compare with the table.
        for p in Piece::ALL {
            let rots = p.rotations();
            for r in 0..rots.len() {
                let next = &rots[(r + 1) % rots.len()];
                let mut turned: Vec<(i32, i32)> = rots[r]
                    .cells
                    .iter()
                    .map(|&(x, y)| (-(y as i32), x as i32))
                    .collect();
                let mx = turned.iter().map(|c| c.0).min().unwrap();
                let my = turned.iter().map(|c| c.1).min().unwrap();
                turned.iter_mut().for_each(|c| *c = (c.0 - mx, c.1 - my));
                turned.sort();
                let mut want: Vec<(i32, i32)> = next
                    .cells
                    .iter()
                    .map(|&(x, y)| (x as i32, y as i32))
                    .collect();
                want.sort();
                assert_eq!(turned, want, "{p:?} rotation {r}");
            }
        }
    }

    #[test]
    fn bad_input_is_rejected_with_the_argument_named() {
        assert!(Problem::new("ZOX", 6, false)
            .unwrap_err()
            .contains("SEQUENCE"));
        assert!(Problem::new("", 6, false).is_err());
        assert!(Problem::new("T", 2, false).unwrap_err().contains("--width"));
        // A vertical I fits a well of width 1, but a T does not fit in any rotation.
        assert!(Problem::new("I", 1, false).is_ok());
        assert!(Problem::new("T", 1, true).unwrap_err().contains("--width"));
        // Rotated a quarter turn, a T is two columns wide.
        assert!(Problem::new("T", 2, true).is_ok());
        assert!(Problem::new("I", 17, false).is_err());
    }

    #[test]
    fn simulate_leaves_holes_under_overhangs() {
        // An S at column 0 rests on the floor with its overhang at column 2 one row up.
        let pl = [Placement {
            piece: Piece::S,
            column: 0,
            rotation: 0,
        }];
        let g = simulate(4, &pl).unwrap();
        assert_eq!(g.len(), 2);
        assert_eq!(g[0], vec![Some('S'), Some('S'), None, None]);
        assert_eq!(g[1], vec![None, Some('S'), Some('S'), None]);
        // A column outside the well is refused.
        let bad = [Placement {
            piece: Piece::S,
            column: 2,
            rotation: 0,
        }];
        assert!(simulate(4, &bad).is_none());
    }

    #[test]
    fn summary_line_uses_degrees() {
        let pl = [
            Placement {
                piece: Piece::Z,
                column: 4,
                rotation: 1,
            },
            Placement {
                piece: Piece::O,
                column: 0,
                rotation: 0,
            },
        ];
        assert_eq!(permutation_line(&pl), "Best permutation: Z:4(90) O:0(0)");
    }
}
