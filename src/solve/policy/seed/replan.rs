//! What a round of re-plans costs: each attempt plans and spells only the units after its cut,
//! by the encoder that spelt its base where that was the character encoder.

use super::{Model, Summary, Task};
use crate::solve::policy::Cost;

/// The cost of a round of `tasks` of width `w`, each making `tries` plans, that re-plan game
/// `base` from their cuts, spelt by the character encoder where `chars`: the lanes run side by
/// side, so the round costs what its dearest attempt does (the one cut earliest).
pub(super) fn round_cost(
    m: &Model,
    w: usize,
    tries: usize,
    chars: bool,
    base: &Summary,
    tasks: &[Task],
) -> Cost {
    tasks
        .iter()
        .filter_map(|t| match t {
            Task::Attempt(a) => a.base,
            _ => None,
        })
        .map(|(_, kept)| base.units.saturating_sub(kept) as f64 / base.units.max(1) as f64)
        .map(|share| m.replan_cost(w, tries, share, chars))
        .fold(
            Cost::default(),
            |x, y| if y.total() > x.total() { y } else { x },
        )
}

#[cfg(test)]
mod tests {
    use super::super::tail::tests::{best_game, clock, costs};
    use crate::solve::policy::widening::Start;

    use crate::encode::Mode;
    use crate::solve::policy::attempts_of;
    use crate::solve::policy::costs::Kinds;
    use crate::solve::policy::Phase;

    /// A seed of two lanes at width 16 whose best game lasts its 1,000 units, spelt by
    /// `spelling`; the DP spells a whole game in 0.1 work seconds, the character encoder in 60
    /// times that (more than a game's plans, so that it spells no whole game).
    fn seed(spelling: Mode) -> super::super::SeedState {
        let mut s = super::super::lone_survival_seed();
        let mut c = costs(None, 1000.0);
        c.chars_measured = true;
        c.encode = 0.1;
        s.costs = Some(c);
        s.phase = Phase::Search;
        let mut g = best_game(1000);
        g.spelling = spelling;
        s.games.kept = vec![g];
        s.games.planned = 3;
        s.widening.width = 16;
        s
    }

    /// Regression (issue 71, problem 24 at 10 s): a round of cuts of a game the character
    /// encoder spelt is spelt by it, and was priced as a whole game's plans and the DP's
    /// spelling; its re-plans took four times that and ran past their horizon. It is priced at
    /// the character encoder's work on the units after its earliest cut, and plans only those.
    #[test]
    fn a_round_of_cuts_is_priced_for_the_units_it_replans_and_their_encoder() {
        let (o, _) = clock();
        for spelling in [Mode::Dp, Mode::Chars] {
            let s = seed(spelling);
            let p = s.round_of(&o, 16, 2, Start::Cuts);
            let m = s.model(&o, Kinds::OTHERS).unwrap();
            let c = m.costs;
            let kept = attempts_of(&p.tasks)
                .iter()
                .map(|a| a.base.expect("a re-plan").1)
                .min()
                .unwrap();
            assert!(kept > 0 && kept < 1000, "{kept}");
            let share = (1000 - kept) as f64 / 1000.0;
            let tries = m.tries(16, s.games.rate(true));
            let plan = m.plan_cost(16) * tries as f64 * share;
            assert!((p.cost.plan - plan).abs() < 1e-12, "{:?}", p.cost);
            let factor = if spelling == Mode::Chars {
                c.chars_factor
            } else {
                1.0
            };
            let spell = c.encode * factor * share;
            assert!((p.cost.spell - spell).abs() < 1e-12, "{:?} {spell}", p.cost);
            // A fresh round is priced whole, by the DP encoder.
            let fresh = s.round_of(&o, 16, 2, Start::Fresh);
            assert_eq!(fresh.cost, m.cost(16, s.games.rate(true)));
        }
    }

    /// The tail of a game the character encoder spelt re-plans fewer units than that of a
    /// game the DP encoder spelt, where the time left is the same: its units cost more to spell.
    #[test]
    fn a_tail_of_a_game_the_character_encoder_spelt_is_shorter() {
        let (o, preset) = clock();
        let ctx = super::super::Ctx {
            o: &o,
            preset: &preset,
        };
        let span = |spelling| {
            let s = seed(spelling);
            let p = s.replan_tail(ctx, 1.0, 2).expect("a tail fits");
            attempts_of(&p.tasks)
                .iter()
                .map(|a| 1000 - a.base.unwrap().1)
                .max()
                .unwrap()
        };
        let (dp, chars) = (span(Mode::Dp), span(Mode::Chars));
        assert!(chars < dp, "{chars} {dp}");
    }
}
