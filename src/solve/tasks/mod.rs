//! The tasks of the policy ([`super::policy::Task`]) as they run: planning with the beam,
//! spelling with the encoders, scoring with the engine, through the stage runner
//! ([`super::stage`]). Each runs on one thread and reports its outcome with the work it did
//! ([`crate::work`]) and the seconds it took. A task reads no clock to decide what to do: the
//! limits it gets are [`super::budget`]'s, the decision to run it the policy's.
//!
//! A task never returns a text that errs: every text is scored by the engine, and one that
//! erred (which the tests rule out) would score 0 and never be the answer.
//!
//! Each kind of task has its room: an attempt (a fresh game, a tail, a revival; the quick
//! answer is an attempt too) in [`attempt`], the exhaustive search of a tiny problem in
//! [`exhaust`], a game in hand spelt again (greedily, or polished with the character encoder)
//! in [`respell`]; this file holds what they share. Every one spells through the stage runner.

mod attempt;
mod exhaust;
mod respell;

use super::policy::{GameId, Outcome, Report, Summary};
use super::stage::StageRunner;
use super::{Prepared, SearchOptions, SeedResult, SolveConfig};
use crate::encode::{Encoder, Mode, PhraseTable};
use crate::engine::{replay, Phrases, Problem};
use crate::eval::Weights;
use crate::plan::{plan_of_text, Plan};
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
        let e = self.stages().replay(&solution, self.phrases);
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
        let e = replay(self.problem(), self.seed, text, self.phrases);
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
    use crate::plan::{text_of_opening, PlanConfig};
    use crate::solve::policy::{Attempt, Screen};
    use crate::solve::stage::Valuer;
    use crate::work::Limit;

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
