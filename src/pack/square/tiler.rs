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

use super::shapes::{Shape, FIXED_COUNT};
use rand::{Rng, SeedableRng};
use rustc_hash::FxHashSet;

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

/// How the pieces of one kind can change one colouring imbalance, in half units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Swing {
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

/// Scratch space and shape offsets for the coverage test: how many placements of the remaining
/// pieces cover each empty cell (0, 1, 2 or more), computed for the whole board with a few
/// shifts, ANDs and ORs per shape.
struct Cover {
    /// For each kind, each shape's three other cells as positive bit offsets from its first
    /// cell in row-major order.
    offsets: Vec<Vec<[usize; 3]>>,
    empty: Bits,
    /// `at_least[l]`: the cells covered by more than `l` placements.
    at_least: [Bits; LEVELS],
    /// Whether `at_least` describes the current board and counts.
    fresh: bool,
    /// The waste bound computed with it.
    waste: u32,
}

/// A small board as a fixed array of words (fixed so that the loops unroll).
type Bits = [u64; COVER_WORDS];
/// Boards of at most this many words (up to about 60 x 60) get the coverage test; on larger
/// ones its cost per node, which grows with the area, outweighs what it saves.
const COVER_WORDS: usize = 64;
/// Covering counts are tracked up to this many.
const LEVELS: usize = 3;

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
        let mut words = vec![0u64; bits.div_ceil(64) + 1];
        let mut parity = vec![0u8; bits];
        for i in 0..bits {
            let (x, y) = (i % stride, i / stride);
            let pad = x == width || y == 0 || y == height + 1;
            if pad {
                words[i >> 6] |= 1 << (i & 63);
            } else {
                parity[i] = ((x & 1) | (((y - 1) & 1) << 1)) as u8;
            }
        }
        // Bits past the last row are padding too, so that no scan runs off the board.
        for i in bits..words.len() * 64 {
            words[i >> 6] |= 1 << (i & 63);
        }

        // The fill order, as (x, y) then bit indices, and each cell's rank in it.
        let mut cells: Vec<(usize, usize)> = Vec::with_capacity(width * height);
        match order {
            FillOrder::RowMajor => {
                for y in 0..height {
                    for x in 0..width {
                        cells.push((x, y));
                    }
                }
            }
            FillOrder::Bands(band) => {
                // Bands of equal height (differing by at most one row), none shorter than
                // `band` unless the board is.
                let nbands = (height / band.max(1)).max(1);
                let mut top = 0;
                for b in 0..nbands {
                    let bottom = top + height / nbands + usize::from(b < height % nbands);
                    for x in 0..width {
                        for y in top..bottom {
                            cells.push((x, y));
                        }
                    }
                    top = bottom;
                }
            }
        }
        let order: Vec<usize> = cells.iter().map(|&(x, y)| (y + 1) * stride + x).collect();
        let mut rank = vec![usize::MAX; bits];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r;
        }

        // Candidates: every shape of every kind, anchored at each of its four cells.
        let mut cands = Vec::new();
        let mut kind_cands = vec![Vec::new(); kinds.len()];
        let mut rel: Vec<[(i32, i32); 4]> = Vec::new();
        for (k, kind) in kinds.iter().enumerate() {
            for (s, shape) in kind.shapes.iter().enumerate() {
                for p in 0..4 {
                    let (px, py) = (shape.cells[p].0 as i32, shape.cells[p].1 as i32);
                    let mut r = [(0, 0); 4];
                    let mut others = [0isize; 3];
                    let mut o = 0;
                    for (j, &(cx, cy)) in shape.cells.iter().enumerate() {
                        let (dx, dy) = (cx as i32 - px, cy as i32 - py);
                        r[j] = (dx, dy);
                        if j != p {
                            others[o] = dy as isize * stride as isize + dx as isize;
                            o += 1;
                        }
                    }
                    let mut delta = [[0i32; 3]; 4];
                    for (par, d) in delta.iter_mut().enumerate() {
                        let (bx, by) = ((par & 1) as i32, (par >> 1) as i32);
                        for &(dx, dy) in &r {
                            let (x, y) = (bx + dx, by + dy);
                            d[0] += sign(x + y);
                            d[1] += sign(x);
                            d[2] += sign(y);
                        }
                    }
                    kind_cands[k].push(cands.len() as u16);
                    cands.push(Cand {
                        kind: k as u8,
                        shape: s as u8,
                        others,
                        origin: -(py as isize * stride as isize + px as isize),
                        delta,
                    });
                    rel.push(r);
                }
            }
        }
        assert!(cands.len() <= 128, "too many candidate anchorings");

        // Valid anchorings per cell: inside the board, every other cell later in the order.
        let mut valid = vec![0u128; bits];
        let mut inside = vec![0u128; bits];
        for &(x, y) in &cells {
            let i = (y + 1) * stride + x;
            for (c, r) in rel.iter().enumerate() {
                let mut later = true;
                let within = r.iter().all(|&(dx, dy)| {
                    let (u, v) = (x as i32 + dx, y as i32 + dy);
                    if u < 0 || v < 0 || u >= width as i32 || v >= height as i32 {
                        return false;
                    }
                    let j = (v as usize + 1) * stride + u as usize;
                    later &= j == i || rank[j] > rank[i];
                    true
                });
                if within {
                    inside[i] |= 1 << c;
                    if later {
                        valid[i] |= 1 << c;
                    }
                }
            }
        }

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
        if t.words.len() <= COVER_WORDS {
            let offsets = t
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
            t.cover = Some(Cover {
                offsets,
                empty: [0; COVER_WORDS],
                at_least: [[0; COVER_WORDS]; LEVELS],
                fresh: false,
                waste: 0,
            });
        }
        t
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

    /// Searches for a tiling of the empty cells by exactly the remaining counts, leaving at most
    /// `empty cells - 4 * pieces` cells uncovered (the slack, 0 when they match). Gives up after
    /// `max_nodes` placements if a limit is set. The board and counts are unchanged on return.
    pub fn solve(&mut self, max_nodes: Option<u64>) -> Outcome {
        self.stats = Stats::default();
        let pieces: u64 = self.counts.iter().map(|&c| c as u64).sum();
        let empty = self.order.iter().filter(|&&i| !self.filled(i)).count() as u64;
        if 4 * pieces > empty {
            return Outcome::Exhausted;
        }
        let slack = (empty - 4 * pieces) as usize;
        if slack == 0 && self.colouring_obstruction().is_some() {
            return Outcome::Exhausted;
        }
        let mut st = Search {
            slack,
            imbalance: self.imbalances(),
            stack: Vec::with_capacity(empty as usize + 1),
            max_nodes: max_nodes.unwrap_or(u64::MAX),
        };
        let out = self.run(&mut st);
        // Undo whatever is still on the stack (after a solution or a give-up).
        while let Some(f) = st.stack.pop() {
            self.undo(&f, &mut st);
        }
        out
    }

    /// The depth-first search proper, iterative so that 10 000 levels (a 200 x 200 board) need
    /// no deep call stack.
    fn run(&mut self, st: &mut Search) -> Outcome {
        let Some(root) = self.enter(0, st.slack) else {
            return Outcome::Exhausted;
        };
        match root {
            Entered::Done => return Outcome::Solved(Vec::new()),
            Entered::Frame(f) => st.stack.push(f),
        }
        loop {
            let top = st.stack.len() - 1;
            let f = st.stack[top].clone();
            self.undo(&f, st);
            st.stack[top].placed = NONE;
            if self.stats.nodes >= st.max_nodes {
                return Outcome::GaveUp;
            }
            // Next candidate that fits and survives pruning.
            let mut advanced = false;
            let valid = if f.any {
                self.inside[f.cell]
            } else {
                self.valid[f.cell]
            };
            let (mut ki, mut ci) = (f.ki as usize, f.ci as usize);
            'kinds: while ki < f.nkinds as usize {
                let k = f.kinds[ki] as usize;
                if self.counts[k] > 0 {
                    while ci < self.kind_cands[k].len() {
                        let c = self.kind_cands[k][ci] as usize;
                        ci += 1;
                        if valid >> c & 1 == 0 || !self.fits(f.cell, c) {
                            continue;
                        }
                        self.place(f.cell, c, st);
                        self.stats.nodes += 1;
                        if self.prune_after(f.cell, c, st) {
                            self.unplace(f.cell, c, st);
                            continue;
                        }
                        let fr = &mut st.stack[top];
                        fr.ki = ki as u8;
                        fr.ci = ci as u8;
                        fr.placed = c as u16;
                        advanced = true;
                        break 'kinds;
                    }
                }
                ki += 1;
                ci = 0;
            }
            if !advanced && st.slack > 0 && !f.waste_done {
                // Leave the cell empty: it costs one cell of slack.
                let fr = &mut st.stack[top];
                fr.ki = f.nkinds;
                fr.waste_done = true;
                fr.placed = WASTE;
                self.set_waste(f.cell, true, st);
                self.stats.nodes += 1;
                advanced = true;
            }
            if !advanced {
                // Exhausted: remember the state and backtrack.
                if self.memo.len() < MEMO_CAP {
                    self.memo.insert(f.key);
                }
                st.stack.pop();
                if st.stack.is_empty() {
                    return Outcome::Exhausted;
                }
                continue;
            }
            // The frame's cell is filled now, but with cells picked out of order an earlier one
            // may still be empty: the scan starts again at the frame's first empty cell.
            match self.enter(f.pos, st.slack) {
                None => {} // Known dead: the loop tries the next candidate.
                Some(Entered::Done) => return Outcome::Solved(self.solution(st)),
                Some(Entered::Frame(child)) => st.stack.push(child),
            }
        }
    }

    /// Opens the frame for the first empty cell at or after order position `pos`: `None` when
    /// the state is known to be dead, `Done` when the board is full.
    fn enter(&mut self, mut pos: usize, slack: usize) -> Option<Entered> {
        while pos < self.order.len() && self.filled(self.order[pos]) {
            pos += 1;
        }
        if pos == self.order.len() {
            return Some(Entered::Done);
        }
        let key = self.board_hash ^ self.count_hash;
        if self.memo.contains(&key) {
            self.stats.memo_hits += 1;
            return None;
        }
        let mut cell = self.order[pos];
        let mut any = false;
        if self.cover_on() {
            if self.forced_waste() as usize > slack {
                return None;
            }
            if let Some(c) = self.constrained_cell() {
                any = c != cell;
                cell = c;
            }
        }
        let mut kinds = [0u8; MAX_KINDS];
        let n = self.kinds.len();
        let mut m = 0;
        for j in 0..n {
            let k = (j + self.tie_shift) % n;
            if self.counts[k] > 0 {
                kinds[m] = k as u8;
                m += 1;
            }
        }
        // A stable sort keeps the rotated index order among equal keys.
        let counts = &self.counts;
        match self.priority {
            Priority::Fixed => {}
            Priority::MostRemaining => {
                kinds[..m].sort_by_key(|&k| std::cmp::Reverse(counts[k as usize]));
            }
            Priority::Weighted => {
                let w = &self.weights;
                kinds[..m]
                    .sort_by_key(|&k| std::cmp::Reverse(counts[k as usize] as u64 * w[k as usize]));
            }
        }
        Some(Entered::Frame(Frame {
            pos,
            cell,
            any,
            key,
            kinds,
            nkinds: m as u8,
            ki: 0,
            ci: 0,
            placed: NONE,
            waste_done: false,
        }))
    }

    /// Removes the frame's current placement, if any.
    fn undo(&mut self, f: &Frame, st: &mut Search) {
        match f.placed {
            NONE => {}
            WASTE => self.set_waste(f.cell, false, st),
            c => self.unplace(f.cell, c as usize, st),
        }
    }

    /// Leaves a cell empty for good (it becomes filled for the search) or takes that back,
    /// keeping the slack and the colouring imbalances of the empty cells up to date.
    fn set_waste(&mut self, cell: usize, waste: bool, st: &mut Search) {
        self.flip(cell);
        let par = self.parity[cell] as i32;
        let (x, y) = (par & 1, par >> 1);
        let signs = [sign(x + y), sign(x), sign(y)];
        for (im, s) in st.imbalance.iter_mut().zip(signs) {
            *im += if waste { -s } else { s };
        }
        if waste {
            st.slack -= 1;
        } else {
            st.slack += 1;
        }
    }

    /// The placements on the stack, as a solution.
    fn solution(&self, st: &Search) -> Vec<Placement> {
        st.stack
            .iter()
            .filter(|f| f.placed != NONE && f.placed != WASTE)
            .map(|f| {
                let c = &self.cands[f.placed as usize];
                let o = (f.cell as isize + c.origin) as usize;
                Placement {
                    kind: c.kind as usize,
                    shape: c.shape as usize,
                    x: o % self.stride,
                    y: o / self.stride - 1,
                }
            })
            .collect()
    }

    #[inline]
    fn index(&self, x: usize, y: usize) -> usize {
        assert!(x < self.width && y < self.height, "cell off the board");
        (y + 1) * self.stride + x
    }

    #[inline]
    fn filled(&self, i: usize) -> bool {
        self.words[i >> 6] >> (i & 63) & 1 == 1
    }

    #[inline]
    fn flip(&mut self, i: usize) {
        self.words[i >> 6] ^= 1 << (i & 63);
        self.board_hash ^= self.zobrist[i];
        if let Some(cv) = &mut self.cover {
            cv.fresh = false;
        }
    }

    #[inline]
    fn fits(&self, cell: usize, c: usize) -> bool {
        let o = &self.cands[c].others;
        !self.filled((cell as isize + o[0]) as usize)
            && !self.filled((cell as isize + o[1]) as usize)
            && !self.filled((cell as isize + o[2]) as usize)
    }

    fn place(&mut self, cell: usize, c: usize, st: &mut Search) {
        let cand = &self.cands[c];
        let (others, kind, d) = (
            cand.others,
            cand.kind as usize,
            cand.delta[self.parity[cell] as usize],
        );
        self.flip(cell);
        for o in others {
            self.flip((cell as isize + o) as usize);
        }
        self.counts[kind] -= 1;
        self.count_hash = self.count_hash.wrapping_sub(self.count_keys[kind]);
        for (im, dd) in st.imbalance.iter_mut().zip(d) {
            *im -= dd;
        }
    }

    fn unplace(&mut self, cell: usize, c: usize, st: &mut Search) {
        let cand = &self.cands[c];
        let (others, kind, d) = (
            cand.others,
            cand.kind as usize,
            cand.delta[self.parity[cell] as usize],
        );
        self.flip(cell);
        for o in others {
            self.flip((cell as isize + o) as usize);
        }
        self.counts[kind] += 1;
        self.count_hash = self.count_hash.wrapping_add(self.count_keys[kind]);
        for (im, dd) in st.imbalance.iter_mut().zip(d) {
            *im += dd;
        }
    }

    /// Whether the placement just made leaves the board unsolvable, by the colourings and the
    /// dead regions around the new piece.
    fn prune_after(&mut self, cell: usize, c: usize, st: &Search) -> bool {
        if st.slack == 0 && !self.colourings_reachable(&st.imbalance) {
            return true;
        }
        // Flood fill the empty regions next to the piece.
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
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
                if self.filled(n) || self.stamp[n] == self.generation {
                    continue;
                }
                if let Some(w) = self.closed_region_waste(n, st.slack == 0) {
                    waste = waste.saturating_add(w);
                    if waste > st.slack {
                        return true;
                    }
                }
            }
        }
        self.cover_on() && self.forced_waste() as usize > st.slack
    }

    /// The number of empty cells that no placement of any remaining piece covers (0 when the
    /// coverage test is off). Each of them must stay empty, so more than the slack is dead.
    /// A kind with fewer places left than pieces makes the state dead too: `u32::MAX`. Also
    /// leaves in the [`Cover`] which cells have a single way to be covered.
    fn forced_waste(&mut self) -> u32 {
        match &self.cover {
            None => 0,
            Some(cv) if cv.fresh => cv.waste,
            // Most of fillit's boards fit in 4 words: half the work of 8.
            Some(_) if self.words.len() <= 4 => self.compute_cover::<4>(),
            Some(_) if self.words.len() <= 8 => self.compute_cover::<8>(),
            Some(_) if self.words.len() <= 16 => self.compute_cover::<16>(),
            Some(_) if self.words.len() <= 32 => self.compute_cover::<32>(),
            Some(_) => self.compute_cover::<COVER_WORDS>(),
        }
    }

    /// [`Tiler::forced_waste`] on a board of at most `N` words.
    fn compute_cover<const N: usize>(&mut self) -> u32 {
        let Some(cv) = self.cover.as_mut() else {
            return 0;
        };
        cv.fresh = true;
        let mut empty = [0u64; N];
        for (e, w) in empty.iter_mut().zip(&self.words) {
            *e = !w;
        }
        cv.empty = [0; COVER_WORDS];
        cv.empty[..N].copy_from_slice(&empty);
        let mut levels = [[0u64; N]; LEVELS];
        for (k, shapes) in cv.offsets.iter().enumerate() {
            if self.counts[k] == 0 {
                continue;
            }
            let mut places = 0;
            for off in shapes {
                // fits = bits i with cells i, i + o1, i + o2, i + o3 all empty.
                let mut fits = empty;
                for &o in off {
                    let t = shr(&empty, o);
                    for (f, t) in fits.iter_mut().zip(t) {
                        *f &= t;
                    }
                }
                places += fits.iter().map(|f| f.count_ones()).sum::<u32>();
                // Count the coverings of each cell, one cell of the shape at a time, in
                // saturating bit planes.
                for o in std::iter::once(0).chain(off.iter().copied()) {
                    let t = shl(&fits, o);
                    for w in 0..N {
                        for l in (1..LEVELS).rev() {
                            levels[l][w] |= levels[l - 1][w] & t[w];
                        }
                        levels[0][w] |= t[w];
                    }
                }
            }
            if places < self.counts[k] {
                cv.waste = u32::MAX;
                return cv.waste;
            }
        }
        for (dst, src) in cv.at_least.iter_mut().zip(&levels) {
            *dst = [0; COVER_WORDS];
            dst[..N].copy_from_slice(src);
        }
        cv.waste = empty
            .iter()
            .zip(&levels[0])
            .map(|(e, c)| (e & !c).count_ones())
            .sum();
        cv.waste
    }

    /// With the coverage test, the first empty cell (in bit order) with the fewest ways to be
    /// covered, if some cell has fewer than [`LEVELS`]: branching there has few children, where
    /// the first empty cell in the fill order may have a dozen.
    fn constrained_cell(&self) -> Option<usize> {
        let cv = self.cover.as_ref()?;
        cv.at_least[1..].iter().find_map(|plane| {
            cv.empty
                .iter()
                .zip(plane)
                .enumerate()
                .find(|(_, (e, p))| *e & !*p != 0)
                .map(|(w, (e, p))| w * 64 + (e & !p).trailing_zeros() as usize)
        })
    }

    /// Flood fills the empty region of `start` up to [`REGION_LIMIT`] cells. For a closed region,
    /// returns the number of its cells that must stay empty at least (with `exact`, any such
    /// cell means the region is dead, reported as `usize::MAX`); for an open one, `None`.
    fn closed_region_waste(&mut self, start: usize, exact: bool) -> Option<usize> {
        let mut region = [0usize; REGION_LIMIT];
        let mut n = 0;
        let mut head = 0;
        region[n] = start;
        n += 1;
        self.stamp[start] = self.generation;
        let s = self.stride as isize;
        while head < n {
            let p = region[head];
            head += 1;
            for d in [-1, 1, -s, s] {
                let q = (p as isize + d) as usize;
                if self.filled(q) || self.stamp[q] == self.generation {
                    continue;
                }
                if n == REGION_LIMIT {
                    return None;
                }
                self.stamp[q] = self.generation;
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
    fn colourings_reachable(&self, imbalance: &[i32; 3]) -> bool {
        (0..3).all(|d| self.colouring_reachable(imbalance, d))
    }

    /// The test of [`Tiler::colourings_reachable`] for colouring `d` alone.
    fn colouring_reachable(&self, imbalance: &[i32; 3], d: usize) -> bool {
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
    fn imbalances(&self) -> [i32; 3] {
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

    fn compute_count_hash(&self) -> u128 {
        self.counts
            .iter()
            .zip(&self.count_keys)
            .fold(0u128, |h, (&c, &k)| {
                h.wrapping_add(k.wrapping_mul(c as u128))
            })
    }
}

/// The mutable part of one search besides the board.
struct Search {
    slack: usize,
    imbalance: [i32; 3],
    stack: Vec<Frame>,
    max_nodes: u64,
}

enum Entered {
    Done,
    Frame(Frame),
}

/// `src >> by` on a little-endian multi-word bitset (bit j of the result is bit j + by).
fn shr<const N: usize>(src: &[u64; N], by: usize) -> [u64; N] {
    let (q, r) = (by / 64, by % 64);
    let n = N;
    let mut out = [0; N];
    for (i, o) in out.iter_mut().enumerate() {
        let lo = if i + q < n { src[i + q] >> r } else { 0 };
        let hi = if r > 0 && i + q + 1 < n {
            src[i + q + 1] << (64 - r)
        } else {
            0
        };
        *o = lo | hi;
    }
    out
}

/// `src << by` on a little-endian multi-word bitset.
fn shl<const N: usize>(src: &[u64; N], by: usize) -> [u64; N] {
    let (q, r) = (by / 64, by % 64);
    let mut out = [0; N];
    for (i, o) in out.iter_mut().enumerate() {
        let lo = if i >= q { src[i - q] << r } else { 0 };
        let hi = if r > 0 && i > q {
            src[i - q - 1] >> (64 - r)
        } else {
            0
        };
        *o = lo | hi;
    }
    out
}

/// +1 for an even coordinate (sum), -1 for an odd one.
fn sign(v: i32) -> i32 {
    if v.rem_euclid(2) == 0 {
        1
    } else {
        -1
    }
}

/// How each colouring imbalance of a kind's shapes can vary, from the magnitudes its shapes
/// produce (the sign flips with the placement's parity, so only magnitudes matter).
fn kind_swings(shapes: &[Shape]) -> [Swing; 3] {
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

/// The kinds of puzzle 1: the seven figures with all their angles, counts from a signature.
pub fn figure_kinds(counts: &[u32; 7]) -> Vec<Kind> {
    super::shapes::Figure::ALL
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
