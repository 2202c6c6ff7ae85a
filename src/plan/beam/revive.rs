//! A beam's revival: where every partial game it keeps dies at the same unit, the beam goes
//! back to a snapshot of itself some units earlier and searches that stretch again, wider, with
//! fresh tie-breaks and few children of one partial game kept ([`REVIVED_SIBLINGS`]), within a
//! budget of partial games ([`Revive`]).

use super::{BeamShape, Node};
use crate::plan::PlanConfig;

/// On a rewound stretch, the most children of one partial game a beam keeps while children of
/// others are left: the rest of its width goes to the best children of the others. The partial
/// games a beam keeps are often the children of one or two, which then die together; a beam
/// revived where all its games died searches the stretch again with games of more parents.
/// Problem 18's width-16 survival table (`hextris bench problem_18.json --survival --widths 16
/// --repeats 6`): `survive` 69.8 -> 92.3 %, `fill` 62.6 -> 91.7 % (1: 87.9 % for `survive`);
/// the solver's games, whose beams revive within a smaller budget, move within a tenth of a per
/// cent on five random survival sets (docs/tuning.md).
pub(super) const REVIVED_SIBLINGS: usize = 2;

/// The indices of `items` (best first) in the order a beam takes them when it keeps at most
/// `cap` children of one parent (`parent_of`) while others are left: first every item within
/// its parent's first `cap`, in their order, then the others, in their order.
pub(super) fn sibling_order<T>(
    items: &[T],
    parent_of: impl Fn(&T) -> usize,
    cap: usize,
) -> Vec<usize> {
    let mut counts: rustc_hash::FxHashMap<usize, usize> = rustc_hash::FxHashMap::default();
    let (mut first, mut rest) = (Vec::with_capacity(items.len()), Vec::new());
    for (i, item) in items.iter().enumerate() {
        let c = counts.entry(parent_of(item)).or_insert(0);
        *c += 1;
        if *c <= cap {
            first.push(i);
        } else {
            rest.push(i);
        }
    }
    first.extend(rest);
    first
}

/// Units between two snapshots of the beam that a rewind can go back to. Not a knob: the
/// rewinds double in length, so the spacing moves only where they land, not what they cost.
const SNAP_EVERY: usize = 8;

/// Snapshots kept: a rewind goes back at most this many times [`SNAP_EVERY`] units. Not a knob:
/// 256 units is past any stretch a revival's budget can search again.
const SNAPS: usize = 32;

/// The tries a reviving beam makes at one unit of death. Not a knob: what a revival may spend is
/// bounded by its budget ([`PlanConfig::revive_budget`], from search.json) or its task's limit.
const REVIVALS: u32 = 8;

/// The widest a rewound stretch searches (a wider beam keeps its own width). Not a knob: its
/// cost is bounded by the revival's budget, as for [`REVIVALS`].
const REVIVE_WIDTH: usize = 32;

/// Where every partial game of a beam ends at once (the next unit cannot spawn on any board
/// it keeps), the beam goes back to a snapshot some units earlier and searches from there
/// again, up to a little past where it died, then at its own width. Each new death at or
/// before the farthest unit reached goes back twice as far with a beam twice as wide (up to
/// [`REVIVE_WIDTH`]; the tie-breaking noise draws anew in any case), until [`REVIVALS`] tries
/// have failed there; a death past it starts the count again. A rewind is made only while the
/// partial games expanded in all, its stretch included, stay within the budget. So a beam that
/// plays its whole source is untouched, and a narrow beam spends its budget only on the
/// stretches where its games die. A beam with a narrow width ([`PlanConfig::revive_narrow`])
/// counts its rewound stretches' widths from it, and keeps it after its first death; one
/// without a budget whose task has a horizon keeps trying after [`REVIVALS`] tries.
pub(super) struct Revive {
    /// The most partial games the beam may expand, rewound stretches included (0: it never
    /// rewinds, nor takes snapshots).
    budget: usize,
    /// The beam at the start of every [`SNAP_EVERY`]-th unit, the latest [`SNAPS`] of them.
    snaps: std::collections::VecDeque<(usize, Vec<Node>)>,
    /// The farthest unit at which the beam died, and the tries made since.
    died_at: usize,
    tries: u32,
    /// Until this unit, beams are this wide.
    until: usize,
    wide: usize,
    /// Partial games expanded so far.
    expanded: usize,
    /// See [`PlanConfig::revive_narrow`] (0: none).
    narrow: usize,
    /// Whether every partial game of the beam has ended at once at least once.
    died: bool,
    /// A beam without a budget of its own whose task has a horizon keeps rewinding after
    /// [`REVIVALS`] tries, until its cut narrows it: what else would it do with the time?
    endless: bool,
}

impl Revive {
    pub(super) fn new(cfg: &PlanConfig) -> Revive {
        Revive {
            budget: cfg.revive_budget,
            snaps: std::collections::VecDeque::new(),
            died_at: cfg.prefix.len(),
            tries: 0,
            until: 0,
            wide: 0,
            expanded: 0,
            narrow: cfg.revive_narrow,
            died: false,
            endless: cfg.revive_budget == crate::plan::REVIVE_TO_HORIZON
                && cfg.limit.cut.allowance.is_finite(),
        }
    }

    /// Keeps a snapshot of `beam` at the start of unit `step`, where one is due.
    pub(super) fn snap(&mut self, step: usize, beam: &[Node]) {
        if self.budget == 0 || !step.is_multiple_of(SNAP_EVERY) {
            return;
        }
        if self.snaps.back().is_some_and(|s| s.0 >= step) {
            // Back at a snapshot after a rewind: it holds the beam that was rewound to.
            return;
        }
        if self.snaps.len() == SNAPS {
            self.snaps.pop_front();
        }
        self.snaps.push_back((step, beam.to_vec()));
    }

    /// The beam's shape at unit `step`: wider on a rewound stretch (from the narrow width, if
    /// any), and the narrow width after the first death.
    pub(super) fn shape(&self, step: usize, shape: BeamShape) -> BeamShape {
        if step < self.until && (self.wide > shape.width || self.narrow > 0) {
            BeamShape::of_width(self.wide)
        } else if self.died && self.narrow > 0 && self.narrow < shape.width {
            BeamShape::of_width(self.narrow)
        } else {
            shape
        }
    }

    /// Whether unit `step` lies on a rewound stretch.
    pub(super) fn revived(&self, step: usize) -> bool {
        self.tries > 0 && step < self.until
    }

    /// Counts the partial games expanded at one unit.
    pub(super) fn count(&mut self, width: usize) {
        self.expanded += width;
    }

    /// Every partial game of a beam of `width` ended at unit `step`: the unit to go back to and
    /// its beam, or None when the tries there or the budget are spent.
    pub(super) fn rewind(&mut self, step: usize, width: usize) -> Option<(usize, Vec<Node>)> {
        self.died = true;
        let width = match self.narrow {
            0 => width,
            n => n.min(width),
        };
        if step > self.died_at {
            self.died_at = step;
            self.tries = 0;
        }
        self.tries += 1;
        if self.tries > REVIVALS && !self.endless {
            return None;
        }
        let back = (2 * SNAP_EVERY) << self.tries.min(8);
        let target = self.died_at.saturating_sub(back);
        // The latest snapshot at or before the target (the earliest kept when none is).
        let i = self.snaps.iter().rposition(|s| s.0 <= target).unwrap_or(0);
        let at = self.snaps.get(i)?.0;
        let wide = (width << self.tries.min(8)).min(REVIVE_WIDTH.max(width));
        let until = self.died_at + SNAP_EVERY;
        if self.expanded + (until - at) * wide > self.budget {
            return None;
        }
        // Later snapshots were taken on the way to this death; the rewound stretch replaces them.
        self.snaps.truncate(i + 1);
        self.wide = wide;
        self.until = until;
        Some((at, self.snaps[i].1.clone()))
    }
}
