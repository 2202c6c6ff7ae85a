//! A game in hand spelt again: the quick answer's plan spelt greedily, a polish (a game or a
//! part of it spelt with the character encoder, the rest of its text kept), and the splice
//! that puts a polished part into its game as the round's other parts left it.

use super::{timed, unfinished, GameData, SeedTasks};
use crate::encode::{CharStats, Mode, Opening};
use crate::plan::{text_of_opening, Plan};
use crate::solve::policy::{GameId, Outcome, Report};
use crate::work::Limit;

impl SeedTasks<'_> {
    /// The quick answer's plan spelt greedily (the policy runs it only where one unit's
    /// spelling fits before the deadline: the encoder stops after the unit in hand once `limit`
    /// stops it).
    pub fn spell_greedy(
        &self,
        id: GameId,
        game: &GameData,
        limit: &Limit,
    ) -> (Report, Option<GameData>) {
        let (result, spell_work, seconds) = timed(|| {
            let text = self.stages().spell(&game.plan, Mode::Greedy, limit);
            let tag = game.result.tag.replace(" plain", " greedy");
            self.result(text, tag, Mode::Greedy)
        });
        if self.debug {
            crate::note!(
                "  problem {} seed {} quick answer spelt greedily: {seconds:.3}s/{spell_work:.3}w score {} (plain paths {})",
                self.problem().id, self.seed, result.score, game.result.score
            );
        }
        self.respelt(id, game, result, spell_work, seconds)
    }

    /// Spells a game again with the character encoder, its units `from` up to `to` (`None`: to
    /// the end), the text of the others kept; `Unfinished` when it could not finish in time. A
    /// part (`to` given) stops after the unit where the work left before its horizon would not
    /// cover another, and its report says where (`Summary::polished_to`).
    pub fn polish(
        &self,
        id: GameId,
        game: &GameData,
        (from, to): (usize, Option<usize>),
        limit: &Limit,
    ) -> (Report, Option<GameData>) {
        let mut stats = CharStats::default();
        let chars = self.prep.chars(self.table);
        let n = game.plan.placements.len();
        let end = to.unwrap_or(n).min(n);
        let from = from.min(end);
        // A part stops after the unit past which the work left before its horizon would not
        // cover another unit at the pace so far (the backward pass's work included, so the
        // pace is a slow one): the units spelt are kept, where a whole game's polish cut
        // short would give nothing.
        let cut = &limit.cut;
        let enough =
            |done: usize| cut.allowance.is_finite() && cut.left() < cut.spent() / done as f64;
        let enough: Option<&dyn Fn(usize) -> bool> = to.map(|_| &enough as &dyn Fn(usize) -> bool);
        let (result, spell_work, seconds) = timed(|| {
            let text = &game.result.solution;
            // The text before the part, kept: each unit's text ends with the command that
            // locks it, so the part's units start on the boards they did.
            let before = text_of_opening(self.problem(), self.seed, text, from)?;
            let part = Plan {
                placements: game.plan.placements[..end].to_vec(),
                ..game.plan.clone()
            };
            let opening = Opening {
                units: from,
                text: before,
            };
            let (spelt, reached) = self
                .stages()
                .spell_chars_part(chars, &part, opening, limit, enough, &mut stats)?;
            // The text after the units spelt, kept.
            let until = text_of_opening(self.problem(), self.seed, text, reached)?;
            let tag = game.result.tag.replace(" (stored)", "");
            // A part leaves the game the DP encoder's elsewhere (the policy follows how far
            // the parts got, and a later polish goes on from there).
            let (tag, mode) = if reached == n && (from == 0 || to.is_none()) {
                let tag = tag.replace(" dp", " chars").replace(" greedy", " chars");
                (tag, Mode::Chars)
            } else {
                (tag, game.result.spelling)
            };
            let result = self.result(spelt + &text[until.len()..], tag, mode);
            Some((result, reached))
        });
        let Some((result, reached)) = result else {
            let mut r = unfinished();
            r.spell_work = spell_work;
            r.spell_seconds = seconds;
            return (r, None);
        };
        if self.debug {
            crate::note!(
                "  problem {} seed {} polish {} units {from}..{reached} of {from}..{end}: {seconds:.3}s/{spell_work:.3}w score {} -> {} ({} states, {} fallbacks)",
                self.problem().id, self.seed, game.result.tag, game.result.score, result.score, stats.states, stats.fallbacks
            );
        }
        let (mut report, spelt) = self.respelt(id, game, result, spell_work, seconds);
        if let Outcome::Spelt(s) = &mut report.outcome {
            s.polished_to = to.map(|_| reached);
        }
        (report, spelt)
    }

    /// `current`, the game as it stands, with units `from..to` spelt as `part` spells them:
    /// where the lanes of a round polish parts of one game side by side, each part's text
    /// goes into the game as the others left it. The units before and after are `current`'s.
    pub fn splice(
        &self,
        current: &GameData,
        part: &GameData,
        (from, to): (usize, usize),
    ) -> GameData {
        let (p, seed) = (self.problem(), self.seed);
        let spliced = (|| {
            let (old, new) = (&current.result.solution, &part.result.solution);
            let before = text_of_opening(p, seed, old, from)?;
            let after = text_of_opening(p, seed, old, to)?.len();
            let start = text_of_opening(p, seed, new, from)?.len();
            let end = text_of_opening(p, seed, new, to)?.len();
            Some(format!("{before}{}{}", &new[start..end], &old[after..]))
        })();
        let text = spliced.unwrap_or_else(|| part.result.solution.clone());
        GameData {
            plan: current.plan.clone(),
            result: self.result(text, part.result.tag.clone(), part.result.spelling),
            system: current.system,
        }
    }
}
