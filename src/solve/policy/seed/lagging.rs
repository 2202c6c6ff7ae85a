//! A seed that lags behind its siblings: where the best fresh game of a seed that lasts the
//! whole source scores well below the best fresh game of each of its problem's other seeds, the
//! seed plays the game of the lowest of those siblings again, at its system and width, before
//! it polishes (at most two fresh games of that system at that width in all).
//!
//! The seeds of a problem share its board, units and phrases: on a long source their games'
//! worth differs by the luck of one game far more than by the order of the units. On the long
//! problem 7708 of the set F77 (14 x 22, 4,171 units, three seeds) one seed's width-64 game of
//! `balanced` scored 552,000 where its siblings' scored 633,995 and 633,766, and the seed went on
//! to polish it (570,768 against 651,591 and 651,202); on 4906 of F49 one seed's first game died
//! near the end, and its survival detour left it at width 16 while its siblings played width-64
//! games of `pairs` (554,197 against 587,651 and 585,273; docs/tuning.md). Only results are read,
//! never the clock, and a run by attempts (the same answers on any number of threads) plays no
//! such round: there the siblings' games come in an order the threads decide.

use super::{Ctx, Phase, Proposal, SeedState, Start, Verdict};
use crate::solve::policy::{RoundKind, Task};

impl Proposal {
    /// Whether it is a round of fresh games only (attempts from the first unit), the rounds
    /// the siblings' promises weigh (here and in `share::revival_promise`).
    pub(in crate::solve::policy) fn fresh_games(&self) -> bool {
        self.kind == RoundKind::Fresh
            && !self.tasks.is_empty()
            && self
                .tasks
                .iter()
                .all(|t| matches!(t, Task::Attempt(a) if a.base.is_none()))
    }
}

impl SeedState {
    /// The sibling's game (score, system, width) this seed lags behind, where it does: its own
    /// best fresh game lasts the source and scores below `1 - sibling_lag` of the sibling's
    /// ([`crate::solve::SearchOptions::sibling_lag`]), it has planned fewer than two fresh games of that
    /// system at that width, and the width is within its cap.
    pub(in crate::solve::policy) fn lagging(&self, ctx: Ctx) -> Option<(u64, usize, usize)> {
        let Ctx { o, preset } = ctx;
        if o.sibling_lag <= 0.0 || preset.games.is_some() || self.phase != Phase::Search {
            return None;
        }
        let (score, system, width) = self.sibling?;
        let (own, ..) = self.widening.best_whole?;
        if own as f64 >= (1.0 - o.sibling_lag) * score as f64 || width > self.width_cap(preset) {
            return None;
        }
        let played = match self.widening.games_at.get(system) {
            Some(&(w, n)) if w == width => n,
            Some(&(w, _)) if w > width => u32::MAX,
            _ => 0,
        };
        (played < 2).then_some((score, system, width))
    }

    /// The round of [`SeedState::lagging`]: a fresh game per lane of the sibling's system at
    /// its width.
    pub(super) fn lagging_rule(&self, ctx: Ctx) -> Verdict {
        let Some((_, system, width)) = self.lagging(ctx) else {
            return Verdict::Pass;
        };
        let n = self.round_size(ctx.preset);
        let mut p = self.round_of(ctx.o, width, n, Start::Fresh);
        for t in &mut p.tasks {
            if let Task::Attempt(a) = t {
                a.system = system;
            }
        }
        Verdict::Round(p)
    }

    /// Points per work second a lagging seed's round promises across seeds: the sibling's
    /// score less the seed's best fresh game, over the round's price (0 for any other round).
    /// Its expected rate follows its past rounds, which say nothing of the sibling's luck.
    pub(in crate::solve::policy) fn lag_promise(&self, ctx: Ctx, p: &Proposal) -> f64 {
        match (self.lagging(ctx), self.widening.best_whole) {
            (Some((score, ..)), Some((own, ..))) if p.fresh_games() => {
                score.saturating_sub(own) as f64 / p.cost.total().max(1e-9)
            }
            _ => 0.0,
        }
    }
}

/// Gives each seed the game of a sibling it may lag behind: of the other seeds of its problem
/// whose best fresh game lasts the whole source, the lowest such game (`None` where there is
/// none). One pass over the seeds: the policy asks after every report.
pub(in crate::solve::policy) fn share_sibling_games(seeds: &mut [SeedState]) {
    let problems = seeds.iter().map(|s| s.setup.problem + 1).max().unwrap_or(0);
    // Per problem, the two lowest best whole games and the seed holding the lowest.
    type Low = Option<(u64, usize, usize)>;
    let mut low: Vec<(Low, Option<usize>, Low)> = vec![(None, None, None); problems];
    for (i, s) in seeds.iter().enumerate() {
        let Some(g) = s.widening.best_whole else {
            continue;
        };
        let l = &mut low[s.setup.problem];
        if l.0.is_none_or(|m| g.0 < m.0) {
            *l = (Some(g), Some(i), l.0);
        } else if l.2.is_none_or(|m| g.0 < m.0) {
            l.2 = Some(g);
        }
    }
    for (i, s) in seeds.iter_mut().enumerate() {
        let (lowest, holder, second) = low[s.setup.problem];
        s.sibling = if holder == Some(i) { second } else { lowest };
    }
}

#[cfg(test)]
mod tests {
    use super::super::tail::tests::{best_game, clock, dying_seed};
    use super::super::{lone_setup, SeedState};
    use super::*;
    use crate::solve::budget::Preset;
    use crate::solve::SearchOptions;

    /// The seeds of one problem, each with a best fresh whole game of `games` (score, system,
    /// width), or none.
    fn seeds(games: &[Option<(u64, usize, usize)>]) -> Vec<SeedState> {
        games
            .iter()
            .map(|g| {
                let mut s = SeedState::new(lone_setup(1000, 1, 1));
                s.phase = Phase::Search;
                if let Some((score, system, width)) = *g {
                    s.widening.took_game(system, width, score, 1000, 1000);
                }
                s
            })
            .collect()
    }

    /// Each seed gets the lowest best whole game of its siblings, its own never; the slow
    /// twin (every sibling compared) agrees on random problems.
    #[test]
    fn a_seed_gets_its_siblings_lowest_whole_game() {
        let mut s = seeds(&[Some((552_000, 2, 64)), Some((633_995, 2, 64)), None]);
        s.push(seeds(&[Some((633_766, 2, 64))]).remove(0));
        share_sibling_games(&mut s);
        assert_eq!(s[0].sibling, Some((633_766, 2, 64)));
        assert_eq!(s[1].sibling, Some((552_000, 2, 64)));
        assert_eq!(s[2].sibling, Some((552_000, 2, 64)));
        assert_eq!(s[3].sibling, Some((552_000, 2, 64)));
        let mut alone = seeds(&[Some((1, 0, 4)), None]);
        alone[1].setup.problem = 1;
        share_sibling_games(&mut alone);
        assert_eq!((alone[0].sibling, alone[1].sibling), (None, None));
        let mut rng = 12345u64;
        let mut next = |n: u64| {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (rng >> 33) % n
        };
        for case in 0..2000 {
            let n = 1 + next(6) as usize;
            let games: Vec<_> = (0..n)
                .map(|_| (next(3) > 0).then(|| (next(5) * 1000, next(4) as usize, 4)))
                .collect();
            let mut s = seeds(&games);
            for x in s.iter_mut() {
                x.setup.problem = next(2) as usize;
            }
            share_sibling_games(&mut s);
            for i in 0..n {
                let twin = (0..n)
                    .filter(|&j| j != i && s[j].setup.problem == s[i].setup.problem)
                    .filter_map(|j| s[j].widening.best_whole)
                    .map(|g| g.0)
                    .min();
                assert_eq!(s[i].sibling.map(|g| g.0), twin, "case {case} seed {i}");
            }
        }
    }

    /// Regression (issue 71, problem 7708 of F77): a seed whose width-64 game scored 552,000
    /// where its siblings' scored about 634,000 polished it. It now plays the sibling's system
    /// at its width again, once more (two games there in all), and weighs that round by the
    /// sibling's score less its own; not within the margin, nor on a run by attempts.
    #[test]
    fn a_lagging_seed_plays_its_siblings_game_again() {
        let o = SearchOptions::default();
        assert!(o.sibling_lag > 0.0);
        let clock = Preset::clock(&o);
        let ctx = Ctx {
            o: &o,
            preset: &clock,
        };
        let mut s = seeds(&[Some((552_000, 2, 64)), Some((633_766, 2, 64))]);
        share_sibling_games(&mut s);
        assert_eq!(s[0].lagging(ctx), Some((633_766, 2, 64)));
        assert_eq!(s[1].lagging(ctx), None);
        let attempts = Preset::attempts(8, &o);
        let by_attempts = Ctx {
            o: &o,
            preset: &attempts,
        };
        assert_eq!(s[0].lagging(by_attempts), None);
        let off = SearchOptions {
            sibling_lag: 0.0,
            ..o.clone()
        };
        let ctx_off = Ctx {
            o: &off,
            preset: &clock,
        };
        assert_eq!(s[0].lagging(ctx_off), None);
        // Within the margin: no round.
        let mut near = seeds(&[Some((610_000, 2, 64)), Some((633_766, 2, 64))]);
        share_sibling_games(&mut near);
        assert_eq!(near[0].lagging(ctx), None);
        // A second game of the system at that width, still behind: no more.
        s[0].widening.took_game(2, 64, 560_000, 1000, 1000);
        assert_eq!(s[0].lagging(ctx), None);
        // A seed whose own game of the system ran narrower plays it at the sibling's width;
        // one that ran it wider does not.
        let mut narrow = seeds(&[Some((536_403, 3, 16)), Some((564_321, 3, 64))]);
        share_sibling_games(&mut narrow);
        assert_eq!(narrow[0].lagging(ctx), Some((564_321, 3, 64)));
        narrow[0].widening.took_game(3, 256, 100_000, 400, 1000);
        assert_eq!(narrow[0].lagging(ctx), None);
    }

    /// The round itself: a fresh game of the sibling's system at its width on every lane, the
    /// rule asked before the polish, and weighed by the sibling's score less the seed's own.
    #[test]
    fn the_lagging_round_plays_the_siblings_system_and_width() {
        let (o, preset) = clock();
        let ctx = Ctx {
            o: &o,
            preset: &preset,
        };
        let mut s = dying_seed(16);
        s.phase = Phase::Search;
        s.games.kept = vec![best_game(1000)];
        s.widening.took_game(1, 16, 500_000, 1000, 1000);
        assert_eq!(s.lagging(ctx), None);
        s.sibling = Some((600_000, 3, 64));
        let Verdict::Round(p) = s.lagging_rule(ctx) else {
            panic!("a lagging round");
        };
        assert_eq!((p.width, p.kind, p.tasks.len()), (64, RoundKind::Fresh, 2));
        for t in &p.tasks {
            let Task::Attempt(a) = t else {
                panic!("an attempt: {t:?}");
            };
            assert_eq!((a.system, a.width, a.base), (3, 64, None));
        }
        let promise = s.lag_promise(ctx, &p);
        assert!((promise - 100_000.0 / p.cost.total()).abs() < 1e-6 * promise);
        assert_eq!(s.propose(ctx), Some(p.clone()));
        // Once it caught up, the next rule decides, and no round is weighed by the promise.
        s.widening.took_game(3, 64, 590_000, 1000, 1000);
        assert_eq!(s.lag_promise(ctx, &p), 0.0);
        assert!(matches!(s.lagging_rule(ctx), Verdict::Pass));
    }
}
