//! The games a seed keeps ([`Games`]) and its rate of gain ([`Rate`]): the seed's records,
//! which its rules read and its learning writes.

use super::super::costs::Costs;
use super::super::{GameId, Summary};
use crate::encode::Mode;
use crate::solve::SearchOptions;

/// The games a seed keeps and what was done with them.
#[derive(Clone, Debug, Default)]
pub(in crate::solve::policy) struct Games {
    /// The games kept, best first (ties: the lower id first).
    pub kept: Vec<Summary>,
    pub best: u64,
    /// Games a polish was tried on, to the end.
    pub polished: Vec<GameId>,
    /// Games whose first units a polish was tried on, and how many ([`Task::Polish`]'s `to`):
    /// a later polish goes on from there.
    pub polished_to: Vec<(GameId, usize)>,
    /// Games planned so far: the next attempt's id.
    pub planned: u32,
    /// The kept games that come from a fresh game planned without the phrase valuer (itself,
    /// or a re-plan of one): while the best is one of them, survival rounds go on once it is
    /// whole ([`SearchOptions::survival_rounds_when_whole`]).
    pub unvalued: Vec<GameId>,
}

impl Games {
    /// Whether the best game lasts the whole source.
    pub fn whole(&self, source: usize) -> bool {
        self.kept.first().is_some_and(|g| g.units >= source)
    }

    /// Whether the seed started from a stored game.
    pub fn stored(&self) -> bool {
        self.kept.iter().any(|g| g.id == GameId::Stored)
    }

    /// Power per descent of the best game the DP or the character encoder spelt (0 when none
    /// has, or it earned nothing): what the screen predicts plans with.
    pub(super) fn rate(&self, spells: bool) -> f64 {
        if !spells {
            return 0.0;
        }
        self.kept
            .iter()
            .find(|g| matches!(g.spelling, Mode::Dp | Mode::Chars))
            .map_or(0.0, |g| {
                if g.descents == 0 {
                    0.0
                } else {
                    g.power as f64 / g.descents as f64
                }
            })
    }

    /// Games worth polishing: spelt by the DP encoder, not tried yet, that could become the
    /// best at the gain polishing has shown.
    pub(super) fn polish_candidates<'s>(
        &'s self,
        c: &'s Costs,
    ) -> impl Iterator<Item = &'s Summary> + 's {
        self.kept.iter().filter(move |g| {
            g.spelling == Mode::Dp
                && g.units > 0
                && !self.polished.contains(&g.id)
                && self.promise(g, c) >= self.best as f64
        })
    }

    /// The score game `g` is expected to reach once a polish has spelt its units no polish
    /// has tried yet, at the gain polishing has shown.
    pub(super) fn promise(&self, g: &Summary, c: &Costs) -> f64 {
        g.score as f64 * (1.0 + (c.polish_gain - 1.0) * self.rest_share(g))
    }

    /// The units of game `id` a polish was tried on, from its first (0: none); all of them
    /// where its text is the character encoder's (a polished game, a stored one).
    pub fn polished_to(&self, id: GameId) -> usize {
        if let Some(g) = self
            .kept
            .iter()
            .find(|g| g.id == id && g.spelling == Mode::Chars)
        {
            return g.units;
        }
        self.polished_to
            .iter()
            .find(|&&(g, _)| g == id)
            .map_or(0, |&(_, to)| to)
    }

    /// The share of game `g`'s units no polish has tried yet.
    pub(super) fn rest_share(&self, g: &Summary) -> f64 {
        let from = self.polished_to(g.id).min(g.units);
        (g.units - from) as f64 / g.units.max(1) as f64
    }

    /// Whether the best game the run planned (not a stored one) is polished, or there is none:
    /// a run by attempts that has planned its games is then done, and gives the same answers
    /// whatever the store held.
    pub(super) fn best_planned_polished(&self) -> bool {
        self.kept
            .iter()
            .filter(|g| g.id != GameId::Stored)
            .max_by_key(|g| g.score)
            .is_none_or(|g| self.polished.contains(&g.id))
    }
}

/// Records in `polished_to` ([`Games::polished_to`]) that a polish reached unit `to` of game
/// `id` from its first. A function of the field, not a method of [`Games`]: a caller holds one
/// of the kept games mutably while it records.
pub(super) fn set_polished_to(polished_to: &mut Vec<(GameId, usize)>, id: GameId, to: usize) {
    match polished_to.iter_mut().find(|(g, _)| *g == id) {
        Some(at) => at.1 = to,
        None => polished_to.push((id, to)),
    }
}

/// A seed's expected points per work second: decayed sums of its rounds' gains and work.
#[derive(Clone, Debug, Default)]
pub(in crate::solve::policy) struct Rate {
    /// Work seconds spent on the seed.
    pub spent: f64,
    gain: f64,
    work: f64,
}

impl Rate {
    /// The first rounds are expected to gain as the quick answer did: `best` points in `work`.
    pub(super) fn start(&mut self, best: u64, work: f64, o: &SearchOptions) {
        self.gain = o.rate_prior * best as f64;
        self.work = work.max(1e-6);
    }

    pub(super) fn took(&mut self, gain: f64, work: f64, o: &SearchOptions) {
        self.spent += work;
        self.gain = self.gain * o.rate_decay + gain;
        self.work = self.work * o.rate_decay + work;
    }

    /// The rate of the recent rounds, tails included (decayed by [`SearchOptions::rate_decay`]
    /// per round).
    pub fn recent(&self) -> f64 {
        if self.work > 0.0 {
            self.gain / self.work
        } else {
            0.0
        }
    }

    /// The expected rate, never below [`SearchOptions::rate_floor`] of the average rate so far
    /// (`best` over the work spent).
    pub fn expected(&self, best: u64, o: &SearchOptions) -> f64 {
        let recent = self.recent();
        let floor = o.rate_floor * best as f64 / self.spent.max(1e-9);
        recent.max(floor)
    }
}
