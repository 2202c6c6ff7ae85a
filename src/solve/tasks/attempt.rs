//! An attempt, the task that plans: a fresh game, a tail (the units after a kept opening
//! planned anew) or a revival, each the best predicted of its screen's tries and spelt unless
//! its prediction falls short; and the quick answer, a greedy plan spelt with plain paths.

use super::{timed, GameData, SeedTasks};
use crate::encode::{Mode, Opening};
use crate::plan::{text_of_opening, Plan, PlanConfig};
use crate::solve::policy::{Attempt, GameId, Outcome, Report, Screen};
use crate::solve::stage::Valuer;
use crate::solve::SeedResult;
use crate::work::{Limit, Op};

impl SeedTasks<'_> {
    /// Makes the `k`-th plan of `a`: the first keeps the attempt's own random seed, the others
    /// take seeds of their own, out of the range of attempt ids. `opening` is the text of the
    /// units the attempt keeps (None when the base text does not reach them).
    pub fn plan(
        &self,
        a: &Attempt,
        base: Option<&GameData>,
        opening: Option<&str>,
        k: usize,
        limit: &Limit,
    ) -> Plan {
        let valuer = a.valuer;
        let prefix = match (base, a.base) {
            (Some(b), Some((_, kept))) => {
                b.plan.placements[..kept.min(b.plan.placements.len())].to_vec()
            }
            _ => Vec::new(),
        };
        let pc = PlanConfig {
            limit: *limit,
            prefix,
            carry: 0,
            revive_budget: a.revive,
            // A beam that revives to its horizon buys more units narrow (docs/tuning.md).
            revive_narrow: if a.revive == crate::plan::REVIVE_TO_HORIZON {
                self.search.dying_tail_width
            } else {
                0
            },
        };
        let weights = &self.systems[a.system].1;
        let rng_seed = a.rng() as u64 + ((k as u64) << 32);
        self.stages()
            .plan(pc, weights, rng_seed, a.width, valuer, opening)
    }

    /// A plan's predicted score: its move score, and its descents at `rate` points each.
    pub fn predicted(&self, plan: &Plan, rate: f64) -> f64 {
        crate::plan::game_value(plan.move_score, plan.descents(&self.prep.tables), rate)
    }

    /// The attempt's name in tags and logs: its system, and whether it valued phrases by words.
    fn name(&self, a: &Attempt) -> String {
        let words = if self.stages().aware() && a.valuer == Valuer::Words {
            "/words"
        } else {
            ""
        };
        format!("{}{words}", self.systems[a.system].0)
    }

    /// Plans `a` (the best predicted of its screen's tries) and spells it, unless its predicted
    /// score falls short of the screen's least. `base` is the game it re-plans, if any; `limit`
    /// says when it stops and, in counted work, where the planner stops early (the quick
    /// answer), where a late beam narrows and where a late DP spelling hands over to the greedy
    /// encoder.
    pub fn attempt(
        &self,
        a: &Attempt,
        base: Option<&GameData>,
        limit: &Limit,
    ) -> (Report, Option<GameData>) {
        let kept = a.base.map_or(0, |(_, kept)| kept);
        let base_text = base.map_or("", |b| b.result.solution.as_str());
        // The kept units are spelt as the game they come from spelt them (polished, perhaps):
        // only the units planned anew are spelt.
        let screen: Screen = a.screen;
        let mut best: Option<(f64, Plan)> = None;
        let mut plans = 0;
        let (kept_text, plan_work, plan_seconds) = timed(|| {
            // The replay that finds the opening's text is the attempt's work too: a tail of a
            // long game replays thousands of units for a plan of a few.
            let kept_text = text_of_opening(self.problem(), self.seed, base_text, kept);
            crate::work::add(Op::EvalChar, kept_text.map_or(0, str::len) as u64);
            while plans < screen.tries.max(1) {
                if plans > 0 && limit.stopped() {
                    break;
                }
                let plan = self.plan(a, base, kept_text, plans, limit);
                plans += 1;
                let value = self.predicted(&plan, screen.rate);
                if best.as_ref().is_none_or(|(v, _)| value > *v) {
                    best = Some((value, plan));
                }
            }
            kept_text
        });
        let (predicted, plan) = best.expect("at least one plan is made");
        let name = self.name(a);
        let from = if kept > 0 {
            format!(" from {kept}")
        } else {
            String::new()
        };
        let per_plan = plan_work / plans as f64;
        if predicted < screen.least {
            if self.debug {
                crate::note!(
                    "  problem {} seed {} attempt {} {name} w{}{from}: {plans} plan(s) {plan_seconds:.3}s ({} units) not spelt: predicted {predicted:.0} < {:.0}",
                    self.problem().id, self.seed, a.label(), a.width, plan.placements.len(), screen.least
                );
            }
            let report = Report {
                outcome: Outcome::Screened {
                    system: a.system,
                    units: plan.placements.len(),
                    predicted,
                },
                plan_work: per_plan,
                plans,
                spell_work: 0.0,
                plan_seconds,
                spell_seconds: 0.0,
            };
            return (report, None);
        }
        let opening = kept_text.map_or_else(Opening::default, |text| Opening { units: kept, text });
        // The engine's check of the whole game is the spelling's work too: on a long source
        // it costs more than spelling a short tail.
        let (result, spell_work, spell_seconds) = timed(|| {
            let (text, spelling) = self.spell(&plan, opening, a.mode, limit);
            let tag = format!(
                "hextris {name}#{} w{}{from} {}",
                a.label(),
                a.width,
                spelling.name()
            );
            self.result(text, tag, spelling)
        });
        let spelling = result.spelling;
        if self.debug {
            crate::note!(
                "  problem {} seed {} attempt {} {name} w{}{from} {}: {plans} plan(s) {plan_seconds:.3}s/{plan_work:.3}w ({} units) encode {spell_seconds:.3}s/{spell_work:.3}w score {} (predicted {predicted:.0})",
                self.problem().id, self.seed, a.label(), a.width, spelling.name(), plan.placements.len(), result.score
            );
        }
        let game = GameData {
            plan,
            result,
            system: a.system,
        };
        let report = Report {
            outcome: Outcome::Spelt(self.summary(GameId::Planned(a.id), &game, kept, spell_work)),
            plan_work: per_plan,
            plans,
            spell_work,
            plan_seconds,
            spell_seconds,
        };
        (report, Some(game))
    }

    /// Spells a plan after its opening with `mode` (the character encoder hands over to the DP
    /// encoder when it cannot finish in time); says which mode spelt it.
    fn spell(&self, plan: &Plan, opening: Opening, mode: Mode, limit: &Limit) -> (String, Mode) {
        let chars = (mode == Mode::Chars).then(|| self.prep.chars(self.table));
        let s = self.stages().spell_after(plan, opening, mode, chars, limit);
        (s.text, s.mode)
    }

    /// The quick answer: a greedy plan made within `limit`'s `plan_stop`, spelt with plain paths (an answer
    /// in hand even on a board so large that one unit takes the spelling encoders seconds).
    /// The evaluator scores a partial game, so the answer is never empty while a unit can lock.
    pub fn quick(&self, id: u32, limit: &Limit) -> (Report, GameData) {
        let a = Attempt {
            id,
            system: 0,
            width: 1,
            mode: Mode::Plain,
            base: None,
            screen: Screen::NONE,
            valuer: Valuer::Chars,
            revive: 0,
        };
        let (report, game) = self.attempt(&a, None, limit);
        (
            report,
            game.expect("an attempt without a screen is always spelt"),
        )
    }

    /// A quick answer after a stop, for a seed that had none: planned and spelt with plain
    /// paths within `limit` (the grace after the stop), the stop request set aside on this
    /// thread.
    pub fn quick_after_stop(&self, limit: &Limit) -> SeedResult {
        crate::stop::set_aside(|| self.quick(0, limit).1.result)
    }
}
