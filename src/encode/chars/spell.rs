//! One plan being spelt: a backward pass over the units on the repetition automaton, then the
//! units one after the other (see the module doc of [`super`]).
//!
//! The backward pass keeps, per unit, the value of entering it at its spawn in each node of the
//! repetition automaton: the *terminal* values of the unit before (only their differences
//! matter, every walk of a unit ending at the same lock), and the unit's region and values while
//! they fit in [`KEEP_BYTES`], so that a unit that spells repetitions only needs no second
//! programme. Then per unit: its region, the phrases whose first use it counts, its values and
//! its walk, with the Lagrangian rounds where first uses count. The next unit's region, built
//! for a span, is kept for its own turn.

use super::first::{first_uses, FirstUses, SoFar};
use super::heading::FRESH;
use super::kernel::{FastProgramme, FastValues};
use super::region::{Bufs, Region};
use super::rounds::{Effort, Programme, Search, UnitWalk, FIRST_USE_ROUNDS};
use super::tables::{CharTables, FreshAutomata};
use super::walk::{Bound, Walk};
use super::{fall_rows, possible, CharStats};
use crate::encode::Encoder;
use crate::engine::Board;
use crate::plan::{Plan, UnitSpace};
use crate::work::Limit;

/// Memory the encoder may keep the backward pass's regions and values in, for the walks.
const KEEP_BYTES: usize = 64 << 20;

/// Columns each side of a unit's shortest path the backward pass covers on boards wide enough
/// for a corridor ([`super::tables::CORRIDOR`] for the walks): the backward pass only values
/// entering a unit in each node, which depends on what the unit can spell near its way down, so
/// a narrower corridor than the walks' scores as well in less time (docs/tuning.md).
const BACK_CORRIDOR: i64 = 6;

/// Nodes the search for a path at the programme's bound may visit per row of the unit's region,
/// and besides: a path visits a few nodes per character, a few characters per row.
const EXACT_PER_ROW: usize = 64;
const EXACT_BASE: usize = 1024;

/// The buffers one encoding reuses from unit to unit.
#[derive(Default)]
pub(super) struct Scratch {
    bufs: Bufs,
    /// The region of the unit in hand, and of the next one (built for a span, kept for the
    /// next unit's turn when `next_for` names it).
    region: Region,
    next_region: Region,
    next_for: Option<usize>,
    /// The programme of the unit's walk, and of a span's next unit.
    walk: FastProgramme,
    span: FastProgramme,
    fresh: FreshAutomata,
    free: Vec<u64>,
}

/// What the backward pass leaves for the walks.
struct Backward {
    /// Per unit (and one past the last), per node of the repetition automaton: the value of
    /// entering the unit at its spawn in that node, counting repetitions only.
    enter: Vec<Vec<i32>>,
    /// Per unit: its region and values, while they fit in [`KEEP_BYTES`].
    kept: Vec<Option<(Region, FastValues)>>,
}

/// One plan being spelt: what every unit reads.
pub(super) struct Forward<'a> {
    pub(super) encoder: &'a Encoder<'a>,
    pub(super) ct: &'a CharTables,
    pub(super) plan: &'a Plan,
    /// The board before each unit.
    pub(super) boards: Vec<Board>,
    pub(super) limit: Limit,
    /// Node gains of the repetition automaton: the repeated phrases' occurrences.
    pub(super) rep_gains: Vec<i32>,
}

impl Forward<'_> {
    fn space(&self, u: usize) -> &UnitSpace {
        &self.encoder.tables.spaces[self.plan.placements[u].unit]
    }

    /// The rows unit `u` passes through (see [`fall_rows`]).
    fn rows(&self, u: usize) -> usize {
        fall_rows(self.encoder.tables, &self.plan.placements[u])
    }

    /// Builds unit `u`'s region into `region` on the board before it, within `corridor`
    /// columns of its shortest path (`None`: all); false when its spawn cannot reach its lock.
    fn build_in(
        &self,
        u: usize,
        corridor: Option<i64>,
        region: &mut Region,
        bufs: &mut Bufs,
        free: &mut Vec<u64>,
    ) -> bool {
        let sp = self.space(u);
        sp.free_map(&self.boards[u], free);
        region.build(sp, free, self.plan.placements[u].lock.key, corridor, bufs)
    }

    /// [`Forward::build_in`] the walks' corridor.
    fn build(&self, u: usize, region: &mut Region, bufs: &mut Bufs, free: &mut Vec<u64>) -> bool {
        self.build_in(u, self.ct.corridor, region, bufs, free)
    }

    /// Spells the units from `first` on after the text `so_far`, and the units it spelt to;
    /// `None` once the limit stops it. Where `enough` is given, it is asked after each unit whether
    /// to stop there (with the units spelt so far), and the limit stops the walks the same
    /// way: the text then ends with the last unit spelt.
    pub(super) fn spell(
        &self,
        first: usize,
        mut so_far: SoFar,
        stats: &mut CharStats,
        enough: Option<&dyn Fn(usize) -> bool>,
    ) -> Option<(String, usize)> {
        let mut scratch = Scratch::default();
        let mut back = self.backward(first, &mut scratch, stats)?;
        let n = self.plan.placements.len();
        for u in first..n {
            let passed = self.limit.stopped();
            if let Some(enough) = enough {
                if u > first && (passed || enough(u - first)) {
                    stats.pops += scratch.walk.bufs.pops + scratch.span.bufs.pops;
                    return Some((so_far.text, u));
                }
            }
            if passed {
                return None;
            }
            let kept = back.kept[u].take();
            let text = self.walk_unit(u, &so_far, &back.enter, kept, &mut scratch, stats);
            let text = text.unwrap_or_else(|| {
                stats.fallbacks += 1;
                self.plain(u, &mut scratch)
            });
            so_far.push(self.ct, &text);
        }
        stats.pops += scratch.walk.bufs.pops + scratch.span.bufs.pops;
        Some((so_far.text, n))
    }

    /// The plain shortest path of unit `u` to its lock: the last resort, which always locks it
    /// there.
    fn plain(&self, u: usize, scratch: &mut Scratch) -> String {
        let sp = self.space(u);
        sp.free_map(&self.boards[u], &mut scratch.free);
        let key = self.plan.placements[u].lock.key;
        crate::encode::plain_text(
            sp,
            &scratch.free,
            sp.spawn_state(),
            key,
            &mut scratch.bufs.bfs,
        )
    }

    /// The backward pass over the units from `first` on (see [`Backward`]); `None` once the
    /// limit stops it.
    fn backward(
        &self,
        first: usize,
        scratch: &mut Scratch,
        stats: &mut CharStats,
    ) -> Option<Backward> {
        let (ct, n) = (self.ct, self.plan.placements.len());
        let mut back = Backward {
            enter: vec![vec![0; ct.rep.len()]; n + 1],
            kept: (0..n).map(|_| None).collect(),
        };
        let mut kept_bytes = 0;
        // A region of another corridor than the walks' serves them no values.
        let corridor = self.ct.corridor.map(|_| BACK_CORRIDOR);
        let keep = corridor == self.ct.corridor;
        for u in (first..n).rev() {
            if self.limit.stopped() {
                return None;
            }
            let (region, bufs, free) = (&mut scratch.region, &mut scratch.bufs, &mut scratch.free);
            if !self.build_in(u, corridor, region, bufs, free) {
                continue;
            }
            let (head, tail) = back.enter.split_at_mut(u + 1);
            let sp = self.space(u);
            let region = &scratch.region;
            let vals = scratch
                .walk
                .value(sp, region, &ct.rep, &self.rep_gains, &tail[0]);
            stats.states += region.states.len();
            let s0 = region.spawn as usize;
            head[u] = (0..ct.rep.len()).map(|a| vals.at(s0, FRESH, a)).collect();
            let bytes = vals.fast.vals.len() * 4 + region.states.len() * 48;
            if keep && kept_bytes + bytes <= KEEP_BYTES {
                kept_bytes += bytes;
                let mut region = std::mem::take(&mut scratch.region);
                region.compact = Vec::new();
                back.kept[u] = Some((region, std::mem::take(&mut scratch.walk.out)));
            }
        }
        Some(back)
    }

    /// Unit `u`'s text from the programme's values after the text `so_far`, with the backward
    /// pass's `enter` values and, when it kept them, the unit's region and values; `None` when
    /// its region cannot be built or its searches find no path (the caller falls back to a
    /// plain path).
    fn walk_unit(
        &self,
        u: usize,
        so_far: &SoFar,
        enter: &[Vec<i32>],
        kept: Option<(Region, FastValues)>,
        scratch: &mut Scratch,
        stats: &mut CharStats,
    ) -> Option<String> {
        let ct = self.ct;
        let sp = self.space(u);
        // The region: kept by the backward pass, built for a span of the unit before, or now.
        let (kept_vals, from_span) = match kept {
            Some((region, vals)) => {
                scratch.region = region;
                (Some(vals), false)
            }
            None => (None, scratch.next_for == Some(u)),
        };
        if from_span {
            std::mem::swap(&mut scratch.region, &mut scratch.next_region);
        } else if kept_vals.is_none()
            && !self.build(u, &mut scratch.region, &mut scratch.bufs, &mut scratch.free)
        {
            scratch.next_for = None;
            return None;
        }
        scratch.next_for = None;
        let (terminal, after) = (&enter[u + 1], enter.get(u + 2));
        let region = &scratch.region;
        let next_rows = (u + 1 < self.plan.placements.len()).then(|| self.rows(u + 1));
        let unit = self.plan.placements[u].unit;
        let uses = first_uses(
            ct,
            self.encoder.table,
            unit,
            self.rows(u),
            next_rows,
            so_far,
            region,
        );
        let limit = EXACT_PER_ROW * region.rows.len() + EXACT_BASE;
        if uses.is_empty() {
            // Repetitions only: the backward pass's values serve, kept or computed again.
            let vals = match &kept_vals {
                Some(v) => v,
                None => {
                    stats.states += region.states.len();
                    scratch
                        .walk
                        .value(sp, region, &ct.rep, &self.rep_gains, terminal)
                }
            };
            let walk = Walk {
                sp,
                region,
                vals,
                ac: &ct.rep,
                gains: &self.rep_gains,
                terminal,
            };
            return walk.search(so_far.rep, limit, stats);
        }
        let f = scratch.fresh.get(self.encoder.table, ct, &uses.ids);
        let mut terminal: Vec<i32> = f.rep_of.iter().map(|&r| terminal[r as usize]).collect();
        if !uses.spans.is_empty()
            && self.build(
                u + 1,
                &mut scratch.next_region,
                &mut scratch.bufs,
                &mut scratch.free,
            )
        {
            // What the next unit makes of a span begun here: its values at its spawn on this
            // unit's automaton, with the spans' first uses counted, the unit after it valued by
            // the backward pass.
            scratch.next_for = Some(u + 1);
            let nsp = self.space(u + 1);
            let gains = FirstUses::next_gains(&uses, ct, &f.ac);
            let after: Vec<i32> = f
                .rep_of
                .iter()
                .map(|&r| after.map_or(0, |e| e[r as usize]))
                .collect();
            let next = &scratch.next_region;
            let vals = scratch.span.value(nsp, next, &f.ac, &gains, &after);
            stats.states += next.states.len();
            let s0 = next.spawn as usize;
            for (a, t) in terminal.iter_mut().enumerate() {
                let v = vals.at(s0, FRESH, a);
                if possible(v) {
                    *t = (*t).max(v);
                }
            }
        }
        let walker = UnitWalk {
            sp,
            region,
            ac: &f.ac,
            values: &uses.pattern_values(ct),
            terminal: &terminal,
        };
        let effort = Effort {
            search: Search::Bound { limit },
            rounds: FIRST_USE_ROUNDS,
            limit: self.limit,
        };
        walker.best(
            f.of_full[so_far.full as usize],
            effort,
            &mut scratch.walk,
            stats,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::boards_before;
    use super::*;
    use crate::encode::test_util::{Setup, SAMPLES};
    use crate::engine::replay;

    /// The stages on a whole game of the sample problems: the boards are those before each
    /// lock; the values the backward pass keeps are those the programme computes again; each
    /// unit's first uses are unused phrases, spans too long for the unit alone but not for it
    /// and the next; the units spelt one by one give the encoder's text; and the text followed
    /// on the automata records the phrases the engine counts, piece by piece as at once.
    #[test]
    fn the_stages_keep_their_contracts_on_a_sample_game() {
        for json in SAMPLES {
            let setup = Setup::new(json);
            let (problem, table, phrases) = (&setup.problem, &setup.table, &setup.phrases);
            let (encoder, ct) = (setup.encoder(), setup.char_tables());
            let seed = problem.seeds[0];
            let plan = setup.greedy_plan(seed);
            let n = plan.placements.len();
            let mut stats = CharStats::default();
            let whole = encoder
                .encode_chars(&ct, &plan, &Limit::NONE, &mut stats)
                .unwrap();

            let forward = Forward {
                encoder: &encoder,
                ct: &ct,
                plan: &plan,
                boards: boards_before(problem, &plan),
                limit: Limit::NONE,
                rep_gains: CharTables::gains(&ct.rep, &ct.rep_ids, |p| ct.repeat[p]),
            };
            assert_eq!(forward.boards.len(), n);
            assert_eq!(forward.boards[0], problem.board);
            let mut free = Vec::new();
            for (u, pl) in plan.placements.iter().enumerate() {
                let sp = forward.space(u);
                sp.free_map(&forward.boards[u], &mut free);
                assert!(
                    sp.is_lock_state(&free, pl.lock.state, pl.lock.key),
                    "unit {u}"
                );
            }

            let mut scratch = Scratch::default();
            let mut back = forward.backward(0, &mut scratch, &mut stats).unwrap();
            assert!(back.enter[n].iter().all(|&v| v == 0));
            let mut kept = 0;
            for u in 0..n {
                let Some((region, vals)) = &back.kept[u] else {
                    continue;
                };
                let mut again = Region::default();
                let (bufs, free) = (&mut scratch.bufs, &mut scratch.free);
                assert!(forward.build(u, &mut again, bufs, free));
                assert_eq!(again.states, region.states, "unit {u}");
                let sp = forward.space(u);
                let terminal = &back.enter[u + 1];
                let mut programme = FastProgramme::default();
                let again = programme.value(sp, &again, &ct.rep, &forward.rep_gains, terminal);
                assert_eq!(again.fast.vals, vals.fast.vals, "unit {u}");
                assert_eq!(again.fast.spawn, vals.fast.spawn, "unit {u}");
                kept += 1;
            }
            assert!(kept > 0);

            let mut so_far = SoFar::new(table.phrases.len());
            for u in 0..n {
                let mut region = Region::default();
                let (bufs, free) = (&mut scratch.bufs, &mut scratch.free);
                assert!(forward.build(u, &mut region, bufs, free));
                let next_rows = (u + 1 < n).then(|| forward.rows(u + 1));
                let unit = plan.placements[u].unit;
                let rows = forward.rows(u);
                let uses = first_uses(&ct, table, unit, rows, next_rows, &so_far, &region);
                for &p in uses.wanted.iter().chain(&uses.spans) {
                    assert!(!so_far.used[p], "unit {u}: phrase {p} used already");
                    assert!(uses.ids.binary_search(&p).is_ok(), "unit {u}: {p}");
                }
                for &p in &uses.spans {
                    assert!(!uses.wanted.contains(&p));
                    assert!(u + 1 < n, "the last unit has no span");
                    let next = forward.rows(u + 1);
                    assert!(ct.descents[p] > rows && ct.descents[p] < rows + next);
                }
                assert!(uses.ids.windows(2).all(|w| w[0] < w[1]));
                assert_eq!(uses.ids.is_empty(), uses.is_empty());
                let kept = back.kept[u].take();
                let text = forward
                    .walk_unit(u, &so_far, &back.enter, kept, &mut scratch, &mut stats)
                    .unwrap_or_else(|| forward.plain(u, &mut scratch));
                so_far.push(&ct, &text);
            }
            assert_eq!(so_far.text, whole);

            // Followed piece by piece or at once, the automata end in the same nodes, and the
            // phrases used are those the engine counts.
            let mut at_once = SoFar::new(table.phrases.len());
            at_once.push(&ct, &whole.to_ascii_uppercase());
            assert_eq!(
                (at_once.full, at_once.rep, &at_once.used),
                (so_far.full, so_far.rep, &so_far.used)
            );
            let e = replay(problem, seed, &whole, phrases);
            for &p in &ct.full_ids {
                let counted = e.phrase_counts[table.phrases[p].score_index] > 0;
                assert_eq!(
                    so_far.used[p], counted,
                    "phrase {:?}",
                    table.phrases[p].text
                );
            }
        }
    }
}
