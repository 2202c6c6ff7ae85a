//! The round of untried systems: where the next round does not fit before the horizon, the
//! systems that never ran on the seed get a fresh game each at the width reached, before the
//! tails.
//!
//! On a long source the dear rounds come few: the first two fresh rounds (a width-4 and a
//! width-16 game of two systems) and a polish can leave too little time for the width-64 round,
//! and the run re-planned the best game's last units (the tails) with every system in turn. On
//! a narrow board `pairs`, never run fresh, then won a tail of the last quarter of the game,
//! where a whole game of it at the same width would have scored several per cent more (problem
//! 3406 of the set F34, docs/tuning.md).
//!
//! Also the order in which a round takes the systems: a wide round puts the `wide_systems`
//! first as `wide_systems_first` says ([`SeedState::ranked_systems`]).

use super::{Ctx, Phase, Proposal, SeedState, Start};
use crate::solve::policy::widening::{rank_systems, wide_first};
use crate::solve::policy::{RoundKind, Task};
use crate::solve::SearchOptions;

impl SeedState {
    /// The systems in the order a round of width `w` takes them ([`rank_systems`]): systems to
    /// try again per [`SearchOptions::retry_dying_systems`], and in a wide round of a seed whose
    /// best game lasts the whole source, the `wide_systems` first as
    /// [`SearchOptions::wide_systems_first`] says ([`wide_first`]).
    pub(super) fn ranked_systems(&self, o: &SearchOptions, w: usize) -> Vec<usize> {
        let n = self.setup.systems;
        let whole = self.games.whole(self.setup.source);
        let retry = if o.retry_dying_systems {
            self.widening.retries(whole)
        } else {
            Vec::new()
        };
        let mut rank = rank_systems(&self.widening.record[..n], &retry);
        if w >= o.wide && whole {
            let rule = o.wide_systems_first.rule(w, o.wide, o.wide_systems_margin);
            let record = &self.widening.record[..n];
            let lasted = &self.widening.lasted_whole[..n];
            wide_first(&mut rank, &self.setup.wide_first, record, lasted, rule);
        }
        rank
    }

    /// A fresh round at the width reached of the systems that never ran on the seed (the quick
    /// answer's system ran), in the systems' order (the narrow rounds' ranking of them; a wide
    /// round would put `wide_systems` first), one per lane, as a round of
    /// the time left ([`RoundKind::Tail`]); `None` where every system ran, where the best game
    /// does not last the whole source (a dying seed's last time goes to revivals), or before
    /// any beam. It goes before a polish of the best game by the tails: on problem 3406 of F34
    /// on the work clock the polish took the time left, and a fresh game of `pairs` scored
    /// more than the polished game.
    pub fn untried_round(&self, ctx: Ctx) -> Option<Proposal> {
        let o = ctx.o;
        let w = self.widening.width;
        if !o.fresh_untried
            || self.phase != Phase::Search
            || w <= 1
            || !self.games.whole(self.setup.source)
        {
            return None;
        }
        // The systems never run, in their order: the order `rank_systems` gives them too (they
        // tie on its key). The wide rounds' `wide_systems` do not reorder them here.
        let untried: Vec<usize> = (0..self.setup.systems)
            .filter(|&s| self.widening.record[s].0 == 0)
            .collect();
        let lanes = self.round_size(ctx.preset).min(untried.len());
        if lanes == 0 {
            return None;
        }
        let mut p = self.round_of(o, w, lanes, Start::Fresh);
        // Chosen by the time left, as a tail is: a longer budget plays the round that did not
        // fit instead, and the widening learns nothing of it (its games are fresh all the same,
        // and their systems' records take them).
        p.kind = RoundKind::Tail;
        let attempts = p.tasks.iter_mut().filter_map(|t| match t {
            Task::Attempt(a) => Some(a),
            _ => None,
        });
        // The best game is whole: `round_of` plans no survival attempt and no revival.
        for (a, &system) in attempts.zip(&untried) {
            a.system = system;
        }
        Some(p)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tail::tests::{best_game, clock, costs};
    use super::*;
    use crate::solve::policy::attempts_of;
    use crate::solve::SearchOptions;

    /// A seed of two lanes at width 16 whose best game lasts its 1,000 units: `fill` (1) and
    /// `balanced` (2) planned fresh games, `low` (0) only the quick answer, `pairs` (3) and
    /// `triples` (4) nothing.
    fn seed_at_16() -> SeedState {
        let mut s = super::super::lone_survival_seed();
        s.costs = Some(costs(None, 1000.0));
        s.phase = Phase::Search;
        s.games.kept = vec![best_game(1000)];
        s.games.planned = 3;
        s.widening.width = 16;
        s.widening.record[0] = (1, 20_000);
        s.widening.record[1] = (4, 28_000);
        s.widening.record[2] = (16, 30_000);
        s.widening.planned[1] = 28_000;
        s.widening.planned[2] = 30_000;
        s
    }

    /// The round runs the systems never run (`pairs`, `triples`), fresh games at the width
    /// reached in a round of the time left (a tail's kind), one per lane; none once every
    /// system but the quick answer's ran, where the best game dies early, or with the option
    /// off.
    #[test]
    fn systems_never_run_get_a_fresh_game_at_the_width_reached() {
        let (o, preset) = clock();
        let ctx = Ctx {
            o: &o,
            preset: &preset,
        };
        let mut s = seed_at_16();
        let p = s.untried_round(ctx).expect("two systems never ran");
        assert_eq!((p.width, p.kind), (16, RoundKind::Tail));
        let systems: Vec<usize> = attempts_of(&p.tasks).iter().map(|a| a.system).collect();
        assert_eq!(systems, [3, 4]);
        assert!(attempts_of(&p.tasks)
            .iter()
            .all(|a| a.base.is_none() && a.width == 16 && a.revive == 0));
        // With `triples` run, `pairs` alone; then none: the quick answer's system ran.
        s.widening.record[4] = (16, 1_000);
        let p = s.untried_round(ctx).expect("pairs never ran");
        let systems: Vec<usize> = attempts_of(&p.tasks).iter().map(|a| a.system).collect();
        assert_eq!(systems, [3]);
        s.widening.record[3] = (16, 25_000);
        assert!(s.untried_round(ctx).is_none());

        let mut dying = seed_at_16();
        dying.games.kept[0].units = 600;
        assert!(dying.untried_round(ctx).is_none());
        let off = SearchOptions {
            fresh_untried: false,
            ..o.clone()
        };
        let ctx_off = Ctx {
            o: &off,
            preset: &preset,
        };
        assert!(seed_at_16().untried_round(ctx_off).is_none());
        // Narrower than a beam: the quick answer's round has not widened yet.
        let mut narrow = seed_at_16();
        narrow.widening.width = 1;
        assert!(narrow.untried_round(ctx).is_none());
    }
}
