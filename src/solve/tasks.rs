//! The tasks of the policy ([`super::policy::Task`]) as they run: planning with the beam,
//! spelling with the encoders, scoring with the engine, through the stage runner
//! ([`super::stage`]). Each runs on one thread and reports its outcome with the work it did
//! ([`crate::work`]) and the seconds it took. A task reads no clock to decide what to do: the
//! deadlines it gets are [`super::budget`]'s, the decision to run it the policy's.
//!
//! A task never returns a text that errs: every text is scored by the engine, and one that
//! erred (which the tests rule out) would score 0 and never be the answer.

use super::policy::{Attempt, GameId, Outcome, Report, Screen, Summary};
use super::stage::{StageRunner, Valuer};
use super::{Prepared, SearchOptions, SeedResult, SolveConfig};
use crate::encode::{CharStats, Encoder, Mode, Opening, PhraseTable};
use crate::engine::{evaluate, Phrases, Problem};
use crate::eval::Weights;
use crate::plan::{plan_of_text, text_of_opening, Plan, PlanConfig};
use crate::work::{Limit, Op};
use std::time::Instant;

/// A game in hand: its plan and the best text found for it.
#[derive(Clone, Debug)]
pub struct GameData {
    pub plan: Plan,
    pub result: SeedResult,
    /// The scoring system that planned it.
    pub system: usize,
}

/// What the tasks of one seed share: each thing once, and of the run's options
/// ([`SolveConfig`]) only what the tasks read.
pub struct SeedTasks<'a> {
    /// The seed's problem, with its tables.
    pub prep: &'a Prepared<'a>,
    pub encoder: &'a Encoder<'a>,
    pub seed: u32,
    /// Phrases the encoders spell.
    pub table: &'a PhraseTable,
    /// Phrases the score counts.
    pub phrases: &'a Phrases,
    /// The scoring systems, by an attempt's `system`.
    pub systems: &'a [(String, Weights)],
    pub search: &'a SearchOptions,
    /// The stored game the seed starts from, as (tag, text) ([`SolveConfig::starts`]).
    pub start: Option<&'a (String, String)>,
    pub debug: bool,
}

/// Runs `f`, returning its result, its work in work seconds and its seconds.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64, f64) {
    let t0 = Instant::now();
    let (out, work) = crate::work::measure(f);
    (out, work.seconds(), t0.elapsed().as_secs_f64())
}

impl<'a> SeedTasks<'a> {
    /// The tasks of `seed` of `prep`'s problem, with what they read of `cfg`.
    pub fn new(
        prep: &'a Prepared<'a>,
        encoder: &'a Encoder<'a>,
        cfg: &'a SolveConfig,
        seed: u32,
        debug: bool,
    ) -> SeedTasks<'a> {
        SeedTasks {
            prep,
            encoder,
            seed,
            table: &cfg.table,
            phrases: &cfg.phrases,
            systems: &cfg.systems,
            search: &cfg.search,
            start: cfg.starts.get(&(prep.problem.id, seed)),
            debug,
        }
    }

    /// The seed's problem.
    fn problem(&self) -> &'a Problem {
        self.prep.problem
    }

    /// The stage runner of this seed.
    fn stages(&self) -> StageRunner<'_> {
        StageRunner::new(
            self.problem(),
            &self.prep.tables,
            self.encoder,
            self.table,
            self.seed,
            self.search,
        )
    }

    /// Scores a text with the engine (an error scores 0: it must never be the answer).
    pub fn result(&self, solution: String, tag: String, spelling: Mode) -> SeedResult {
        let e = self.stages().evaluate(&solution, self.phrases);
        debug_assert!(!e.end.is_error(), "{}", e.end);
        SeedResult {
            seed: self.seed,
            score: if e.end.is_error() { 0 } else { e.score },
            solution,
            move_score: e.move_score,
            power_score: e.power_score,
            tag,
            attempts: 1,
            spelling,
            work: 0.0,
        }
    }

    /// What the policy is told of a game.
    pub fn summary(&self, id: GameId, g: &GameData, kept: usize, spell_work: f64) -> Summary {
        Summary {
            id,
            score: g.result.score,
            power: g.result.power_score,
            units: g.plan.placements.len(),
            descents: g.plan.descents(&self.prep.tables),
            system: g.system,
            spelling: g.result.spelling,
            kept,
            spell_work,
            polished_to: None,
        }
    }

    /// The stored game this seed starts from, if any and if it replays without error. Its tag
    /// is all a store says of how it was spelt: one spelt by the character encoder says so.
    pub fn stored(&self) -> Option<GameData> {
        let (tag, text) = self.start?;
        let spelling = match Mode::of_tag(tag) {
            Some(Mode::Chars) => Mode::Chars,
            _ => Mode::Dp,
        };
        let e = evaluate(self.problem(), self.seed, text, self.phrases);
        if e.end.is_error() {
            return None;
        }
        let plan = plan_of_text(self.problem(), &self.prep.tables, self.seed, text)?;
        let result = self.result(text.clone(), format!("{tag} (stored)"), spelling);
        if self.debug {
            crate::note!(
                "  problem {} seed {} starts from the stored game {tag}: score {}",
                self.problem().id,
                self.seed,
                result.score
            );
        }
        Some(GameData {
            plan,
            result,
            system: 0,
        })
    }

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
            (Some(b), Some((_, cut))) => {
                b.plan.placements[..cut.min(b.plan.placements.len())].to_vec()
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
        let kept = a.base.map_or(0, |(_, cut)| cut);
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
        let s = self.encoder.spell(plan, opening, mode, chars, limit);
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

    /// Part `part` of `parts` of the seed's every game ([`crate::plan::every`], valued at `rate`
    /// points per row fallen): the games whose place in the order of value is `part` modulo
    /// `parts`, spelt by the DP encoder in that order within
    /// [`super::options::ExhaustOptions::dp_share`] of the search's work, then by the character
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
            let text = self.encoder.encode(&game.plan, Mode::Greedy, limit);
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
                .encoder
                .encode_chars_part(chars, &part, opening, limit, enough, &mut stats)?;
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

    /// The report and the game of a task that spelt `game`'s plan again, as `result`, in
    /// `spell_work` work seconds and `seconds` seconds.
    fn respelt(
        &self,
        id: GameId,
        game: &GameData,
        result: SeedResult,
        spell_work: f64,
        seconds: f64,
    ) -> (Report, Option<GameData>) {
        let spelt = GameData {
            plan: game.plan.clone(),
            result,
            system: game.system,
        };
        let report = Report {
            outcome: Outcome::Spelt(self.summary(id, &spelt, 0, spell_work)),
            plan_work: 0.0,
            plans: 0,
            spell_work,
            plan_seconds: 0.0,
            spell_seconds: seconds,
        };
        (report, Some(spelt))
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
            let s = t
                .encoder
                .spell(plan, Opening::default(), mode, chars, self.limit);
            let e = t.stages().evaluate(&s.text, t.phrases);
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

/// The report of a task that did nothing.
pub(super) fn unfinished() -> Report {
    Report {
        outcome: Outcome::Unfinished,
        plan_work: 0.0,
        plans: 0,
        spell_work: 0.0,
        plan_seconds: 0.0,
        spell_seconds: 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An attempt plans with the valuer the policy gave it: each plan is the stage runner's beam
    /// with that valuer, whatever the system (a survival system's included), and the valuers
    /// give different plans here, so the attempt's field is what decides.
    #[test]
    fn an_attempt_plans_with_the_valuer_it_carries() {
        let p = crate::testkit::phrase_valued_problem();
        let prep = Prepared::new(&p);
        let cfg = SolveConfig::new(Phrases::official());
        let encoder = Encoder::new(&p, &prep.tables, &cfg.table);
        let tasks = SeedTasks::new(&prep, &encoder, &cfg, 7, false);
        let runner = tasks.stages();
        assert!(runner.aware());
        for (system, (name, weights)) in cfg.systems.iter().enumerate() {
            let plans: Vec<Plan> = [Valuer::Off, Valuer::Words, Valuer::Chars]
                .into_iter()
                .map(|valuer| {
                    let a = Attempt {
                        id: 3,
                        system,
                        width: 4,
                        mode: Mode::Dp,
                        base: None,
                        screen: Screen::NONE,
                        valuer,
                        revive: 0,
                    };
                    let plan = tasks.plan(&a, None, None, 0, &Limit::NONE);
                    let expected =
                        runner.plan(PlanConfig::whole_game(), weights, 3, 4, valuer, None);
                    assert_eq!(plan.placements, expected.placements, "{name} {valuer:?}");
                    plan
                })
                .collect();
            // The case tells the valuers apart: valuing phrases moves some lock.
            assert_ne!(plans[0].placements, plans[1].placements, "{name}");
        }
    }

    /// A polish of a part spells the part's units with the character encoder and keeps the
    /// text of the units before and after it: the game replays to the same locks, its text
    /// outside the part is the one it had, and the report says where the part ended. Where
    /// its time runs out, it stops short, after at least one unit, and says so.
    #[test]
    fn a_polish_of_a_part_keeps_the_rest_of_the_text() {
        let p = crate::testkit::phrase_valued_problem();
        let prep = Prepared::new(&p);
        let cfg = SolveConfig::new(Phrases::official());
        let encoder = Encoder::new(&p, &prep.tables, &cfg.table);
        let tasks = SeedTasks::new(&prep, &encoder, &cfg, 7, false);
        let a = Attempt {
            id: 1,
            system: 0,
            width: 4,
            mode: Mode::Dp,
            base: None,
            screen: Screen::NONE,
            valuer: Valuer::Words,
            revive: 0,
        };
        let (_, game) = tasks.attempt(&a, None, &Limit::NONE);
        let game = game.expect("a game");
        let (text, n) = (&game.result.solution, game.plan.placements.len());
        assert!(n >= 4, "{n} units");
        let opening = |t: &str, k| {
            text_of_opening(&p, 7, t, k)
                .expect("it replays")
                .to_string()
        };
        let (from, to) = (1, n / 2 + 1);
        let check = |limit: &Limit| {
            let (r, g) = tasks.polish(GameId::Planned(1), &game, (from, Some(to)), limit);
            let Outcome::Spelt(s) = r.outcome else {
                panic!("{r:?}")
            };
            let reached = s.polished_to.expect("a part says where it ended");
            let g = g.expect("a game");
            let t = &g.result.solution;
            let plan = plan_of_text(&p, &prep.tables, 7, t).expect("it replays");
            // The same cells locked (a symmetric unit's pivot may differ).
            let keys = |p: &Plan| p.placements.iter().map(|l| l.lock.key).collect::<Vec<_>>();
            assert_eq!(keys(&plan), keys(&game.plan));
            assert_eq!(opening(t, from), opening(text, from));
            let after = |t: &str| t[opening(t, reached).len()..].to_string();
            assert_eq!(after(t), after(text));
            assert_eq!(g.result.score, s.score);
            reached
        };
        assert_eq!(check(&Limit::NONE), to);
        // No work allowed: the part stops after its first unit.
        assert_eq!(
            check(&Limit::new(
                crate::work::Cut::starting_now(0.0, 0.0, 0.0),
                None
            )),
            from + 1
        );
    }
}
