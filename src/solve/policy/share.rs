//! What the seeds of one problem learn from each other: the gain a polish was measured to
//! bring ([`share_polish_gain`]), and what a sibling's whole game promises a seed whose games die
//! early ([`revival_promise`]) or lags behind ([`promise`]). Everything here reads results
//! only, never the clock.

use super::seed::{share_sibling_games, Ctx, Proposal, SeedState};
use crate::solve::SearchOptions;

/// After seed `i` reported: the seeds of its problem whose polishes have measured nothing yet
/// expect the mean gain that the polishes of its other seeds measured, where some did, instead
/// of the prior ([`crate::solve::SearchOptions::first_polish_gain`]). The seeds of a problem
/// share its board, units and phrases, and the gain varies from problem to problem far more
/// than from seed to seed (problem 8's polishes gain about 20 %, the prior says 2 %): with the
/// prior, each seed learnt it alone, and a seed whose widening promised more than 2 % per
/// work second never polished. It reads results only, never the clock, so a longer run still
/// first plays what a shorter one plays.
pub(super) fn share_polish_gain(seeds: &mut [SeedState], i: usize) {
    let problem = seeds[i].setup.problem;
    let measured: Vec<f64> = seeds
        .iter()
        .filter(|s| s.setup.problem == problem)
        .filter_map(|s| s.costs.as_ref().filter(|c| c.polish_measured))
        .map(|c| c.polish_gain)
        .collect();
    if measured.is_empty() {
        return;
    }
    let gain = measured.iter().sum::<f64>() / measured.len() as f64;
    for s in seeds.iter_mut().filter(|s| s.setup.problem == problem) {
        if let Some(c) = s.costs.as_mut().filter(|c| !c.polish_measured) {
            c.polish_gain = gain;
        }
    }
}

/// Per seed, the score a seed of its problem whose best game dies early may reach by a game that
/// lasts the source: the lowest best score of the problem's seeds whose best game lasts it
/// (`None` when none does). Their board, units and phrases are the dying seed's, and only the
/// order of the units differs: on a long problem a seed whose beams died at a few hundred units
/// scored a third of what its siblings' whole games did, and a wider fresh game that lives the
/// source is where its points lie (docs/tuning.md). One pass over the seeds: a run of every
/// official problem holds 175 seeds, and the policy asks at every pick.
pub(super) fn whole_sibling_scores(seeds: &[SeedState]) -> Vec<Option<u64>> {
    let problems = seeds.iter().map(|s| s.setup.problem + 1).max().unwrap_or(0);
    let mut least: Vec<Option<u64>> = vec![None; problems];
    for s in seeds.iter().filter(|s| s.games.whole(s.setup.source)) {
        let l = &mut least[s.setup.problem];
        *l = Some(l.map_or(s.games.best, |v| v.min(s.games.best)));
    }
    seeds.iter().map(|s| least[s.setup.problem]).collect()
}

/// [`whole_sibling_scores`] of one problem, seed by seed over the whole run: its slow twin, for
/// the tests.
#[cfg(test)]
pub(super) fn whole_sibling_score(seeds: &[SeedState], problem: usize) -> Option<u64> {
    seeds
        .iter()
        .filter(|s| s.setup.problem == problem && s.games.whole(s.setup.source))
        .map(|s| s.games.best)
        .min()
}

/// Points per work second that a round of fresh games promises seed `s`, whose best game dies
/// early, where a sibling seed's best game lasts the source (`whole`, its score, see
/// [`whole_sibling_scores`]): the sibling's score less the seed's best, over the round's
/// price. 0 for any other round or seed. A seed's expected rate follows its past rounds, which
/// say nothing of a game that would live three times as long: its siblings' whole games do.
pub(super) fn revival_promise(
    o: &SearchOptions,
    s: &SeedState,
    p: &Proposal,
    whole: Option<u64>,
) -> f64 {
    let fresh = p.fresh_games();
    match whole {
        Some(w)
            if o.sibling_promise && fresh && w > s.games.best && !s.games.whole(s.setup.source) =>
        {
            (w - s.games.best) as f64 / p.cost.total().max(1e-9)
        }
        _ => 0.0,
    }
}

/// What a round promises seed `s` across seeds besides its expected rate: the greater of a
/// dying seed's [`revival_promise`] (`whole`, see [`whole_sibling_scores`]) and a lagging
/// seed's (`SeedState::lag_promise`, in the `lagging` module).
pub(super) fn promise(ctx: Ctx, s: &SeedState, p: &Proposal, whole: Option<u64>) -> f64 {
    revival_promise(ctx.o, s, p, whole).max(s.lag_promise(ctx, p))
}

/// After seed `i` reported: what its problem's seeds learn from it ([`share_polish_gain`], and
/// the sibling's game a seed may lag behind, `share_sibling_games` in the `lagging` module).
pub(super) fn learn_from_siblings(seeds: &mut [SeedState], i: usize) {
    share_polish_gain(seeds, i);
    share_sibling_games(seeds);
}
