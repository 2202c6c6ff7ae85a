//! The checkpoints of the forward programme (see the module doc of [`super`], "Above the
//! stack"): where the programme, on a board whose top rows are an empty board's, can start
//! again from the values it found there before instead of from the spawn.
//!
//! Invariants: a checkpoint of a key holds the fresh arrivals on its row and the value of every
//! lock above that row, as the programme worked them out; the bytes the checkpoints hold are
//! counted, and a checkpoint that would take them past [`CHECKPOINT_BYTES`] drops all the
//! others first, so that their memory stays bounded.

use super::{Forward, FRESH};
use crate::plan::Lock;

/// Rows between a checkpoint and the first row that differs from the empty board when it is
/// made: the stack may grow that much before the checkpoint is made again.
pub(super) const MARGIN: i64 = 8;

/// The most bytes of checkpoints kept; past it they are all dropped before the next one.
const CHECKPOINT_BYTES: usize = 4 << 20;

/// Where the programme can start again on a board whose rows down to `row` are an empty board's
/// (see the module doc).
#[derive(Clone, Debug)]
pub(super) struct Checkpoint {
    pub(super) row: i64,
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
    /// Starts from the checkpoint of `key`, if there is one above `clear` (the first row that
    /// differs from the empty board) that holds the value of every lock above it: those values
    /// go into `out`, its arrivals into the current row. Returns its row and how many locks of
    /// `order` lie above it.
    pub(super) fn resume(
        &mut self,
        key: CheckpointKey,
        clear: i64,
        locks: &[Lock],
        order: &[usize],
        out: &mut [Option<(i32, u32)>],
    ) -> Option<(i64, usize)> {
        let c = self.checkpoints.get(&key).filter(|c| c.row < clear)?;
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
        for (xi, column) in c.arrivals.chunks(na).enumerate() {
            let base = (xi * 3 + FRESH) * na;
            for (a, &v) in column.iter().enumerate() {
                self.cur[base + a] = v;
            }
        }
        Some((c.row, above))
    }

    /// Keeps a checkpoint for `key` at row `row` (the current row, before it settles): its
    /// arrivals, and the values of the locks `done` (those above it) found so far in `out`.
    pub(super) fn save(
        &mut self,
        key: CheckpointKey,
        row: i64,
        width: usize,
        done: &[usize],
        locks: &[Lock],
        out: &[Option<(i32, u32)>],
    ) {
        let na = self.ac.len();
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
        let bytes = arrivals.len() * 4 + values.len() * 32;
        if self.checkpoint_bytes + bytes > CHECKPOINT_BYTES {
            self.checkpoints.clear();
            self.checkpoint_bytes = 0;
        }
        self.checkpoint_bytes += bytes;
        let old = self.checkpoints.insert(
            key,
            Checkpoint {
                row,
                arrivals,
                locks: values,
            },
        );
        if let Some(old) = old {
            self.checkpoint_bytes -= old.arrivals.len() * 4 + old.locks.len() * 32;
        }
    }
}
