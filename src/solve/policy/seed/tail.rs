//! A seed's tail round: when its next round does not fit in the time left before a horizon,
//! neighbourhoods cut late enough in the best game to be re-planned and spelt in that time.

use super::{Ctx, Proposal, SeedState};
use crate::solve::policy::widening::Start;
use crate::solve::policy::Cost;

impl SeedState {
    /// A round for the `left` seconds when the seed's next round does not fit: the widest beam,
    /// up to the current width, that can plan and spell the last units of the best game in that
    /// time, and how many of its last units (at least [`SearchOptions::tail_min_share`] of
    /// them, and one); `None` when none fits.
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
            let per_unit = Cost {
                plan: m.costs.per_unit(m.kinds) * w as f64 * o.plan_margin * tries as f64,
                spell: m.spell_cost(w, tries) / units as f64,
            };
            let fit = crate::solve::budget::tail_units(left, self.seconds(per_unit, o), units);
            if fit >= least {
                let mut round = self.round_of(o, w, n, Start::Tail { span: fit });
                round.cost = per_unit.times(fit as f64);
                return Some(round);
            }
            if w == 1 {
                return None;
            }
            w /= 2;
        }
    }
}
