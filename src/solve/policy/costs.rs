//! A seed's cost model: what its tasks cost in work seconds ([`Costs`], learnt from the reports)
//! and the costs of the tasks the rules weigh ([`Model`]: a plan of some width, an attempt's tries and
//! spelling, a polish). It decides nothing: the rules ([`super::seed`]) ask it.

use super::{Cost, SeedSetup, Summary};
use crate::encode::Mode;
use crate::solve::SearchOptions;

/// Planning work per unit of beam width per unit placed, as measured at `width`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct UnitWork {
    pub per_unit: f64,
    /// The widest beam of a whole game measured: narrower ones no longer count, because their
    /// fixed costs weigh on their work per unit of width.
    pub width: usize,
}

impl UnitWork {
    /// Learns the planning work per unit placed, `work`, of a plan of width `width` (a whole
    /// game's when `fresh`): a whole game wider than any measured before replaces the estimate;
    /// other plans as wide as the widest measured can only raise it; narrower ones are ignored.
    fn learn(&mut self, width: usize, fresh: bool, work: f64) {
        let measured = work / width.max(1) as f64;
        if fresh && width > self.width {
            self.per_unit = measured;
            self.width = width;
        } else if width >= self.width {
            self.per_unit = self.per_unit.max(measured);
        }
    }
}

/// The kinds of scoring systems a round's attempts plan with: the survival systems, the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Kinds {
    pub survival: bool,
    pub others: bool,
}

impl Kinds {
    pub const OTHERS: Kinds = Kinds {
        survival: false,
        others: true,
    };
    pub const SURVIVAL: Kinds = Kinds {
        survival: true,
        others: false,
    };
    pub const BOTH: Kinds = Kinds {
        survival: true,
        others: true,
    };
}

/// The cost model of a seed, in work seconds, updated as tasks report.
#[derive(Clone, Debug)]
pub(super) struct Costs {
    /// The planning work of the scoring systems.
    pub plan: UnitWork,
    /// The planning work of the survival systems, once one planned: their beams weigh the
    /// board's stack and often cost several times the others' of the same width, so that a cost
    /// learnt from one would make every later round of the others look too dear to fit.
    pub survival: Option<UnitWork>,
    /// The planning work of the other systems planning without the phrase valuer (a survival
    /// round's games, [`SearchOptions::survival_rounds`]), once one planned.
    pub unvalued: Option<UnitWork>,
    /// The most units a game lasted.
    pub units: f64,
    /// Plain paths' work on the quick answer.
    pub plain: f64,
    /// The greedy encoder's work on the quick answer's plan, once measured.
    pub greedy: Option<f64>,
    /// The DP encoder's work on a whole game (the most measured; a prior until `dp_measured`).
    pub encode: f64,
    pub dp_measured: bool,
    /// The character encoder's work as a multiple of the DP encoder's.
    pub chars_factor: f64,
    pub chars_measured: bool,
    /// What polishing adds, as a factor of the DP encoder's score: a prior until a polish of
    /// the seed's, or of another seed of its problem, measures it.
    pub polish_gain: f64,
    /// Whether a polish of this seed measured `polish_gain`.
    pub polish_measured: bool,
}

impl Costs {
    /// Learns the planning work per unit placed, `work`, of a plan of width `width` (a whole
    /// game's when `fresh`) by a `survival` system or another (see [`UnitWork::learn`]).
    pub fn learn_plan(&mut self, width: usize, fresh: bool, work: f64, survival: bool) {
        let slot = if survival {
            self.survival.get_or_insert(UnitWork {
                per_unit: 0.0,
                width: 0,
            })
        } else {
            &mut self.plan
        };
        slot.learn(width, fresh, work);
    }

    /// Learns the planning work per unit placed, `work`, of a plan of width `width` (a whole
    /// game's when `fresh`) by one of the other systems without the phrase valuer.
    pub fn learn_unvalued(&mut self, width: usize, fresh: bool, work: f64) {
        let slot = self.unvalued.get_or_insert(UnitWork {
            per_unit: 0.0,
            width: 0,
        });
        slot.learn(width, fresh, work);
    }

    /// Planning work per unit of width per unit placed of a survival round's games: their own
    /// once measured, before that the survival systems' times
    /// [`SearchOptions::survival_round_price`]. `fill` has `survive`'s features without its
    /// probe of the stack's room for the big units, so it costs less (docs/tuning.md).
    pub fn unvalued_per_unit(&self, o: &SearchOptions) -> f64 {
        match self.unvalued {
            Some(u) => u.per_unit,
            None => self.per_unit(Kinds::SURVIVAL) * o.survival_round_price,
        }
    }

    /// Planning work per unit of width per unit placed of a round's dearest attempt, of the
    /// `kinds` of systems it plans with. A survival system's is its own widest measure's (the
    /// others' until one is measured): on problem 18, where the others value phrases by words,
    /// their beams cost more than `survive`'s.
    pub fn per_unit(&self, kinds: Kinds) -> f64 {
        match self.survival {
            Some(s) if kinds.survival && kinds.others => s.per_unit.max(self.plan.per_unit),
            Some(s) if kinds.survival => s.per_unit,
            _ => self.plan.per_unit,
        }
    }

    /// The work seconds left before its horizon at which a late beam of the `kinds` of systems
    /// narrows, to finish greedily and be spelt ([`crate::work::Cut::narrow_lead`]): a whole
    /// game's spelling and a unit of those kinds for each of the `source` units, times
    /// [`SearchOptions::narrow_margin`].
    pub fn narrow_lead(&self, kinds: Kinds, source: f64, o: &SearchOptions) -> f64 {
        (self.encode + self.per_unit(kinds) * source) * o.narrow_margin
    }

    /// Learns the DP encoder's work on a whole game: the first measure replaces the prior,
    /// later ones can only raise it.
    pub fn learn_dp(&mut self, work: f64) {
        self.encode = if self.dp_measured {
            self.encode.max(work)
        } else {
            work
        };
        self.dp_measured = true;
    }

    /// Learns the character encoder's factor from a whole game's spelling that took `work`:
    /// the first measure replaces the guess, later ones can only raise it.
    pub fn learn_chars(&mut self, work: f64, o: &SearchOptions) {
        let factor = (work / self.encode.max(1e-9)).min(o.max_chars_factor);
        self.chars_factor = if self.chars_measured {
            self.chars_factor.max(factor)
        } else {
            factor
        };
        self.chars_measured = true;
    }
}

/// A seed's cost model with what it is weighed against: the seed's setup and the options.
pub(super) struct Model<'a> {
    pub costs: &'a Costs,
    pub setup: &'a SeedSetup,
    pub o: &'a SearchOptions,
    /// The kinds of systems of the round weighed ([`Costs::per_unit`]).
    pub kinds: Kinds,
}

impl Model<'_> {
    /// The units a plan is expected to play: the longest game so far times
    /// [`SearchOptions::survival`], up to the source.
    pub fn expected_units(&self) -> f64 {
        let source = self.setup.source.max(1) as f64;
        (self.costs.units * self.o.survival).min(source)
    }

    /// What one plan of width `w` costs.
    pub fn plan_cost(&self, w: usize) -> f64 {
        self.plan_cost_at(self.costs.per_unit(self.kinds), w)
    }

    /// What one plan of width `w` costs at `per_unit` work per unit of width per unit placed.
    pub fn plan_cost_at(&self, per_unit: f64, w: usize) -> f64 {
        per_unit * w as f64 * self.expected_units() * self.o.plan_margin
    }

    /// The partial games a reviving plan of width `w` may expand in all: what
    /// [`Model::plan_cost`] counts on, so that its rewinds stay within its predicted work.
    pub fn revive_budget(&self, w: usize) -> usize {
        (self.expected_units() * w as f64 * self.o.plan_margin) as usize
    }

    /// How many plans an attempt of width `w` makes for the one it spells: as many as fit in
    /// the work of a spelling ([`SearchOptions::max_tries`] at most), one without a `rate`.
    pub fn tries(&self, w: usize, rate: f64) -> usize {
        if rate <= 0.0 {
            return 1;
        }
        let plan = self.plan_cost(w);
        ((self.costs.encode / plan.max(1e-12)).floor() as usize).clamp(1, self.o.max_tries)
    }

    /// Whether an attempt of width `w` making `tries` plans is spelt by the character encoder:
    /// once its work is measured, where a whole game's spelling by it costs no more than the
    /// attempt's plans (a small board). Its games then need no polish.
    pub fn spell_chars(&self, w: usize, tries: usize) -> bool {
        let c = self.costs;
        self.setup.spells
            && c.chars_measured
            && c.encode * c.chars_factor <= self.plan_cost(w) * tries as f64
    }

    /// Whether an attempt of width `w` making `tries` plans, re-planning game `base` (if any),
    /// is spelt by the character encoder: where it spells whole games ([`Model::spell_chars`]),
    /// or where it spelt `base` (its work measured): spelt by the DP encoder, the units after
    /// the cut could not compete with the text kept.
    pub fn spells_chars(&self, w: usize, tries: usize, base: Option<&Summary>) -> bool {
        base.is_some_and(|b| b.spelling == Mode::Chars) && self.costs.chars_measured
            || self.spell_chars(w, tries)
    }

    pub fn spell_cost(&self, w: usize, tries: usize) -> f64 {
        self.game_spelling(self.spell_chars(w, tries))
    }

    /// What spelling a whole game costs: the DP encoder's work, times the character encoder's
    /// factor where it spells (`chars`).
    pub fn game_spelling(&self, chars: bool) -> f64 {
        let c = self.costs;
        if chars {
            c.encode * c.chars_factor
        } else {
            c.encode
        }
    }

    /// What an attempt of width `w` making `tries` plans costs where it re-plans `share` of a
    /// whole game's units (the units after its cut) and spells them by the character encoder
    /// (`chars`) or the DP encoder: the kept units are neither planned nor spelt again, and a
    /// re-plan of a game the character encoder spelt is spelt by it at its price (priced at the
    /// DP's, 0.43 work seconds, the re-plans of problem 24's polished game at 10 s spent 2.4 and
    /// 2.6 spelling and ran past their horizon, docs/changelog.md).
    pub fn replan_cost(&self, w: usize, tries: usize, share: f64, chars: bool) -> Cost {
        Cost {
            plan: self.plan_cost(w) * tries as f64 * share,
            spell: self.game_spelling(chars) * share,
        }
    }

    /// What an attempt of width `w` costs: its plans and its spelling.
    pub fn cost(&self, w: usize, rate: f64) -> Cost {
        let tries = self.tries(w, rate);
        Cost {
            plan: self.plan_cost(w) * tries as f64,
            spell: self.spell_cost(w, tries),
        }
    }

    /// A polish's expected work on `g`: at least [`SearchOptions::polish_least_share`] of a
    /// whole game's DP spelling, times the character encoder's factor.
    pub fn polish_cost(&self, g: &Summary) -> f64 {
        let c = self.costs;
        g.spell_work.max(c.encode * self.o.polish_least_share) * c.chars_factor
    }

    /// A polish's expected work on `share` of a whole game's units: that share of the DP
    /// encoder's work on a whole game, times the character encoder's factor.
    pub fn polish_part_cost(&self, share: f64) -> f64 {
        let c = self.costs;
        c.encode * c.chars_factor * share
    }
}
