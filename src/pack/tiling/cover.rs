//! The coverage test of the [`Tiler`]: with shifts, ANDs and ORs over the whole bitboard, every
//! place each remaining kind still fits and how many placements cover each empty cell (0, 1, 2,
//! more). Uncovered cells are forced waste, a kind with fewer places than pieces is dead, and the
//! search may branch on the cell with the fewest coverings.

use super::Tiler;

/// Scratch space and shape offsets for the coverage test: how many placements of the remaining
/// pieces cover each empty cell (0, 1, 2 or more), computed for the whole board with a few
/// shifts, ANDs and ORs per shape.
pub(super) struct Cover {
    /// For each kind, each shape's three other cells as positive bit offsets from its first
    /// cell in row-major order.
    pub(super) offsets: Vec<Vec<[usize; 3]>>,
    pub(super) empty: Bits,
    /// `at_least[l]`: the cells covered by more than `l` placements.
    pub(super) at_least: [Bits; LEVELS],
    /// Whether `at_least` describes the current board and counts.
    pub(super) fresh: bool,
    /// The waste bound computed with it.
    pub(super) waste: u32,
}

/// A small board as a fixed array of words (fixed so that the loops unroll).
pub(super) type Bits = [u64; COVER_WORDS];
/// Boards of at most this many words (up to about 60 x 60) get the coverage test; on larger
/// ones its cost per node, which grows with the area, outweighs what it saves.
pub(super) const COVER_WORDS: usize = 64;
/// Covering counts are tracked up to this many.
pub(super) const LEVELS: usize = 3;

impl Tiler {
    /// The number of empty cells that no placement of any remaining piece covers (0 when the
    /// coverage test is off). Each of them must stay empty, so more than the slack is dead.
    /// A kind with fewer places left than pieces makes the state dead too: `u32::MAX`. Also
    /// leaves in the [`Cover`] which cells have a single way to be covered.
    pub(super) fn forced_waste(&mut self) -> u32 {
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
    pub(super) fn compute_cover<const N: usize>(&mut self) -> u32 {
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
    pub(super) fn constrained_cell(&self) -> Option<usize> {
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
