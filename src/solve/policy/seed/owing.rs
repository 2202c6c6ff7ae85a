//! The revivals a seed owes to shorter runs ([`SearchOptions::revive_checkpoints`]).
//!
//! Where a shorter run's seed plays a revival before its end (a revive tail, or a last round
//! whose games revive to the horizon; [`Proposal::revives`]), a longer run owes that round: it
//! records the round as the shorter run would start it, with the cut the shorter run would give
//! its tasks ([`FixedCut`]) and its attempts' random seeds, and plays its own rounds on as though
//! the shorter run's end were not there, each planned to end the owed seconds earlier, its
//! tails included. Once nothing of its own fits before its horizon, it pays: the owed rounds,
//! in the order they were owed. A revival's games are fresh:
//! they depend only on their attempts and their cut, not on what the seed found before, so the
//! game paid is the game the shorter run played, and a longer run answers at least as well as
//! the shorter one where a revival was what the shorter one found. Played where it is owed, a
//! revival's game would become the best game the seed goes on from, and problem 18 at 10 s fell
//! from 104,150 to 78,568 that way, and to 86,160 where the owed rounds were paid as soon as the
//! seed's next round did not fit, before its tail (docs/tuning.md); paid last, it changes nothing
//! before.
//!
//! A revive checkpoint is *settled* for the seed once its next round no longer fits before it:
//! what the shorter run plays from there to its end is its tail, of which only a revival is owed.
//! The round is owed when the policy weighs the seed's next round, which is when the shorter
//! run starts it where the seed has the workers to itself; where seeds share them, the shorter
//! run may start it later, so the owed cut is close to the shorter run's, not equal.
//!
//! [`SearchOptions::revive_checkpoints`]: crate::solve::SearchOptions::revive_checkpoints

use super::{Proposal, SeedState};
use crate::solve::policy::{Attempt, FixedCut, Task};
use crate::solve::SearchOptions;
use std::collections::VecDeque;

/// A round owed to a shorter run, with the cut the shorter run gave its tasks.
#[derive(Clone, Debug)]
pub(in crate::solve::policy) struct Owed {
    pub proposal: Proposal,
    pub cut: FixedCut,
}

/// What a seed owes shorter runs.
#[derive(Clone, Debug, Default)]
pub(in crate::solve::policy) struct Owing {
    /// The rounds owed and not yet started, in the order they were owed.
    rounds: VecDeque<Owed>,
    /// The revive checkpoints settled, as seconds before the deadline.
    settled: Vec<f64>,
}

impl Owing {
    /// Whether the revive checkpoint `at` seconds before the deadline is settled.
    pub fn settled(&self, at: f64) -> bool {
        self.settled.contains(&at)
    }

    /// Settles the revive checkpoint `at` seconds before the deadline.
    pub fn settle(&mut self, at: f64) {
        if !self.settled(at) {
            self.settled.push(at);
        }
    }

    /// The seconds the rounds owed take: each its cut's seconds.
    pub fn seconds(&self) -> f64 {
        self.rounds.iter().map(|r| r.cut.left).sum()
    }
}

impl SeedState {
    /// Owes round `p`, which the shorter run starts `left` seconds before its end: its cut is
    /// fixed now, and its attempts' ids are marked [`Attempt::OWED`], so that its games keep
    /// the shorter run's random seeds and the seed's own attempts keep their ids.
    pub fn owe(&mut self, mut p: Proposal, left: f64, o: &SearchOptions) {
        for t in &mut p.tasks {
            if let Task::Attempt(a) = t {
                a.id |= Attempt::OWED;
            }
        }
        let cut = FixedCut {
            left: left.max(0.0),
            timing: self.timing(o),
        };
        self.owing.rounds.push_back(Owed { proposal: p, cut });
    }

    /// The owed round to start before the seed's own horizon once nothing of its own fits
    /// there: the first owed, `None` when nothing is owed.
    pub fn owed(&self) -> Option<Owed> {
        self.owing.rounds.front().cloned()
    }

    /// Takes the owed round that `start` starts off the list.
    pub fn paid(&mut self) {
        self.owing.rounds.pop_front();
    }
}
