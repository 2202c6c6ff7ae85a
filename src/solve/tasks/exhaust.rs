//! The exhaustive search of a tiny problem: every game ([`crate::plan::every`]) spelt in the
//! order of value, within counted work, so that it is the same search at every budget.

use super::{timed, unfinished, GameData, SeedTasks};
use crate::encode::{Mode, Opening};
use crate::plan::Plan;
use crate::solve::policy::{GameId, Outcome, Report};
use crate::work::Limit;
use std::time::Instant;

impl SeedTasks<'_> {
    /// Part `part` of `parts` of the seed's every game ([`crate::plan::every`], valued at `rate`
    /// points per row fallen): the games whose place in the order of value is `part` modulo
    /// `parts`, spelt by the DP encoder in that order within
    /// [`crate::solve::options::ExhaustOptions::dp_share`] of the search's work, then by the character
    /// and the greedy encoders, the best spelt by the DP encoder and the best valued in turn,
    /// until the work is spent. The best text of all is the answer. The work is counted, not
    /// timed, so the search is the same at every budget (but where `limit` stops it);
    /// `Unfinished` when the games were too many to enumerate.
    pub fn exhaust(
        &self,
        id: u32,
        rate: f64,
        (part, parts): (usize, usize),
        limit: &Limit,
    ) -> (Report, Option<GameData>) {
        let o = &self.search.exhaust;
        let t0 = Instant::now();
        let (every, plan_work, _) = timed(|| {
            crate::plan::every::every_game(
                self.problem(),
                &self.prep.tables,
                self.seed,
                rate,
                o.most_nodes,
                limit,
            )
        });
        let Some(every) = every else {
            if self.debug {
                crate::note!(
                    "  problem {} seed {} every game {part}/{parts}: too many games, or stopped by its limit",
                    self.problem().id,
                    self.seed
                );
            }
            let mut r = unfinished();
            r.plan_work = plan_work;
            r.plans = 1;
            return (r, None);
        };
        let mine: Vec<&Plan> = every
            .games
            .iter()
            .skip(part)
            .step_by(parts.max(1))
            .collect();
        let spells = !self.table.phrases.is_empty();
        let mut search = Exhaustive {
            tasks: self,
            games: &mine,
            limit,
            work: 0.0,
            best: None,
        };
        // The DP encoder first (plain paths without phrases), in the order of value.
        let first = if spells { Mode::Dp } else { Mode::Plain };
        let mut dp: Vec<(u64, usize)> = Vec::new();
        for i in 0..mine.len() {
            if search.work >= o.work * o.dp_share || limit.stopped() {
                break;
            }
            dp.push((search.spell(i, first), i));
        }
        if spells {
            // Then the character encoder and the greedy one, on the best spelt by the DP
            // encoder and the best valued in turn.
            dp.sort_by_key(|&(score, i)| (std::cmp::Reverse(score), i));
            let by_dp = dp.iter().map(|&(_, i)| i);
            let mut order: Vec<usize> = Vec::new();
            for (a, b) in by_dp
                .chain(std::iter::repeat(usize::MAX))
                .zip(0..mine.len())
            {
                order.extend([a, b].into_iter().filter(|&i| i != usize::MAX));
            }
            let mut done = vec![false; mine.len()];
            for i in order {
                if search.work >= o.work || limit.stopped() {
                    break;
                }
                if !std::mem::replace(&mut done[i], true) {
                    search.spell(i, Mode::Chars);
                    search.spell(i, Mode::Greedy);
                }
            }
        }
        let spell_work = search.work;
        let Some((_, i, text, mode)) = search.best else {
            return (unfinished(), None);
        };
        let tag = format!("hextris every#{id} {part}/{parts} {}", mode.name());
        let game = GameData {
            plan: mine[i].clone(),
            result: self.result(text, tag, mode),
            system: 0,
        };
        let seconds = t0.elapsed().as_secs_f64();
        // Whether the limit (its moment, or a stop) may have cut a loop short: the search is
        // then not the one a longer budget makes.
        let stopped = limit.stopped();
        if self.debug {
            crate::note!(
                "  problem {} seed {} every game {part}/{parts}: {} games ({} nodes) {plan_work:.3}w, {} spelt by the DP encoder, {seconds:.3}s/{spell_work:.3}w score {} ({}), {}",
                self.problem().id,
                self.seed,
                mine.len(),
                every.nodes,
                dp.len(),
                game.result.score,
                mode.name(),
                if stopped { "stopped by its limit" } else { "searched to the end" }
            );
        }
        let report = Report {
            outcome: Outcome::Spelt(self.summary(GameId::Planned(id), &game, 0, spell_work)),
            plan_work,
            plans: 1,
            spell_work,
            plan_seconds: 0.0,
            spell_seconds: seconds,
        };
        (report, Some(game))
    }
}

/// The exhaustive search's spellings so far: their work and the best text.
struct Exhaustive<'t, 'a> {
    tasks: &'t SeedTasks<'a>,
    games: &'t [&'t Plan],
    /// The search's limit.
    limit: &'t Limit,
    /// Work seconds spent spelling and scoring.
    work: f64,
    /// The best so far: its score, its game, its text and the mode that spelt it (the first of
    /// the highest score).
    best: Option<(u64, usize, String, Mode)>,
}

impl Exhaustive<'_, '_> {
    /// Spells game `i` with `mode` and scores it; its score.
    fn spell(&mut self, i: usize, mode: Mode) -> u64 {
        let t = self.tasks;
        let plan = self.games[i];
        let ((text, mode, score), work) = crate::work::measure(|| {
            let chars = (mode == Mode::Chars).then(|| t.prep.chars(t.table));
            let stages = t.stages();
            let s = stages.spell_after(plan, Opening::default(), mode, chars, self.limit);
            let e = stages.replay(&s.text, t.phrases);
            let score = if e.end.is_error() { 0 } else { e.score };
            (s.text, s.mode, score)
        });
        self.work += work.seconds();
        if self.best.as_ref().is_none_or(|b| score > b.0) {
            self.best = Some((score, i, text, mode));
        }
        score
    }
}
