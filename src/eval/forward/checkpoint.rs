//! The checkpoints of the forward programme (see the module doc of [`super`], "Above the
//! stack"): where the programme, on a board whose top rows are those of a board it valued
//! before, can start again from the values it found there instead of from the spawn.
//!
//! Invariants: a checkpoint of a key holds the fresh arrivals on its row and the value of every
//! lock above that row, as the programme worked them out; the bytes the checkpoints hold are
//! counted, and a checkpoint that would take them past [`CHECKPOINT_BYTES`] drops all the
//! others first, so that their memory stays bounded.

use super::{Forward, FRESH};
use crate::plan::{Lock, UnitSpace};

/// Rows between a checkpoint and the first row that differs from the empty board when it is
/// made: the stack may grow that much before the checkpoint is made again.
pub(super) const MARGIN: i64 = 3;

/// The most bytes of checkpoints kept; past it they are all dropped before the next one.
const CHECKPOINT_BYTES: usize = 16 << 20;

/// The most checkpoints kept per key, the oldest dropped first: the boards of a beam differ
/// above their stacks where their units locked high (problem 18's shelf), each line of descent
/// keeps its own, and a call makes one every `DEEPER` rows of a tall stack (problem 14: up to
/// ten a call).
const PER_KEY: usize = 32;

/// Where the programme can start again on a board whose rows down to `row` are those it was
/// made on (see the module doc).
#[derive(Clone, Debug)]
pub(super) struct Checkpoint {
    pub(super) row: i64,
    /// The unit's free map from its spawn's row down to `row`, both included: the values down
    /// to `row` depend on these alone.
    free: Vec<u64>,
    /// The work the programme counted above `row` (its rows and locks).
    work: u64,
    /// The fresh arrivals on `row`, per column (from the unit's `x_lo`) and node.
    arrivals: Vec<i32>,
    /// The values of the locks above `row`, by (row, column, commands), sorted.
    locks: Vec<((i64, i64, u8), LockValue)>,
}

/// A lock's value and the node it leaves (`None`: no path reaches it).
pub(super) type LockValue = Option<(i32, u32)>;

/// What a checkpoint is kept for: the unit, the node it starts from, and whether the lock
/// values include the potential.
pub(super) type CheckpointKey = (usize, u32, bool);

impl Forward {
    /// Starts from the checkpoint of `key`, if there is one made on the same rows of the free
    /// map `free` of `sp` down to its row, that holds the value of every lock above it: those
    /// values go into `out`, its arrivals into the current row. Returns its row, how many locks
    /// of `order` lie above it, and the work counted above it.
    pub(super) fn resume(
        &mut self,
        key: CheckpointKey,
        sp: &UnitSpace,
        free: &[u64],
        locks: &[Lock],
        order: &[usize],
        out: &mut [Option<(i32, u32)>],
    ) -> Option<(i64, usize, u64)> {
        // The deepest of the key's checkpoints made on the same rows.
        let c = self
            .checkpoints
            .get(&key)?
            .iter()
            .filter(|c| rows_down_to(sp, free, c.row) == Some(&c.free[..]))
            .max_by_key(|c| c.row)?;
        let above = order.partition_point(|&i| locks[i].state.y < c.row);
        let mut values = Vec::with_capacity(above);
        for &i in &order[..above] {
            let l = &locks[i];
            let at = (l.state.y, l.state.x, l.cmds);
            let j = c.locks.binary_search_by(|e| e.0.cmp(&at)).ok()?;
            values.push(c.locks[j].1);
        }
        for (&i, v) in order[..above].iter().zip(values) {
            out[i] = v;
        }
        let na = self.ac.len();
        let (row, work) = (c.row, c.work);
        for (xi, column) in c.arrivals.chunks(na).enumerate() {
            let base = (xi * 3 + FRESH) * na;
            self.cur[base..base + na].copy_from_slice(column);
        }
        self.resumed += 1;
        Some((row, above, work))
    }

    /// Keeps a checkpoint for `key` at row `row` (the current row, before it settles) of the
    /// free map `free` of `sp`: its arrivals, the map's rows down to it, the `work` counted
    /// above it, and the values of the locks `done` (those above it) found so far in `out`.
    pub(super) fn save(
        &mut self,
        key: CheckpointKey,
        (sp, free): (&UnitSpace, &[u64]),
        (row, work): (i64, u64),
        done: &[usize],
        locks: &[Lock],
        out: &[Option<(i32, u32)>],
    ) {
        let na = self.ac.len();
        let width = sp.row_len(0) * 64;
        let arrivals: Vec<i32> = (0..width)
            .flat_map(|xi| (0..na).map(move |a| (xi, a)))
            .map(|(xi, a)| self.cur[(xi * 3 + FRESH) * na + a])
            .collect();
        let mut values: Vec<_> = done
            .iter()
            .map(|&i| {
                let l = &locks[i];
                ((l.state.y, l.state.x, l.cmds), out[i])
            })
            .collect();
        values.sort_by_key(|e| e.0);
        let Some(rows) = rows_down_to(sp, free, row) else {
            return;
        };
        let c = Checkpoint {
            row,
            free: rows.to_vec(),
            work,
            arrivals,
            locks: values,
        };
        if self.checkpoint_bytes + c.bytes() > CHECKPOINT_BYTES {
            self.checkpoints.clear();
            self.checkpoint_bytes = 0;
        }
        self.checkpoint_bytes += c.bytes();
        let kept = self.checkpoints.entry(key).or_default();
        if kept.len() == PER_KEY {
            self.checkpoint_bytes -= kept.remove(0).bytes();
        }
        kept.push(c);
    }
}

impl Checkpoint {
    /// The bytes it holds, as counted against [`CHECKPOINT_BYTES`].
    fn bytes(&self) -> usize {
        self.arrivals.len() * 4 + self.free.len() * 8 + self.locks.len() * 32
    }
}

/// The rows of the free map `free` of `sp` (which does not rotate) from its spawn's row down to
/// `row`, both included (`None` when `row` lies outside the map).
fn rows_down_to<'a>(sp: &UnitSpace, free: &'a [u64], row: i64) -> Option<&'a [u64]> {
    let (top, _) = sp.row(0, sp.spawn_state().y)?;
    let (b, n) = sp.row(0, row)?;
    free.get(top..b + n)
}
