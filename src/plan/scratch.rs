//! Reusable buffers of the planner's searches, cleared in O(1) by a generation stamp per element
//! instead of a sweep: a set of small integers ([`Stamps`], the lock deduplication) and the
//! breadth-first search over a dense state index with parent links ([`Bfs`], the paths).
//!
//! Invariant: an element is in the set (or seen by the search) exactly when its stamp equals the
//! current generation; when the generation counter wraps, every stamp is reset once.

/// A set of small integers with O(1) clearing: a generation stamp per element.
#[derive(Debug, Default)]
pub struct Stamps {
    stamp: Vec<u32>,
    generation: u32,
}

impl Stamps {
    /// Empties the set and makes room for elements below `n`.
    pub fn begin(&mut self, n: usize) {
        if self.stamp.len() < n {
            self.stamp.resize(n, 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
    }

    /// Adds `i`; false when it was already there.
    #[inline]
    pub fn insert(&mut self, i: usize) -> bool {
        let fresh = self.stamp[i] != self.generation;
        self.stamp[i] = self.generation;
        fresh
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
    fn stamps_forget_everything_at_each_begin() {
        let mut s = Stamps::default();
        s.begin(10);
        assert!(s.insert(3));
        assert!(!s.insert(3));
        assert!(s.insert(9));
        s.begin(10);
        assert!(s.insert(3), "a new generation starts empty");
        // Growing keeps the old elements out.
        s.begin(20);
        assert!(s.insert(19) && s.insert(3));
    }

    #[test]
    fn stamps_survive_the_generation_wrapping() {
        let mut s = Stamps::default();
        s.begin(4);
        s.insert(1);
        s.generation = u32::MAX;
        s.stamp[2] = u32::MAX;
        s.begin(4);
        assert_eq!(s.generation, 1);
        assert!(s.insert(1) && s.insert(2), "no stale stamp after the wrap");
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
