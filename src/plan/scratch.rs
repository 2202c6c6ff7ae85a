//! Reusable buffers of the planner's searches: a set of lock keys ([`KeySet`], the lock
//! deduplication, a bit per key, cleared by a sweep of its few words) and the breadth-first
//! search over a dense state index with parent links ([`Bfs`], the paths, cleared in O(1) by a
//! generation stamp per state).
//!
//! Invariant: a state is seen by the search exactly when its stamp equals the current
//! generation; when the generation counter wraps, every stamp is reset once.

/// A set of lock keys ([`crate::plan::LockKey`]: a shape class and the anchor cell, on the
/// board) as bits: per class and anchor row, a bit row of anchor columns, so that the locks of a
/// whole row of states are told apart from the member sets already found by a few word
/// operations.
#[derive(Debug, Default)]
pub struct KeySet {
    bits: Vec<u64>,
    /// Words per bit row, and rows per class.
    nw: usize,
    height: usize,
}

impl KeySet {
    /// Empties the set, for the keys of `classes` classes on a board of `width` by `height`.
    pub fn begin(&mut self, classes: usize, width: usize, height: usize) {
        self.nw = width.div_ceil(64);
        self.height = height;
        self.bits.clear();
        self.bits.resize(classes * height * self.nw, 0);
    }

    fn base(&self, class: u8, y: i64) -> usize {
        debug_assert!(y >= 0 && (y as usize) < self.height);
        (class as usize * self.height + y as usize) * self.nw
    }

    /// Adds the key; false when it was already there.
    #[inline]
    pub fn insert(&mut self, (class, x, y): (u8, i64, i64)) -> bool {
        let i = self.base(class, y) + x as usize / 64;
        let bit = 1u64 << (x as usize % 64);
        let fresh = self.bits[i] & bit == 0;
        self.bits[i] |= bit;
        fresh
    }

    /// The keys of class `class`, anchor row `y` and anchor columns `x..x + 64`, as bits (bit 0
    /// = column `x`; columns off the board read as absent).
    #[inline]
    pub fn window(&self, class: u8, y: i64, x: i64) -> u64 {
        let b = self.base(class, y);
        super::bits::window(&self.bits[b..b + self.nw], x)
    }

    /// Adds the keys of [`KeySet::window`]'s bits `m` (which must lie on the board).
    #[inline]
    pub fn add_window(&mut self, class: u8, y: i64, x: i64, m: u64) {
        let b = self.base(class, y);
        let row = &mut self.bits[b..b + self.nw];
        let (q, r) = (x.div_euclid(64), x.rem_euclid(64) as u32);
        if q >= 0 && (q as usize) < row.len() {
            row[q as usize] |= m << r;
        }
        if r > 0 && q + 1 >= 0 && ((q + 1) as usize) < row.len() {
            row[(q + 1) as usize] |= m >> (64 - r);
        }
    }
}

/// Reusable buffers of a breadth-first search over a dense state index: a generation stamp per
/// state avoids clearing between searches.
#[derive(Debug, Default)]
pub struct Bfs {
    stamp: Vec<u32>,
    parent: Vec<u32>,
    cmd: Vec<u8>,
    generation: u32,
    pub queue: Vec<u32>,
    /// Path length from the start of the search, per state seen ([`crate::plan::UnitSpace::path`]).
    pub(crate) dist: Vec<u32>,
    /// States by bound on the path length through them, less the start's ([`crate::plan::UnitSpace::path`]).
    pub(crate) buckets: Vec<Vec<u32>>,
}

impl Bfs {
    pub fn begin(&mut self, states: usize) {
        if self.stamp.len() < states {
            self.stamp.resize(states, 0);
            self.parent.resize(states, 0);
            self.cmd.resize(states, 0);
            self.dist.resize(states, 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        self.queue.clear();
    }

    #[inline]
    pub fn seen(&self, i: usize) -> bool {
        self.stamp[i] == self.generation
    }

    #[inline]
    pub fn visit(&mut self, i: usize, parent: u32, cmd: u8) {
        self.stamp[i] = self.generation;
        self.parent[i] = parent;
        self.cmd[i] = cmd;
        self.queue.push(i as u32);
    }

    /// Queues `i` in bucket `b` of the A* search.
    pub(crate) fn push(&mut self, b: usize, i: u32) {
        if self.buckets.len() <= b {
            self.buckets.resize_with(b + 1, Vec::new);
        }
        self.buckets[b].push(i);
    }

    #[inline]
    pub fn parent(&self, i: usize) -> (u32, u8) {
        (self.parent[i], self.cmd[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_sets_forget_everything_at_each_begin() {
        let mut s = KeySet::default();
        s.begin(2, 100, 3);
        assert!(s.insert((1, 70, 2)));
        assert!(!s.insert((1, 70, 2)));
        assert!(s.insert((0, 70, 2)) && s.insert((1, 70, 1)));
        s.begin(2, 100, 3);
        assert!(s.insert((1, 70, 2)), "a new set starts empty");
    }

    /// Windows read and add keys across word boundaries, from columns left of the board too.
    #[test]
    fn key_set_windows_cross_words() {
        let mut s = KeySet::default();
        s.begin(1, 130, 2);
        s.add_window(0, 1, 60, 0b1011);
        for x in [60, 61, 63] {
            assert!(!s.insert((0, x, 1)), "{x}");
        }
        assert!(s.insert((0, 62, 1)) && s.insert((0, 60, 0)));
        assert_eq!(s.window(0, 1, 59), 0b11110);
        s.add_window(0, 0, -3, 0b1_1000);
        assert_eq!(s.window(0, 0, 0) & 0xff, 0b11);
        s.add_window(0, 0, 127, 0b111);
        assert_eq!(s.window(0, 0, 126), 0b1110);
    }

    #[test]
    fn bfs_records_parents_and_forgets_at_each_begin() {
        let mut b = Bfs::default();
        b.begin(5);
        b.visit(0, u32::MAX, 0);
        b.visit(3, 0, 2);
        assert!(b.seen(3) && !b.seen(1));
        assert_eq!(b.parent(3), (0, 2));
        assert_eq!(b.queue, [0, 3]);
        b.begin(5);
        assert!(!b.seen(3) && b.queue.is_empty());
    }
}
