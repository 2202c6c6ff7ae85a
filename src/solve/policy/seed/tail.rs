//! A seed's tail round: when its next round does not fit in the time left before a horizon,
//! neighbourhoods cut late enough in the best game to be re-planned and spelt in that time.

use super::{Ctx, Proposal, SeedState};
use crate::solve::budget::tail_units;
use crate::solve::policy::costs::Kinds;
use crate::solve::policy::widening::Start;
use crate::solve::policy::Cost;

impl SeedState {
    /// A round for the `left` seconds when the seed's next round does not fit: the widest beam,
    /// up to the current width, that can plan and spell the last units of the best game in that
    /// time, and how many of its last units (at least [`SearchOptions::tail_min_share`] of
    /// them, and one), counted apart for the survival systems' attempts and the others', each
    /// at its own kind's price; `None` when none fits.
    pub fn tail(&self, ctx: Ctx, left: f64) -> Option<Proposal> {
        let Ctx { o, preset } = ctx;
        let units = self.games.kept.first()?.units;
        let n = self.round_size(preset);
        if units == 0 || n == 0 {
            return None;
        }
        let m = self.model(o, self.kinds(o, n))?;
        let rate = self.games.rate(self.setup.spells);
        let least = ((units as f64 * o.tail_min_share).ceil() as usize).max(1);
        let mut w = self.widening.width.max(1);
        loop {
            let tries = m.tries(w, rate);
            let per_unit = |kinds: Kinds| Cost {
                plan: m.costs.per_unit(kinds) * w as f64 * o.plan_margin * tries as f64,
                spell: m.spell_cost(w, tries) / units as f64,
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
mod tests {
    use super::*;
    use crate::encode::Mode;
    use crate::solve::budget::Preset;
    use crate::solve::policy::costs::{Costs, UnitWork};
    use crate::solve::policy::{GameId, Summary, Task};
    use crate::solve::SearchOptions;

    /// Regression (issue 44): a tail round of a dying seed was priced at its dearest kind of
    /// system for every attempt, so on problem 18, where the others' beams cost several times
    /// `survive`'s, the survival attempts re-planned only the last few units of a game that
    /// died there. Each kind now re-plans as many units as fit at its own price.
    #[test]
    fn tail_spans_follow_each_kind_of_systems_price() {
        let o = SearchOptions::default();
        let preset = Preset::clock(&o);
        let ctx = Ctx {
            o: &o,
            preset: &preset,
        };
        let mut s = super::super::lone_survival_seed();
        s.costs = Some(Costs {
            plan: UnitWork {
                per_unit: 8e-6,
                width: 16,
            },
            survival: Some(UnitWork {
                per_unit: 2e-6,
                width: 16,
            }),
            units: 300.0,
            plain: 0.0,
            greedy: None,
            encode: 1e-5,
            dp_measured: true,
            chars_factor: 60.0,
            chars_measured: false,
            polish_gain: 1.02,
        });
        s.games.kept = vec![Summary {
            id: GameId::Planned(3),
            score: 30_000,
            power: 20_000,
            units: 300,
            descents: 6_000,
            system: 5,
            spelling: Mode::Dp,
            kept: 0,
            spell_work: 1e-3,
        }];
        s.widening.width = 16;
        let (mut survival_cuts, mut other_cuts) = (Vec::new(), Vec::new());
        for planned in 10..50 {
            s.games.planned = planned;
            let round = s.tail(ctx, 0.01).expect("a tail fits");
            assert!(s.seconds(round.cost, &o) <= 0.01, "{round:?}");
            for t in &round.tasks {
                let Task::Attempt(a) = t else { continue };
                let (_, cut) = a.base.expect("a tail re-plans the best game");
                match a.system >= 5 {
                    true => survival_cuts.push(cut),
                    false => other_cuts.push(cut),
                }
            }
        }
        // At width 16 the others fit about 65 units (a span of 64), `survive` about 260 (256).
        let (least_survival, least_other) = (
            *survival_cuts.iter().min().unwrap(),
            *other_cuts.iter().min().unwrap(),
        );
        assert!(least_other >= 300 - 64, "{other_cuts:?}");
        assert!(least_survival >= 300 - 256, "{survival_cuts:?}");
        assert!(least_survival < 300 - 64, "{survival_cuts:?}");
    }
}
