//! A seed's tail round: when its next round does not fit in the time left before a horizon,
//! neighbourhoods cut late enough in the best game to be re-planned and spelt in that time,
//! and, where the best game lasts the whole source and the character encoder has not spelt it,
//! a polish of as many of its units as fit. Where the best game dies early and those
//! re-plans would be narrow, reviving survival games that take the time left instead; and the
//! last round of fresh games of such a seed, played so that its games revive to the horizon.
//! A dying seed's survival round, where it fits, goes before all of these ([`super::survival`]).

use super::{Ctx, Proposal, SeedState};
use crate::encode::Mode;
use crate::plan::REVIVE_TO_HORIZON;
use crate::solve::budget::tail_units;
use crate::solve::policy::costs::Kinds;
use crate::solve::policy::widening::Start;
use crate::solve::policy::{Attempt, Cost, RoundKind, Screen, Task};
use crate::solve::stage::Valuer;

impl SeedState {
    /// A round for the `left` seconds when the seed's next round does not fit: polishes of
    /// the best game's next units ([`SeedState::polish_parts`]) where they fit, else re-plans
    /// of its last units ([`SeedState::replan_tail`]); `None` when nothing fits. Where the best
    /// game dies early and no re-plan as wide as [`SearchOptions::revive_width`] fits, or wider
    /// beams no longer make its games last ([`SeedState::revives_first`]), a revive tail
    /// ([`SeedState::revive_tail`]) where it fits.
    ///
    /// [`SearchOptions::revive_width`]: crate::solve::SearchOptions::revive_width
    pub fn tail(&self, ctx: Ctx, left: f64) -> Option<Proposal> {
        let n = self.round_size(ctx.preset);
        if let Some(p) = self.survival_round(ctx, left, n) {
            return Some(p);
        }
        let replan = self.replan_tail(ctx, left, n);
        let narrow = replan.as_ref().is_none_or(|p| p.width < ctx.o.revive_width);
        if narrow || self.revives_first(ctx) {
            if let Some(p) = self.revive_tail(ctx, left, n) {
                return Some(p);
            }
        }
        self.polish_parts(ctx, left, n).or(replan)
    }

    /// Polishes of the best game's next units, those after the units the polishes before
    /// reached, one part per lane side by side (the executor puts each into the game as the
    /// others left it): as many units per lane as fit in the `left` seconds (on the grid of
    /// [`tail_units`]; at least [`SearchOptions::tail_min_share`] of the game, or the rest),
    /// the rest shared evenly where it needs fewer. Only where [`SearchOptions::tail_polish`]
    /// says so, the game lasts the whole source, the phrases are spelt and the game was not
    /// polished to its end. A part gains its share of what a whole polish gains, where a
    /// re-plan of a whole game's last units mostly finds the game it had (docs/tuning.md).
    fn polish_parts(&self, ctx: Ctx, left: f64, lanes: usize) -> Option<Proposal> {
        let o = ctx.o;
        let wanted =
            o.tail_polish && lanes > 0 && self.setup.spells && self.games.whole(self.setup.source);
        if !wanted {
            return None;
        }
        let m = self.model(o, Kinds::OTHERS)?;
        // The best game where the DP encoder spelt it and no polish reached its end; else
        // the best game that a polish of its rest would make the best.
        let g = self.games.polish_candidates(m.costs).next()?;
        let from = self.games.polished_to(g.id).min(g.units);
        let rest = g.units - from;
        let per_unit = Cost {
            plan: 0.0,
            spell: m.polish_part_cost(1.0 / g.units.max(1) as f64),
        };
        let least = ((g.units as f64 * o.tail_min_share).ceil() as usize).clamp(1, rest.max(1));
        let fit = tail_units(left, self.seconds(per_unit, o), rest);
        if rest == 0 || fit < least {
            return None;
        }
        let parts = lanes.min(rest);
        let size = rest.div_ceil(parts).min(fit);
        let tasks: Vec<Task> = (0..parts)
            .map(|k| from + k * size)
            .take_while(|&start| start < g.units)
            .map(|start| Task::Polish {
                game: g.id,
                from: start,
                // A part even where it reaches the end: a part stops short, keeping the units
                // it spelt, where the time runs out.
                to: Some((start + size).min(g.units)),
            })
            .collect();
        Some(Proposal {
            tasks,
            width: self.widening.width,
            kind: RoundKind::Tail,
            cost: per_unit.times(size as f64),
        })
    }

    /// A revive tail of `n` attempts for the `left` seconds of a seed whose best game dies
    /// early: fresh games of [`SearchOptions::dying_tail_width`], one per lane, with the
    /// survival systems and no phrase valuer, whose beams revive without a budget of their own:
    /// the horizon's cut narrows them in time to be spelt. `None` where the option is off, the
    /// best game lasts the whole source, there is no survival system, or the time left holds
    /// less than a straight game of that width over the whole source and the lead at which a
    /// beam narrows (a game cut shorter rarely outlives the best one).
    ///
    /// [`SearchOptions::dying_tail_width`]: crate::solve::SearchOptions::dying_tail_width
    fn revive_tail(&self, ctx: Ctx, left: f64, n: usize) -> Option<Proposal> {
        let o = ctx.o;
        let w = o.dying_tail_width;
        if w == 0 || n == 0 || self.setup.survival == 0 || self.games.whole(self.setup.source) {
            return None;
        }
        let m = self.model(o, Kinds::SURVIVAL)?;
        let source = self.setup.source.max(1) as f64;
        // A straight game over the whole source at this width, and the lead a beam narrows
        // at, must fit.
        let lead = m.costs.narrow_lead(Kinds::SURVIVAL, source, o);
        let c = Cost {
            plan: m.costs.per_unit(Kinds::SURVIVAL) * w as f64 * source * o.plan_margin + lead,
            spell: m.costs.encode,
        };
        if self.seconds(c, o) > left {
            return None;
        }
        let first = self.games.planned;
        let tasks = (0..n)
            .map(|j| Task::Attempt(self.revive_attempt(ctx, first + j as u32)))
            .collect();
        Some(Proposal {
            tasks,
            width: self.widening.width,
            kind: RoundKind::Tail,
            cost: Cost {
                plan: left / self.plan_pace.speed(o).max(1e-9),
                spell: 0.0,
            },
        })
    }

    /// Attempt `id` of a revive tail: a fresh game of [`SearchOptions::dying_tail_width`] with a
    /// survival system and no phrase valuer, whose beam revives without a budget of its own.
    ///
    /// [`SearchOptions::dying_tail_width`]: crate::solve::SearchOptions::dying_tail_width
    pub(super) fn revive_attempt(&self, ctx: Ctx, id: u32) -> Attempt {
        Attempt {
            id,
            system: match self.setup.revive.len() {
                0 => self.setup.systems + id as usize % self.setup.survival,
                n => self.setup.revive[id as usize % n],
            },
            width: ctx.o.dying_tail_width,
            mode: if self.setup.spells {
                Mode::Dp
            } else {
                Mode::Plain
            },
            base: None,
            screen: self.revive_screen(),
            valuer: Valuer::Off,
            revive: REVIVE_TO_HORIZON,
        }
    }

    /// A plan that revives to its horizon is made once: a second would start narrowed.
    fn revive_screen(&self) -> Screen {
        Screen {
            tries: 1,
            rate: self.games.rate(self.setup.spells),
            least: 0.0,
        }
    }

    /// Round `p`, predicted to take `cost` of the `room` seconds before its horizon, as it is
    /// played ([`SearchOptions::revive_last_round`]): where it is a round of fresh games of a
    /// seed whose best game dies early and neither a revive tail ([`SeedState::revive_tail`])
    /// nor another round as dear would fit after it, its *last round*. Its survival attempts
    /// then revive to the horizon (their beams narrow to the revive tail's width from their
    /// first death on), and, where it is no wider than [`SearchOptions::revive_width`], its
    /// other attempts are a revive tail's games: on problem 18's board the other systems'
    /// beams of that width die within a few hundred units, while wider ones may live (problem
    /// 10118 of the survival set S45 lives 541 units with `fill` at width 64, and lost half
    /// its score where that game was replaced; docs/tuning.md).
    ///
    /// [`SearchOptions::revive_last_round`]: crate::solve::SearchOptions::revive_last_round
    /// [`SearchOptions::revive_width`]: crate::solve::SearchOptions::revive_width
    pub fn last_round(&self, ctx: Ctx, room: f64, cost: f64, mut p: Proposal) -> Proposal {
        let o = ctx.o;
        let after = room - cost;
        let last = o.revive_last_round
            && after < cost
            && o.dying_tail_width > 0
            && p.kind == RoundKind::Fresh
            && self.setup.survival > 0
            && !self.games.whole(self.setup.source)
            && self.revive_tail(ctx, after, p.tasks.len()).is_none();
        if !last {
            return p;
        }
        for t in &mut p.tasks {
            let Task::Attempt(a) = t else { continue };
            if a.system >= self.setup.systems {
                a.revive = REVIVE_TO_HORIZON;
                a.screen = self.revive_screen();
            } else if p.width <= o.revive_width {
                *a = self.revive_attempt(ctx, a.id);
            }
        }
        p
    }

    /// Re-plans of the best game's last units by `n` attempts: the widest beam, up to the
    /// current width, that can plan and spell them in the `left` seconds, and how many of its
    /// last units (at least [`SearchOptions::tail_min_share`] of them, and one), counted apart
    /// for the survival systems' attempts and the others', each at its own kind's price; `None`
    /// when none fits.
    pub(super) fn replan_tail(&self, ctx: Ctx, left: f64, n: usize) -> Option<Proposal> {
        let o = ctx.o;
        let units = self.games.kept.first()?.units;
        if units == 0 || n == 0 {
            return None;
        }
        let m = self.model(o, self.kinds(o, n))?;
        let rate = self.games.rate(self.setup.spells);
        let least = ((units as f64 * o.tail_min_share).ceil() as usize).max(1);
        let mut w = self.widening.width.max(1);
        loop {
            let tries = m.tries(w, rate);
            let chars = m.spells_chars(w, tries, self.games.kept.first());
            let per_unit = |kinds: Kinds| Cost {
                plan: m.costs.per_unit(kinds) * w as f64 * o.plan_margin * tries as f64,
                spell: m.game_spelling(chars) / units as f64,
            };
            let fit_of = |kinds| {
                let c = per_unit(kinds);
                (tail_units(left, self.seconds(c, o), units), c)
            };
            let (fit, dearest) = fit_of(m.kinds);
            if fit >= least {
                // Each kind of system re-plans as many units as fit at its own price: on
                // problem 18 the others' beams, valuing phrases by words, cost several times
                // `survive`'s, and priced at theirs its tails re-planned the last few units of
                // a game that died there (docs/tuning.md). The dearest kind's span fits both.
                let apart =
                    |kinds: Kinds, on: bool| if on { fit_of(kinds) } else { (fit, dearest) };
                let (span, c) = apart(Kinds::OTHERS, m.kinds.others);
                let (survival_span, cs) = apart(Kinds::SURVIVAL, m.kinds.survival);
                let start = Start::Tail {
                    span,
                    survival_span,
                };
                let mut round = self.round_of(o, w, n, start);
                let (a, b) = (c.times(span as f64), cs.times(survival_span as f64));
                round.cost = if a.total() >= b.total() { a } else { b };
                return Some(round);
            }
            if w == 1 {
                return None;
            }
            w /= 2;
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::encode::Mode;
    use crate::plan::REVIVE_TO_HORIZON;
    use crate::solve::budget::Preset;
    use crate::solve::policy::costs::{Costs, UnitWork};
    use crate::solve::policy::{GameId, Summary, Task};
    use crate::solve::SearchOptions;

    /// The default options and the preset of a run on a clock.
    pub(in crate::solve::policy::seed) fn clock() -> (SearchOptions, Preset) {
        let o = SearchOptions::default();
        let preset = Preset::clock(&o);
        (o, preset)
    }

    /// A cost model: the others' beams at 8 us per unit per unit of width, the survival
    /// systems' as given, games of `units` units.
    pub(in crate::solve::policy::seed) fn costs(survival: Option<UnitWork>, units: f64) -> Costs {
        Costs {
            plan: UnitWork {
                per_unit: 8e-6,
                width: 16,
            },
            survival,
            unvalued: None,
            units,
            plain: 0.0,
            greedy: None,
            encode: 1e-5,
            dp_measured: true,
            chars_factor: 60.0,
            chars_measured: false,
            polish_gain: 1.02,
            polish_measured: false,
        }
    }

    /// The best game, of `units` units, planned by the survival system.
    pub(in crate::solve::policy::seed) fn best_game(units: usize) -> Summary {
        Summary {
            id: GameId::Planned(3),
            score: 30_000,
            power: 20_000,
            units,
            descents: 6_000,
            system: 5,
            spelling: Mode::Dp,
            kept: 0,
            spell_work: 1e-3,
            polished_to: None,
        }
    }

    /// The lone survival seed, its `survive` beams measured at 2 us per unit per unit of width
    /// at `width`, its best game dying at unit 300.
    pub(in crate::solve::policy::seed) fn dying_seed(width: usize) -> SeedState {
        let mut s = super::super::lone_survival_seed();
        s.costs = Some(costs(
            Some(UnitWork {
                per_unit: 2e-6,
                width,
            }),
            300.0,
        ));
        s.games.kept = vec![best_game(300)];
        s
    }

    /// [`dying_seed`] with ten games planned and its beams at `width`.
    pub(in crate::solve::policy::seed) fn dying_seed_at(width: usize) -> SeedState {
        let mut s = dying_seed(width);
        s.games.planned = 10;
        s.widening.width = width;
        s
    }

    /// Regression (issue 44): a tail round of a dying seed was priced at its dearest kind of
    /// system for every attempt, so on problem 18, where the others' beams cost several times
    /// `survive`'s, the survival attempts re-planned only the last few units of a game that
    /// died there. Each kind now re-plans as many units as fit at its own price.
    #[test]
    fn tail_spans_follow_each_kind_of_systems_price() {
        let (o, preset) = clock();
        let ctx = Ctx {
            o: &o,
            preset: &preset,
        };
        let mut s = dying_seed(16);
        s.widening.width = 16;
        let (mut survival_kept, mut other_kept) = (Vec::new(), Vec::new());
        for planned in 10..50 {
            s.games.planned = planned;
            let round = s.tail(ctx, 0.01).expect("a tail fits");
            assert!(s.seconds(round.cost, &o) <= 0.01, "{round:?}");
            for t in &round.tasks {
                let Task::Attempt(a) = t else { continue };
                let (_, kept) = a.base.expect("a tail re-plans the best game");
                match a.system >= 5 {
                    true => survival_kept.push(kept),
                    false => other_kept.push(kept),
                }
            }
        }
        // At width 16 the others fit about 65 units (a span of 64), `survive` about 260 (256).
        let (least_survival, least_other) = (
            *survival_kept.iter().min().unwrap(),
            *other_kept.iter().min().unwrap(),
        );
        assert!(least_other >= 300 - 64, "{other_kept:?}");
        assert!(least_survival >= 300 - 256, "{survival_kept:?}");
        assert!(least_survival < 300 - 64, "{survival_kept:?}");
    }

    /// A dying seed short of time: where no re-plan as wide as `revive_width` fits, its tail
    /// is one fresh reviving game per lane with the survival systems at `dying_tail_width`,
    /// without a valuer or a revive budget of its own; not where the option is off, the best
    /// game is whole, the time left holds less than a straight game over the source, or a
    /// re-plan as wide as `revive_width` fits.
    #[test]
    fn dying_seeds_short_of_time_revive_narrow_survival_games() {
        let (o, preset) = clock();
        let mut s = dying_seed_at(4);
        let revives = |s: &SeedState, o: &SearchOptions, left: f64| -> Option<Proposal> {
            let ctx = Ctx { o, preset: &preset };
            let round = s.tail(ctx, left)?;
            let fresh = round.tasks.iter().any(
                |t| matches!(t, Task::Attempt(a) if a.base.is_none() && a.revive == REVIVE_TO_HORIZON),
            );
            fresh.then_some(round)
        };
        // A straight width-3 game over the 1,000 units and the lead take about 0.02 s.
        let round = revives(&s, &o, 0.05).expect("a revive tail");
        assert_eq!(round.kind, RoundKind::Tail);
        assert_eq!(round.tasks.len(), 2);
        for t in &round.tasks {
            let Task::Attempt(a) = t else { panic!("{t:?}") };
            assert_eq!(a.width, o.dying_tail_width);
            assert!(a.system >= 5, "a survival system: {a:?}");
            assert_eq!(a.valuer, Valuer::Off);
            assert_eq!(a.mode, Mode::Dp);
        }
        assert!(s.seconds(round.cost, &o) <= 0.05 + 1e-12);
        // Its games count (the longest game's length is learnt), its plans' work does not:
        // their rewinds say nothing of a beam's unit.
        {
            use crate::solve::policy::{Outcome, Report, Round};
            let mut s = s.clone();
            let before = s.costs.as_ref().unwrap().survival;
            let started = Round {
                seed: 0,
                tasks: round.tasks.clone(),
                width: round.width,
                kind: round.kind,
                cost: round.cost,
                horizon: Some(0.0),
                fixed: None,
            };
            s.start(&started);
            let reports: Vec<Report> = (0..2)
                .map(|k| Report {
                    outcome: Outcome::Spelt(Summary {
                        id: GameId::Planned(10 + k),
                        units: 800,
                        score: 70_000,
                        ..best_game(800)
                    }),
                    plan_work: 0.04,
                    plans: 1,
                    spell_work: 1e-3,
                    plan_seconds: 0.04,
                    spell_seconds: 1e-3,
                })
                .collect();
            s.report(&o, &started, &reports);
            let c = s.costs.as_ref().unwrap();
            assert_eq!(c.survival, before);
            assert_eq!(c.units, 800.0);
            assert_eq!(s.games.best, 70_000);
            // The system's record holds the width its beam ran at, not the round's.
            assert_eq!(s.widening.record[5], (o.dying_tail_width, 70_000));
        }
        // Too little time for a straight game over the source: the usual tail.
        assert!(revives(&s, &o, 0.01).is_none());
        // The option off.
        let off = SearchOptions {
            dying_tail_width: 0,
            ..o.clone()
        };
        assert!(revives(&s, &off, 0.05).is_none());
        // Time for re-plans as wide as `revive_width`: they go first.
        s.widening.width = o.revive_width;
        assert!(revives(&s, &o, 0.05).is_none());
        // A whole best game is never revived.
        s.widening.width = 4;
        s.games.kept = vec![best_game(1000)];
        assert!(revives(&s, &o, 0.05).is_none());
    }

    /// A revival's fresh games take the revive systems in turn by attempt id, those of a revive
    /// tail and those a last round makes of its other attempts alike; without any, the
    /// survival systems.
    #[test]
    fn revivals_take_the_revive_systems_in_turn() {
        let (o, preset) = clock();
        let ctx = Ctx {
            o: &o,
            preset: &preset,
        };
        let systems_of = |p: &Proposal| -> Vec<(u32, usize)> {
            crate::solve::policy::attempts_of(&p.tasks)
                .iter()
                .map(|a| (a.id, a.system))
                .collect()
        };
        for (revive, want) in [
            (vec![5, 1], [(10, 5), (11, 1)]),
            (vec![], [(10, 5), (11, 5)]),
        ] {
            let mut s = dying_seed(4);
            s.setup.revive = revive.clone();
            s.games.planned = 10;
            s.widening.width = 4;
            let tail = s.revive_tail(ctx, 0.05, 2).expect("a revive tail");
            assert_eq!(systems_of(&tail), want, "{revive:?}");
            // A last round of width 4: attempt 10 plans with `survive` and revives at its
            // width, attempt 11 becomes a revive tail's game.
            let fresh = s.round_of(&o, 4, 2, Start::Fresh);
            let last = s.last_round(ctx, 0.11, 0.1, fresh);
            let attempts = crate::solve::policy::attempts_of(&last.tasks);
            assert_eq!((attempts[0].system, attempts[0].width), (5, 4));
            assert_eq!(
                (attempts[1].system, attempts[1].width),
                (want[1].1, o.dying_tail_width)
            );
        }
        // Names resolve in the run's order of systems, and unknown ones are skipped.
        let mut cfg =
            crate::solve::SolveConfig::new(crate::engine::Phrases::new(Vec::<String>::new()));
        cfg.search.revive_systems = vec!["survive".into(), "nothing".into(), "fill".into()];
        let names: Vec<&str> = cfg
            .revive_systems()
            .iter()
            .map(|&i| cfg.systems[i].0.as_str())
            .collect();
        assert_eq!(names, ["survive", "fill"]);
        assert_eq!(
            SearchOptions::default().revive_systems,
            ["survive", "fill"],
            "the default"
        );
    }

    /// A dying seed's last round of fresh games (no revive tail nor a round as dear would fit
    /// after it): its survival attempts revive to the horizon, its others, at widths up to
    /// `revive_width`, are revive tails' games; wider, they are left as they were. Not where a
    /// revive tail or a round as dear fits after it, the option is off, the round re-plans, or
    /// the best game is whole.
    #[test]
    fn a_dying_seeds_last_fresh_round_revives() {
        let (o, preset) = clock();
        let ctx = Ctx {
            o: &o,
            preset: &preset,
        };
        let mut s = dying_seed_at(16);
        // The round takes 0.1 s: no round as dear fits in the 0.01 or 0.05 s after it.
        let c = 0.1;
        let attempts = |p: &Proposal| crate::solve::policy::attempts_of(&p.tasks);
        for w in [16, 64] {
            let fresh = s.round_of(&o, w, 2, Start::Fresh);
            let before = attempts(&fresh);
            assert!(before.iter().any(|a| a.system >= 5) && before.iter().any(|a| a.system < 5));
            assert!(
                before.iter().all(|a| a.revive < REVIVE_TO_HORIZON),
                "{before:?}"
            );
            // 0.01 s after the round holds no straight width-3 game over the source (0.02 s).
            let last = attempts(&s.last_round(ctx, 0.01 + c, c, fresh.clone()));
            for (a, b) in last.iter().zip(&before) {
                assert_eq!(a.id, b.id);
                if b.system < 5 && w > o.revive_width {
                    assert_eq!(a, b);
                    continue;
                }
                assert_eq!(a.revive, REVIVE_TO_HORIZON, "{a:?}");
                assert_eq!(a.screen.tries, 1);
                if b.system >= 5 {
                    assert_eq!((a.system, a.width, a.valuer), (b.system, b.width, b.valuer));
                } else if w <= o.revive_width {
                    assert!(a.system >= 5, "{a:?}");
                    assert_eq!(a.width, o.dying_tail_width);
                    assert_eq!(a.valuer, Valuer::Off);
                    assert!(a.base.is_none());
                }
            }
            // A revive tail fits after the round: it is left as it was.
            assert_eq!(
                attempts(&s.last_round(ctx, 0.05 + c, c, fresh.clone())),
                before
            );
            // A round as dear as this one fits after it: left as it was.
            assert_eq!(
                attempts(&s.last_round(ctx, 0.02, 0.01, fresh.clone())),
                before
            );
        }
        let fresh = s.round_of(&o, 16, 2, Start::Fresh);
        let before = attempts(&fresh);
        // The option off.
        let off = SearchOptions {
            revive_last_round: false,
            ..o.clone()
        };
        let ctx_off = Ctx {
            o: &off,
            preset: &preset,
        };
        assert_eq!(
            attempts(&s.last_round(ctx_off, 0.01 + c, c, fresh.clone())),
            before
        );
        // A round of cuts re-plans the best game: left as it was.
        let cuts = s.round_of(&o, 16, 2, Start::Cuts);
        assert_eq!(
            attempts(&s.last_round(ctx, 0.01 + c, c, cuts.clone())),
            attempts(&cuts)
        );
        // A whole best game: nothing revives.
        s.games.kept = vec![best_game(1000)];
        let whole = s.round_of(&o, 16, 2, Start::Fresh);
        assert_eq!(
            attempts(&s.last_round(ctx, 0.01 + c, c, whole.clone())),
            attempts(&whole)
        );
    }

    /// A tail of a seed whose best game lasts the whole source and was spelt by the DP encoder
    /// polishes its next units, a part per lane side by side; the next tail goes on from where
    /// the parts reached one after the other (a part that stopped short, where its time ran
    /// out, leaves the parts after it to be polished again), and none polishes once they reach
    /// the end; a game that dies early is re-planned, never polished.
    #[test]
    fn tails_polish_a_whole_game_part_by_part() {
        use crate::solve::policy::{Outcome, Report};
        let (o, preset) = clock();
        let ctx = Ctx {
            o: &o,
            preset: &preset,
        };
        let mut s = super::super::lone_survival_seed();
        // A whole polish: 0.1 work seconds of the DP encoder times 10, 1 ms per unit.
        s.costs = Some(Costs {
            encode: 0.1,
            chars_factor: 10.0,
            chars_measured: true,
            polish_gain: 1.05,
            polish_measured: false,
            ..costs(None, 1000.0)
        });
        let game = GameId::Planned(3);
        let whole = Summary {
            id: game,
            score: 50_000,
            power: 40_000,
            units: 1000,
            descents: 20_000,
            system: 1,
            spelling: Mode::Dp,
            kept: 0,
            spell_work: 0.1,
            polished_to: None,
        };
        s.games.kept = vec![whole.clone()];
        s.games.planned = 10;
        s.widening.width = 16;
        let parts = |p: &Proposal| -> Vec<(usize, Option<usize>)> {
            p.tasks
                .iter()
                .filter_map(|t| match *t {
                    Task::Polish { game: g, from, to } if g == game => Some((from, to)),
                    _ => None,
                })
                .collect()
        };
        // 0.3 s fit 300 units a lane: the largest power of two of them, on each lane.
        let first = s.tail(ctx, 0.3).expect("a tail fits");
        assert_eq!(parts(&first), [(0, Some(256)), (256, Some(512))]);
        assert!(s.seconds(first.cost, &o) <= 0.3, "{first:?}");
        let report = |reached: usize, score: u64| Report {
            outcome: Outcome::Spelt(Summary {
                score,
                polished_to: Some(reached),
                ..whole.clone()
            }),
            plan_work: 0.0,
            plans: 0,
            spell_work: 0.2,
            plan_seconds: 0.0,
            spell_seconds: 0.2,
        };
        let take = |s: &mut SeedState, p: Proposal, reports: Vec<Report>| {
            let round = p.for_seed(0, None, None);
            s.start(&round);
            s.report(&o, &round, &reports);
        };
        // The first part stops short, at unit 200; both gain.
        take(
            &mut s,
            first,
            vec![report(200, 51_000), report(512, 52_000)],
        );
        assert_eq!(s.games.polished_to(game), 200);
        assert_eq!(s.games.kept[0].score, 52_000);
        assert_eq!(s.games.kept[0].spelling, Mode::Dp);
        // The next parts go on from there: the 800 units left fit in 1 s, half a lane each.
        let next = s.tail(ctx, 1.0).expect("a tail fits");
        assert_eq!(parts(&next), [(200, Some(600)), (600, Some(1000))]);
        take(
            &mut s,
            next,
            vec![report(600, 53_000), report(1000, 54_000)],
        );
        assert!(s.games.polished.contains(&game));
        assert_eq!(s.games.kept[0].spelling, Mode::Chars);
        let last = s.tail(ctx, 1.0).expect("a tail fits");
        assert!(parts(&last).is_empty(), "{last:?}");
        // A game that dies early is not polished.
        s.games.kept = vec![Summary {
            units: 500,
            id: GameId::Planned(4),
            ..whole
        }];
        let dying = s.tail(ctx, 1.0).expect("a tail fits");
        assert!(
            dying.tasks.iter().all(|t| matches!(t, Task::Attempt(_))),
            "{dying:?}"
        );
    }
}
