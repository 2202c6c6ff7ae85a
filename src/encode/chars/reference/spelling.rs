//! The reference encoder's spelling of one plan: the backward pass over the units, then the
//! forward walk unit after unit, A* walks.

use super::super::first::{first_uses, FirstUses, SoFar};
use super::super::heading::FRESH;
use super::super::region::{Bufs, Region};
use super::super::rounds::{Effort, Search, UnitWalk, FIRST_USE_ROUNDS};
use super::super::tables::{CharTables, Fresh, FreshAutomata};
use super::super::walk::Walk;
use super::super::{fall_rows, possible, CharStats};
use super::programme::{values, Slow, SlowBufs, Values};
use crate::encode::Encoder;
use crate::engine::Board;
use crate::plan::{Plan, UnitSpace};
use crate::work::Limit;

/// Memory the encoder may keep the backward pass's values in, for the forward walk.
const KEEP_BYTES: usize = 64 << 20;

/// Search expansions the A* search of one unit may spend per compact state of its region...
const BUDGET_PER_STATE: usize = 64;
/// ...and besides, whatever the region's size.
const BUDGET_BASE: usize = 4096;

/// The A* search's budget for a unit whose region has `states` compact states: a few dozen
/// expansions per state, so that it grows with the unit's freedom. Past it the walk falls back
/// to the depth-first search, which is given as many nodes.
pub(super) fn search_budget(states: usize) -> usize {
    BUDGET_PER_STATE * states + BUDGET_BASE
}

/// What the backward pass leaves for the forward walk.
#[derive(Default)]
pub(super) struct Backward {
    /// Node gains of the repetition automaton: the repeated phrases' occurrences.
    pub(super) gains: Vec<i32>,
    /// Per unit (and one past the last: the game's end, worth nothing), per node of the
    /// repetition automaton: the value of entering the unit at its spawn in that node, counting
    /// repetitions only; the *terminal* values of the unit before. Zero before the opening's end.
    pub(super) enter: Vec<Vec<i32>>,
    /// Per unit: its region and values, kept while they fit in [`KEEP_BYTES`], so that a unit
    /// the forward walk values on the repetition automaton again needs no new programme.
    pub(super) saved: Vec<Option<(Region, Values)>>,
}

/// The buffers one encoding reuses from unit to unit.
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) bufs: Bufs,
    pub(super) slow: SlowBufs,
    pub(super) free: Vec<u64>,
    /// The region and values of the unit in hand.
    pub(super) region: Region,
    pub(super) vals: Values,
    /// The region and values of the next unit, for spans.
    pub(super) next_region: Region,
    pub(super) next_vals: Values,
    pub(super) fresh: FreshAutomata,
}

/// One plan being spelt by the character encoder: what every stage reads.
pub(super) struct Spelling<'a> {
    pub(super) encoder: &'a Encoder<'a>,
    pub(super) ct: &'a CharTables,
    pub(super) plan: &'a Plan,
    /// The board before each unit.
    pub(super) boards: Vec<Board>,
    pub(super) limit: Limit,
    pub(super) back: Backward,
}

impl Spelling<'_> {
    pub(super) fn space(&self, u: usize) -> &UnitSpace {
        &self.encoder.tables.spaces[self.plan.placements[u].unit]
    }

    /// The rows unit `u` passes through (see [`fall_rows`]).
    pub(super) fn rows(&self, u: usize) -> usize {
        fall_rows(self.encoder.tables, &self.plan.placements[u])
    }

    /// The backward pass over the units from `first` on (see [`Backward`]); `None` once the
    /// limit stops it.
    pub(super) fn backward(
        &self,
        first: usize,
        scratch: &mut Scratch,
        stats: &mut CharStats,
    ) -> Option<Backward> {
        let (ct, n) = (self.ct, self.plan.placements.len());
        let rep = &ct.rep;
        let Scratch {
            bufs,
            slow,
            region,
            vals,
            free: free_buf,
            ..
        } = scratch;
        let mut back = Backward {
            gains: CharTables::gains(rep, &ct.rep_ids, |p| ct.repeat[p]),
            enter: vec![vec![0; rep.len()]; n + 1],
            saved: (0..n).map(|_| None).collect(),
        };
        let mut kept = 0usize;
        for u in (first..n).rev() {
            if self.limit.stopped() {
                return None;
            }
            let sp = self.space(u);
            sp.free_map(&self.boards[u], free_buf);
            let free = std::mem::take(free_buf);
            let key = self.plan.placements[u].lock.key;
            if region.build(sp, &free, key, ct.corridor, bufs) {
                let (head, tail) = back.enter.split_at_mut(u + 1);
                values(sp, region, rep, &back.gains, &tail[0], slow, vals);
                stats.states += region.states.len();
                let s0 = region.spawn as usize;
                head[u] = (0..rep.len()).map(|a| vals.at(s0, FRESH, a)).collect();
                // The forward walk needs these values again unless the unit spells a first
                // use: keep them while they fit.
                let bytes = vals.vals.len() * 4 + region.states.len() * 48;
                if kept + bytes <= KEEP_BYTES {
                    kept += bytes;
                    region.compact = Vec::new();
                    back.saved[u] = Some((std::mem::take(region), std::mem::take(vals)));
                }
            }
            *free_buf = free;
        }
        Some(back)
    }

    /// The phrases whose first use unit `u`'s walk counts (see [`first_uses`]).
    pub(super) fn first_uses(&self, u: usize, so_far: &SoFar, region: &Region) -> FirstUses {
        let next_rows = (u + 1 < self.plan.placements.len()).then(|| self.rows(u + 1));
        let unit = self.plan.placements[u].unit;
        first_uses(
            self.ct,
            self.encoder.table,
            unit,
            self.rows(u),
            next_rows,
            so_far,
            region,
        )
    }

    /// What the next unit makes of each node of `fresh`'s automaton when it may finish one of
    /// `uses.spans`: its values at its spawn, the unit after it valued by the backward pass.
    /// `None` when the next unit's region cannot be built.
    pub(super) fn span_values(
        &self,
        u: usize,
        fresh: &Fresh,
        uses: &FirstUses,
        bufs: (&mut Bufs, &mut SlowBufs),
        next: (&mut Region, &mut Values),
        stats: &mut CharStats,
    ) -> Option<Vec<i32>> {
        let (bufs, slow) = bufs;
        let (next_region, next_vals) = next;
        let q = &self.plan.placements[u + 1];
        let nsp = self.space(u + 1);
        // The next unit's region: kept from the backward pass, or built.
        let region = match &self.back.saved[u + 1] {
            Some((r, _)) => r,
            None => {
                let mut nfree = Vec::new();
                nsp.free_map(&self.boards[u + 1], &mut nfree);
                if !next_region.build(nsp, &nfree, q.lock.key, self.ct.corridor, bufs) {
                    return None;
                }
                &*next_region
            }
        };
        let after: Vec<i32> = fresh
            .rep_of
            .iter()
            .map(|&r| self.back.enter[u + 2][r as usize])
            .collect();
        let gains = uses.next_gains(self.ct, &fresh.ac);
        values(nsp, region, &fresh.ac, &gains, &after, slow, next_vals);
        stats.states += region.states.len();
        let s0 = region.spawn as usize;
        Some(
            (0..fresh.ac.len())
                .map(|a| next_vals.at(s0, FRESH, a))
                .collect(),
        )
    }

    /// Unit `u`'s text from the programme's values, on free map `free`, after the text
    /// `so_far`; `None` when its region cannot be built or its searches find no path (the
    /// caller falls back to a plain path).
    pub(super) fn walk_unit(
        &self,
        u: usize,
        free: &[u64],
        so_far: &SoFar,
        scratch: &mut Scratch,
        stats: &mut CharStats,
    ) -> Option<String> {
        let ct = self.ct;
        let sp = self.space(u);
        let key = self.plan.placements[u].lock.key;
        let Scratch {
            bufs,
            slow,
            region,
            vals,
            next_region,
            next_vals,
            fresh,
            ..
        } = scratch;
        // The region: kept from the backward pass, or built again.
        let (region, kept_vals) = match &self.back.saved[u] {
            Some((r, v)) => (r, Some(v)),
            None => {
                if !region.build(sp, free, key, ct.corridor, bufs) {
                    return None;
                }
                (&*region, None)
            }
        };
        let uses = self.first_uses(u, so_far, region);
        let budget = search_budget(region.states.len());
        if uses.is_empty() {
            // Repetitions only: the backward pass's values serve, kept or computed again.
            let terminal = &self.back.enter[u + 1];
            let vals = match kept_vals {
                Some(v) => v,
                None => {
                    values(sp, region, &ct.rep, &self.back.gains, terminal, slow, vals);
                    stats.states += region.states.len();
                    &*vals
                }
            };
            let walk = Walk {
                sp,
                region,
                vals,
                ac: &ct.rep,
                gains: &self.back.gains,
                terminal,
            };
            return walk.astar_search(so_far.rep, budget, stats);
        }
        let f = fresh.get(self.encoder.table, ct, &uses.ids);
        // The terminal values: the backward pass's, raised by what the next unit makes of a
        // span begun here.
        let mut terminal: Vec<i32> = f
            .rep_of
            .iter()
            .map(|&r| self.back.enter[u + 1][r as usize])
            .collect();
        if !uses.spans.is_empty() {
            let next = (next_region, next_vals);
            if let Some(span) = self.span_values(u, f, &uses, (bufs, slow), next, stats) {
                for (t, v) in terminal.iter_mut().zip(span) {
                    if possible(v) {
                        *t = (*t).max(v);
                    }
                }
            }
        }
        let unit = UnitWalk {
            sp,
            region,
            ac: &f.ac,
            values: &uses.pattern_values(ct),
            terminal: &terminal,
        };
        let effort = Effort {
            search: Search::AStar { budget },
            rounds: FIRST_USE_ROUNDS,
            limit: self.limit,
        };
        let mut programme = Slow { bufs: slow, vals };
        unit.best(
            f.of_full[so_far.full as usize],
            effort,
            &mut programme,
            stats,
        )
    }

    /// Unit `u`'s text: the walk's, or the plain shortest path when the walk finds none. It
    /// always locks the unit at its planned lock.
    pub(super) fn spell_unit(
        &self,
        u: usize,
        so_far: &SoFar,
        scratch: &mut Scratch,
        stats: &mut CharStats,
    ) -> String {
        let sp = self.space(u);
        sp.free_map(&self.boards[u], &mut scratch.free);
        let free = std::mem::take(&mut scratch.free);
        let text = self
            .walk_unit(u, &free, so_far, scratch, stats)
            .unwrap_or_else(|| {
                stats.fallbacks += 1;
                let key = self.plan.placements[u].lock.key;
                crate::encode::plain_text(sp, &free, sp.spawn_state(), key, &mut scratch.bufs.bfs)
            });
        scratch.free = free;
        text
    }
}
