//! The board: a bitset of rows, any width and height.
//!
//! Each row is `stride` 64-bit words; bit `x % 64` of word `x / 64` is column `x`. The bits past
//! the last column are set, so off-board counts as filled and a full row is simply a row whose
//! words are all ones. The padding is at least 64 bits wide, so reading 64 bits starting at any
//! on-board column never leaves the row and sees filled cells past the right edge.
//!
//! Coordinates follow [`super::hex`]: row 0 at the top, odd rows shifted right.

use super::hex::Cell;
use super::unit::Shape;
use std::fmt;

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    width: usize,
    height: usize,
    stride: usize,
    words: Vec<u64>,
}

impl Board {
    /// The bits a row of a board of `width` columns takes, padding included: cell `(x, y)` is
    /// bit `y * row_bits(width) + x` of the board.
    pub fn row_bits(width: usize) -> usize {
        (width.div_ceil(64) + 1) * 64
    }

    /// An empty board. `width` and `height` must be at least 1.
    pub fn new(width: usize, height: usize) -> Board {
        let stride = Board::row_bits(width) / 64;
        let mut b = Board {
            width,
            height,
            stride,
            words: vec![0; stride * height],
        };
        for y in 0..height {
            b.reset_row(y);
        }
        b
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// Whether the cell is filled; cells off the board count as filled.
    pub fn is_filled(&self, x: i64, y: i64) -> bool {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return true;
        }
        let (x, y) = (x as usize, y as usize);
        self.words[y * self.stride + x / 64] >> (x % 64) & 1 == 1
    }

    /// Fills an on-board cell.
    pub fn fill(&mut self, x: usize, y: usize) {
        debug_assert!(x < self.width && y < self.height);
        self.words[y * self.stride + x / 64] |= 1 << (x % 64);
    }

    /// The 64 cells of row `y` from column `x` on, as bits (bit 0 = column `x`). Requires
    /// `x < width` and `y < height`; cells past the right edge read as filled.
    #[inline]
    pub fn window(&self, y: usize, x: usize) -> u64 {
        let base = y * self.stride + x / 64;
        let b = x % 64;
        let lo = self.words[base] >> b;
        if b == 0 {
            lo
        } else {
            lo | self.words[base + 1] << (64 - b)
        }
    }

    /// Whether a unit of this shape with its pivot at `pivot` lies entirely on empty cells of
    /// the board.
    #[inline]
    pub fn fits(&self, shape: &Shape, pivot: Cell) -> bool {
        shape.segments.iter().all(|s| {
            let y = pivot.y + s.dy;
            let x = pivot.x + s.dx;
            y >= 0
                && x >= 0
                && (y as u64) < self.height as u64
                && (x as u64) < self.width as u64
                && self.window(y as usize, x as usize) & s.mask == 0
        })
    }

    /// Fills the cells of a shape placed at `pivot`. The shape must fit.
    pub fn place(&mut self, shape: &Shape, pivot: Cell) {
        debug_assert!(self.fits(shape, pivot));
        for &(dx, dy) in &shape.cells {
            self.fill((pivot.x + dx) as usize, (pivot.y + dy) as usize);
        }
    }

    /// Whether every cell of row `y` is filled.
    pub fn row_is_full(&self, y: usize) -> bool {
        self.row(y).iter().all(|&w| w == u64::MAX)
    }

    /// Number of filled cells in row `y`.
    pub fn row_count(&self, y: usize) -> usize {
        let ones: u32 = self.row(y).iter().map(|w| w.count_ones()).sum();
        ones as usize - (self.stride * 64 - self.width)
    }

    /// The words of row `y`, padding included.
    pub fn row(&self, y: usize) -> &[u64] {
        &self.words[y * self.stride..(y + 1) * self.stride]
    }

    /// Removes every full row; the rows above drop, keeping their column indices, and empty rows
    /// come in at the top (RULES.md section 8). Returns how many rows were removed.
    pub fn clear_full_rows(&mut self) -> usize {
        let mut write = self.height;
        for read in (0..self.height).rev() {
            if self.row_is_full(read) {
                continue;
            }
            write -= 1;
            if write != read {
                let s = self.stride;
                self.words.copy_within(read * s..(read + 1) * s, write * s);
            }
        }
        for y in 0..write {
            self.reset_row(y);
        }
        write
    }

    fn reset_row(&mut self, y: usize) {
        let row = &mut self.words[y * self.stride..(y + 1) * self.stride];
        for (i, w) in row.iter_mut().enumerate() {
            let first = i * 64;
            *w = if first >= self.width {
                u64::MAX
            } else if first + 64 <= self.width {
                0
            } else {
                u64::MAX << (self.width - first)
            };
        }
    }

    /// Iterates over the filled on-board cells, row by row.
    pub fn filled_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.height).flat_map(move |y| {
            (0..self.width)
                .filter(move |&x| self.is_filled(x as i64, y as i64))
                .map(move |x| Cell::new(x as i64, y as i64))
        })
    }
}

impl fmt::Debug for Board {
    /// Draws the board with odd rows indented by one character, `#` filled and `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..self.height {
            if y % 2 == 1 {
                write!(f, " ")?;
            }
            for x in 0..self.width {
                let c = if self.is_filled(x as i64, y as i64) {
                    '#'
                } else {
                    '.'
                };
                write!(f, "{c} ")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::unit::Unit;

    #[test]
    fn off_board_counts_as_filled() {
        let b = Board::new(3, 2);
        assert!(b.is_filled(-1, 0));
        assert!(b.is_filled(3, 0));
        assert!(b.is_filled(0, 2));
        assert!(b.is_filled(0, -1));
        assert!(!b.is_filled(2, 1));
        assert_eq!(b.row_count(0), 0);
    }

    #[test]
    fn full_rows_clear_and_keep_columns() {
        let mut b = Board::new(3, 4);
        for x in 0..3 {
            b.fill(x, 3);
            b.fill(x, 1);
        }
        b.fill(1, 2);
        b.fill(2, 0);
        assert_eq!(b.clear_full_rows(), 2);
        assert!(b.is_filled(1, 3));
        assert!(b.is_filled(2, 2));
        assert_eq!(b.row_count(3), 1);
        assert_eq!(b.row_count(2), 1);
        assert_eq!(b.row_count(1), 0);
        assert_eq!(b.row_count(0), 0);
    }

    #[test]
    fn wide_boards_test_across_word_boundaries() {
        let mut b = Board::new(100, 3);
        b.fill(64, 1);
        let members: Vec<Cell> = (0..3).map(|x| Cell::new(x, 0)).collect();
        let u = Unit::new(&members, Cell::new(0, 0), 100);
        let s = u.shape(0, 0);
        assert!(b.fits(s, Cell::new(61, 1)));
        assert!(!b.fits(s, Cell::new(62, 1)));
        assert!(!b.fits(s, Cell::new(64, 1)));
        assert!(b.fits(s, Cell::new(65, 1)));
        assert!(b.fits(s, Cell::new(97, 1)));
        assert!(!b.fits(s, Cell::new(98, 1)));
        assert!(!b.fits(s, Cell::new(-1, 1)));
        for x in 0..100 {
            b.fill(x, 2);
        }
        assert!(b.row_is_full(2));
        assert_eq!(b.row_count(2), 100);
    }
}
