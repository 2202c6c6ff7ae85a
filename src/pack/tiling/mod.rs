//! The exact tiling engine shared by `hextris pack square` and `hextris pack fillit`: cover a
//! W x H board with a multiset of tetrominoes, leaving at most `slack` cells empty.
//!
//! Both puzzles are the same problem at heart: an exact cover of grid cells by pieces whose
//! *kinds* come with counts. In `square` a kind is a figure with all its angles and the slack is
//! 0; in `fillit` a kind is one fixed shape (pieces do not rotate) and the slack is the area left
//! over in the square. The search is a depth-first search over *cells*, not pieces: it takes the
//! first empty cell in a fixed fill order and branches on every piece that can cover it (and, when
//! slack remains, on leaving it empty). Every piece covering the first empty cell has all its
//! other cells later in the order, so each cell has a short, precomputed list of candidates.
//!
//! Pruning, all sound (it never discards a subtree that holds a solution):
//! - **Dead regions.** After each placement, the empty regions touching the new piece are flood
//!   filled up to a bound; a closed region whose area is not a multiple of 4, or a closed region
//!   of 4 cells whose shape no remaining kind provides, cannot be filled. With slack, such cells
//!   are counted as forced waste instead, and the search stops when the waste exceeds the slack.
//! - **Colourings** (slack 0 only). Under the checkerboard, column-stripe and row-stripe colourings
//!   every empty region has an imbalance (cells of one colour minus the other) that the remaining
//!   pieces must produce exactly; each figure contributes 0, +-2 or +-4 per colouring, so a
//!   region whose imbalance the remaining counts cannot reach is dead (e.g. an odd number of T
//!   pieces for a balanced rectangle).
//! - **Coverage** (boards up to about 60 x 60, switchable). Shifts and ANDs over the whole
//!   bitboard give, per remaining kind, every place it still fits, and per empty cell how many
//!   placements cover it (0, 1, 2, more). Uncovered cells are forced waste, a kind with fewer
//!   places than pieces is dead, and the search branches on the cell with the fewest coverings
//!   instead of the first empty cell (then its candidates are all anchorings inside the board).
//! - **Failed-state memo.** The state of the search is the set of filled cells plus the remaining
//!   counts; a state whose subtree was exhausted is remembered by a 128-bit Zobrist fingerprint
//!   and never searched again. This is what turns the exhaustion of an impossible instance from
//!   a tree search into something closer to dynamic programming over the frontier.
//!
//! Coordinates: `x` is the column, `y` the row, from the top-left corner (0, 0). Internally the
//! board is a bitboard with one padding row above and below and one padding column (shared by
//! the right edge of a row and the left edge of the next), all set, so that the four neighbours
//! of any board cell are valid indices: cell (x, y) is bit `(y + 1) * (W + 1) + x`.
//!
//! Invariants: between calls the board holds exactly the cells set by the caller; a search undoes
//! every placement it makes before returning, so a `Tiler` can be asked again (`fillit` asks many
//! questions about one board). The memo only ever holds states proven unsolvable for the current
//! kinds, so it stays valid as long as the kinds (not their counts) are unchanged.
//!
//! Files, one job each: this one the engine's state, the kinds and the public interface;
//! [`board`] the board's layout (padding, fill order, anchorings); [`search`] the depth-first
//! search and its undo; [`prune`] the dead-region and colouring arguments; [`cover`]
//! the coverage test and the most-constrained cell; [`shapes`] the tetrominoes themselves.

mod board;
mod cover;
mod prune;
mod search;
pub mod shapes;

use board::{anchorings, candidates, fill_cells, padded_board};
use cover::{Cover, COVER_WORDS, LEVELS};
use prune::{kind_swings, Swing};
use rand::{Rng, SeedableRng};
use rustc_hash::FxHashSet;
use shapes::{Shape, FIXED_COUNT};

/// A kind of piece: the shapes any one piece of the kind may take, and how many pieces remain.
#[derive(Debug, Clone)]
pub struct Kind {
    /// The allowed orientations (a single one for fillit's fixed pieces).
    pub shapes: Vec<Shape>,
    /// The number of pieces of this kind to place.
    pub count: u32,
}

/// The order in which the search fills the cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FillOrder {
    /// Row after row, each left to right (fillit's boards are small).
    RowMajor,
    /// Horizontal bands of about this many rows, each filled column by column from the left:
    /// the frontier stays short (one band high), so dead regions show up early and the end of
    /// the search works on a compact block instead of a long thin strip.
    Bands(usize),
}

/// How the candidate kinds are ordered at each cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Priority {
    /// Kinds in their given order.
    Fixed,
    /// The kind with the most pieces left first: the leftover multiset stays balanced, so the
    /// last region gets a varied set of pieces, which is far easier to fit than, say, only S.
    MostRemaining,
    /// The kind with the largest `count * weight` first (weights from [`Tiler::set_weights`]):
    /// restarts use it to vary the search.
    Weighted,
}

/// One piece of a solution: the kind, the index of its shape in the kind, and the top-left
/// corner of the shape's bounding box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    pub kind: usize,
    pub shape: usize,
    pub x: usize,
    pub y: usize,
}

/// The result of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A full solution: every kind's count placed, at most `slack` cells left empty.
    Solved(Vec<Placement>),
    /// The whole search space was explored: there is no solution.
    Exhausted,
    /// The node limit was reached first.
    GaveUp,
}

/// Search statistics, for benchmarks and reports.
#[derive(Debug, Clone, Copy, Default)]
pub struct Stats {
    /// Pieces (or waste cells) placed.
    pub nodes: u64,
    /// States cut because the memo knew them.
    pub memo_hits: u64,
}

/// A candidate placement: a shape anchored at one of its cells (the "pivot"), which goes on the
/// first empty cell.
#[derive(Debug, Clone)]
struct Cand {
    kind: u8,
    shape: u8,
    /// Offsets of the three other cells from the pivot, in bit indices.
    others: [isize; 3],
    /// Offset of the bounding box's top-left corner from the pivot.
    origin: isize,
    /// Change of the three colouring imbalances (checkerboard, column, row) when placed with the
    /// pivot on a cell of parity `(x & 1) | (y & 1) << 1`.
    delta: [[i32; 3]; 4],
}

/// A depth-first search frame: one cell to cover and where the enumeration stands.
#[derive(Debug, Clone)]
struct Frame {
    /// Position of the cell in the fill order.
    pos: usize,
    /// Bit index of the cell.
    cell: usize,
    /// Fingerprint of the state on entry, for the memo.
    key: u128,
    /// The kinds in the order this node tries them.
    kinds: [u8; MAX_KINDS],
    nkinds: u8,
    /// Current kind (index into `kinds`) and next candidate of that kind.
    ki: u8,
    ci: u8,
    /// Whether the cell was picked out of the fill order (its candidates are then all those
    /// inside the board).
    any: bool,
    /// The candidate placed on the cell now (to undo), [`NONE`] or [`WASTE`].
    placed: u16,
    /// Whether the "leave the cell empty" branch has been taken.
    waste_done: bool,
}

const NONE: u16 = u16::MAX;
const WASTE: u16 = u16::MAX - 1;
/// At most this many kinds (fillit has at most 19, square 7).
pub const MAX_KINDS: usize = 24;
/// Regions larger than this are not flood filled to the end.
const REGION_LIMIT: usize = 24;
/// The memo stops growing at this many states (about 100 MB).
const MEMO_CAP: usize = 6_000_000;

/// The engine: a board, the kinds with their counts, and the search machinery.
pub struct Tiler {
    width: usize,
    height: usize,
    stride: usize,
    words: Vec<u64>,
    kinds: Vec<Kind>,
    counts: Vec<u32>,
    cands: Vec<Cand>,
    /// Candidate ids of each kind.
    kind_cands: Vec<Vec<u16>>,
    /// For each bit index, the candidates that fit inside the board with their pivot there and
    /// all other cells later in the fill order.
    valid: Vec<u128>,
    /// For each bit index, the candidates that lie inside the board with their pivot there,
    /// whatever the order (for cells picked out of order, see [`Cover`]).
    inside: Vec<u128>,
    /// Fill order: bit indices of the board cells.
    order: Vec<usize>,
    /// Parity class `(x & 1) | (y & 1) << 1` of each bit index.
    parity: Vec<u8>,
    /// Whether each kind provides each fixed shape (for 4-cell pockets).
    kind_has: Vec<[bool; FIXED_COUNT]>,
    /// Colouring behaviour of each kind: checkerboard, column, row.
    swings: Vec<[Swing; 3]>,
    zobrist: Vec<u128>,
    count_keys: Vec<u128>,
    board_hash: u128,
    count_hash: u128,
    memo: FxHashSet<u128>,
    stamp: Vec<u32>,
    generation: u32,
    priority: Priority,
    /// Rotates the tie-break between kinds of equal priority (for restarts).
    tie_shift: usize,
    /// Per-kind weights of [`Priority::Weighted`].
    weights: Vec<u64>,
    /// The coverage test, on boards small enough for it to pay.
    cover: Option<Cover>,
    /// Whether the coverage test is switched on (it is by default where it exists).
    use_cover: bool,
    /// The search statistics of the last call.
    pub stats: Stats,
}

/// A cell's colour in the colourings of the board (by the sum of its coordinates, by its
/// column, by its row): +1 for an even coordinate, -1 for an odd one. The search and the pruning
/// both keep the colourings' balance, so it lives here, beside the board.
fn sign(v: i32) -> i32 {
    if v.rem_euclid(2) == 0 {
        1
    } else {
        -1
    }
}

impl Tiler {
    /// A tiler for an empty `width` x `height` board.
    ///
    /// # Panics
    /// If there are more than [`MAX_KINDS`] kinds or more than 128 candidate anchorings in all
    /// (never for tetromino kinds without repeated shapes).
    pub fn new(width: usize, height: usize, kinds: Vec<Kind>, order: FillOrder) -> Tiler {
        assert!(kinds.len() <= MAX_KINDS, "too many kinds");
        let stride = width + 1;
        let bits = (height + 2) * stride;
        let (words, parity) = padded_board(width, height);

        // The fill order, as (x, y) then bit indices, and each cell's rank in it.
        let cells = fill_cells(width, height, order);
        let order: Vec<usize> = cells.iter().map(|&(x, y)| (y + 1) * stride + x).collect();
        let mut rank = vec![usize::MAX; bits];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r;
        }

        // Candidates: every shape of every kind, anchored at each of its four cells.
        let (cands, kind_cands, rel) = candidates(&kinds, stride);
        assert!(cands.len() <= 128, "too many candidate anchorings");

        // Valid anchorings per cell: inside the board, every other cell later in the order.
        let (valid, inside) = anchorings(&cells, &rel, &rank, (width, height));

        let kind_has = kinds
            .iter()
            .map(|k| {
                let mut has = [false; FIXED_COUNT];
                for s in &k.shapes {
                    has[s.fixed_index()] = true;
                }
                has
            })
            .collect();
        let swings = kinds.iter().map(|k| kind_swings(&k.shapes)).collect();

        // Fixed seed: the fingerprints, hence the search, are the same on every run.
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(0x6865_7874_7269_7321);
        let zobrist = (0..bits).map(|_| rng.gen::<u128>()).collect();
        let count_keys = (0..kinds.len()).map(|_| rng.gen::<u128>() | 1).collect();
        let counts: Vec<u32> = kinds.iter().map(|k| k.count).collect();
        let mut t = Tiler {
            width,
            height,
            stride,
            words,
            kinds,
            counts,
            cands,
            kind_cands,
            valid,
            inside,
            order,
            parity,
            kind_has,
            swings,
            zobrist,
            count_keys,
            board_hash: 0,
            count_hash: 0,
            memo: FxHashSet::default(),
            stamp: vec![0; bits],
            cover: None,
            use_cover: true,
            generation: 0,
            priority: Priority::MostRemaining,
            tie_shift: 0,
            weights: Vec::new(),
            stats: Stats::default(),
        };
        t.count_hash = t.compute_count_hash();
        t.cover = t.cover_test();
        t
    }

    /// The coverage test, on boards small enough for it to pay (see [`Cover`]).
    fn cover_test(&self) -> Option<Cover> {
        if self.words.len() > COVER_WORDS {
            return None;
        }
        let stride = self.stride;
        let offsets = self
            .kinds
            .iter()
            .map(|k| {
                k.shapes
                    .iter()
                    .map(|sh| {
                        let at =
                            |j: usize| sh.cells[j].1 as usize * stride + sh.cells[j].0 as usize;
                        [at(1) - at(0), at(2) - at(0), at(3) - at(0)]
                    })
                    .collect()
            })
            .collect();
        Some(Cover {
            offsets,
            empty: [0; COVER_WORDS],
            at_least: [[0; COVER_WORDS]; LEVELS],
            fresh: false,
            waste: 0,
        })
    }

    /// Board width.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Board height.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Switches the coverage test and the most-constrained-cell branching on or off (they
    /// exist only on boards up to about 60 x 60). Off, a node costs far less; on, the search
    /// backtracks far less. Either way the search is complete, and the memo stays valid.
    pub fn set_cover(&mut self, on: bool) {
        self.use_cover = on;
        if let Some(cv) = &mut self.cover {
            cv.fresh = false;
        }
    }

    fn cover_on(&self) -> bool {
        self.use_cover && self.cover.is_some()
    }

    /// Sets how kinds are ordered at each cell.
    pub fn set_priority(&mut self, p: Priority) {
        self.priority = p;
    }

    /// Rotates the tie-break among kinds of equal priority: a different but equally complete
    /// search, used for restarts.
    pub fn set_tie_shift(&mut self, shift: usize) {
        self.tie_shift = shift;
    }

    /// Sets the weights of [`Priority::Weighted`] (one per kind) and selects that priority.
    pub fn set_weights(&mut self, weights: Vec<u64>) {
        assert_eq!(weights.len(), self.kinds.len(), "one weight per kind");
        self.weights = weights;
        self.priority = Priority::Weighted;
    }

    /// Sets the number of pieces of a kind still to place.
    pub fn set_count(&mut self, kind: usize, count: u32) {
        self.counts[kind] = count;
        if let Some(cv) = &mut self.cover {
            cv.fresh = false;
        }
        self.count_hash = self.compute_count_hash();
    }

    /// The number of pieces of a kind still to place.
    pub fn count(&self, kind: usize) -> u32 {
        self.counts[kind]
    }

    /// Marks a board cell filled or empty (fillit pre-places pieces this way).
    pub fn set_cell(&mut self, x: usize, y: usize, filled: bool) {
        let i = self.index(x, y);
        if self.filled(i) != filled {
            self.flip(i);
        }
    }

    /// Whether a board cell is filled.
    pub fn is_filled(&self, x: usize, y: usize) -> bool {
        self.filled(self.index(x, y))
    }

    /// Number of states in the failed-state memo.
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }

    /// Which colouring, if any, proves that the empty cells cannot be tiled exactly by the
    /// remaining counts: 0 checkerboard, 1 column stripes, 2 row stripes. Only meaningful when
    /// the pieces' area equals the empty area.
    pub fn colouring_obstruction(&self) -> Option<usize> {
        let im = self.imbalances();
        (0..3).find(|&d| !self.colouring_reachable(&im, d))
    }

    fn compute_count_hash(&self) -> u128 {
        self.counts
            .iter()
            .zip(&self.count_keys)
            .fold(0u128, |h, (&c, &k)| {
                h.wrapping_add(k.wrapping_mul(c as u128))
            })
    }
}

/// The kinds of puzzle 1: the seven figures with all their angles, counts from a signature.
pub fn figure_kinds(counts: &[u32; 7]) -> Vec<Kind> {
    shapes::Figure::ALL
        .iter()
        .zip(counts)
        .map(|(f, &count)| Kind {
            shapes: f.angles(),
            count,
        })
        .collect()
}

/// Checks that a set of placements is a valid packing of the board (inside, no overlap, counts
/// respected), returning the number of covered cells. Used by tests.
pub fn covered_cells(
    width: usize,
    height: usize,
    kinds: &[Kind],
    placements: &[Placement],
) -> Result<usize, String> {
    let mut grid = vec![false; width * height];
    let mut used = vec![0u32; kinds.len()];
    for p in placements {
        used[p.kind] += 1;
        for &(dx, dy) in &kinds[p.kind].shapes[p.shape].cells {
            let (x, y) = (p.x + dx as usize, p.y + dy as usize);
            if x >= width || y >= height {
                return Err(format!("{p:?} leaves the board"));
            }
            if std::mem::replace(&mut grid[y * width + x], true) {
                return Err(format!("{p:?} overlaps at ({x}, {y})"));
            }
        }
    }
    for (k, kind) in kinds.iter().enumerate() {
        if used[k] != kind.count {
            return Err(format!(
                "kind {k}: {} placed, {} wanted",
                used[k], kind.count
            ));
        }
    }
    Ok(grid.iter().filter(|&&g| g).count())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(sig: [u32; 7]) -> Vec<Kind> {
        figure_kinds(&sig)
    }

    #[test]
    fn tiles_small_rectangles() {
        for order in [FillOrder::RowMajor, FillOrder::Bands(4)] {
            // 4 x 4 with I, J, L, Z (the original's test0).
            let kinds = counts([1, 1, 1, 0, 0, 0, 1]);
            let mut t = Tiler::new(4, 4, kinds.clone(), order);
            let Outcome::Solved(sol) = t.solve(None) else {
                panic!("4 x 4 should be solvable")
            };
            assert_eq!(covered_cells(4, 4, &kinds, &sol), Ok(16));
        }
    }

    #[test]
    fn proves_small_impossibilities() {
        // Two S pieces never tile a 2 x 4 or 4 x 2 rectangle; four S never a 4 x 4.
        for (w, h, sig) in [(4, 2, [0, 0, 0, 0, 2, 0, 0]), (4, 4, [0, 0, 0, 0, 4, 0, 0])] {
            let mut t = Tiler::new(w, h, counts(sig), FillOrder::Bands(4));
            assert_eq!(t.solve(None), Outcome::Exhausted);
        }
        // One T and three O: the checkerboard says no at once.
        let mut t = Tiler::new(4, 4, counts([0, 0, 0, 3, 0, 1, 0]), FillOrder::RowMajor);
        assert_eq!(t.solve(None), Outcome::Exhausted);
        assert!(t.stats.nodes <= 1, "the colouring cut should act at once");
    }

    #[test]
    fn board_is_restored_after_search() {
        let kinds = counts([2, 2, 2, 1, 2, 2, 2]);
        let mut t = Tiler::new(6, 6, kinds, FillOrder::Bands(4));
        let before = t.words.clone();
        let hash = t.board_hash;
        let _ = t.solve(None);
        assert_eq!(t.words, before);
        assert_eq!(t.board_hash, hash);
        let _ = t.solve(Some(3));
        assert_eq!(t.words, before);
    }

    /// Regression: leaving cells empty did not update the colouring imbalances, so once the
    /// slack was used up the colouring test judged a stale board and cut real solutions (an O
    /// and a J do fit in 3 x 3, as fillit's `just2` shows).
    #[test]
    fn waste_keeps_colourings_right() {
        let kinds = vec![
            Kind {
                shapes: vec![Shape::parse("##/##").unwrap()],
                count: 1,
            },
            Kind {
                shapes: vec![Shape::parse("#../###").unwrap()],
                count: 1,
            },
        ];
        let mut t = Tiler::new(3, 3, kinds.clone(), FillOrder::RowMajor);
        let Outcome::Solved(sol) = t.solve(None) else {
            panic!("O and J fit in 3 x 3")
        };
        assert_eq!(covered_cells(3, 3, &kinds, &sol), Ok(8));
    }

    /// Regression (issue 14): a flood fill stopped at the region limit left its cells stamped,
    /// and the next flood from the same region took them for walls, saw a small closed region
    /// and cut this state, which the pieces A E F G H J K L do fill (as the letters show).
    #[test]
    fn an_unfinished_flood_does_not_close_its_region() {
        let board = [
            "ALLFFFF", "AALL#EE", "HA###EG", "HHKKKEG", "H##K##G", "JJ####G", "JJ#####",
        ];
        let kinds: Vec<Kind> = [
            "#./##/.#", "##/#./#.", "####", "#/#/#/#", "#./##/#.", "##/##", "###/.#.", "##./.##",
        ]
        .iter()
        .map(|s| Kind {
            shapes: vec![Shape::parse(s).unwrap()],
            count: 1,
        })
        .collect();
        let mut t = Tiler::new(7, 7, kinds.clone(), FillOrder::RowMajor);
        for (y, row) in board.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                t.set_cell(x, y, ch == '#');
            }
        }
        let Outcome::Solved(sol) = t.solve(None) else {
            panic!("the letters show a packing")
        };
        assert_eq!(covered_cells(7, 7, &kinds, &sol), Ok(32));
    }

    #[test]
    fn slack_leaves_cells_empty() {
        // One O in a 3 x 3 square: 5 cells of slack.
        let kinds = vec![Kind {
            shapes: vec![Shape::parse("##/##").unwrap()],
            count: 1,
        }];
        let mut t = Tiler::new(3, 3, kinds.clone(), FillOrder::RowMajor);
        let Outcome::Solved(sol) = t.solve(None) else {
            panic!("an O fits in 3 x 3")
        };
        assert_eq!(
            sol,
            vec![Placement {
                kind: 0,
                shape: 0,
                x: 0,
                y: 0
            }]
        );
        // Two O do not fit in 3 x 3 although 8 <= 9.
        let kinds = vec![Kind {
            shapes: vec![Shape::parse("##/##").unwrap()],
            count: 2,
        }];
        let mut t = Tiler::new(3, 3, kinds, FillOrder::RowMajor);
        assert_eq!(t.solve(None), Outcome::Exhausted);
    }
}
