//! A dying seed's *survival round* ([`SearchOptions::survival_rounds`]): where its next round
//! of fresh games, wider than [`SearchOptions::revive_width`], does not fit before a horizon,
//! fresh games of that width of its own systems alone ([`SearchOptions::survival_round_systems`],
//! else the revive systems), without the phrase valuer, where they fit. The mixed round costs
//! its dearest kind's, the others' beams valuing phrases by words, so on problem 18's board the
//! wide round never fits, while a width-64 `fill` beam lives through its source for a fraction
//! of that (docs/tuning.md). The survival round is priced at its own games' work
//! ([`Costs::unvalued_per_unit`](crate::solve::policy::costs::Costs::unvalued_per_unit)): at
//! `survive`'s, about four times `fill`'s there, it stopped fitting at 3 s on a faster machine.
//! Narrower survival rounds, the widest that fits, lost on other sources of that board (P18U at
//! 5 s: -6 %).
//!
//! The rule that lets a dying seed's tail revive before it re-plans
//! ([`SeedState::revives_first`]) lives here too: it weighs how long the rounds' games lasted.
//!
//! Once the best game lasts the whole source, while it comes from a game planned without the
//! valuer ([`SearchOptions::survival_rounds_when_whole`]), the rounds go on at the width the
//! beams reached: on problem 18 such games of new tie-breaks differ by thousands of points, a
//! re-plan of the whole game's last units by tens.
//!
//! [`SearchOptions::survival_rounds`]: crate::solve::SearchOptions::survival_rounds
//! [`SearchOptions::revive_width`]: crate::solve::SearchOptions::revive_width
//! [`SearchOptions::survival_round_systems`]: crate::solve::SearchOptions::survival_round_systems
//! [`SearchOptions::survival_rounds_when_whole`]: crate::solve::SearchOptions::survival_rounds_when_whole

use super::{Ctx, Proposal, SeedState};
use crate::solve::policy::costs::Kinds;
use crate::solve::policy::widening::Start;
use crate::solve::policy::{Cost, RoundKind, Summary, Task};

impl SeedState {
    /// A survival round ([`SearchOptions::survival_rounds`]) of `n` fresh games for the `left`
    /// seconds: at the width of the seed's next round of fresh games, where that is wider than
    /// the last round's and than [`SearchOptions::revive_width`], with its own systems
    /// ([`SeedSetup::survival_round`], else the revive systems) in turn by attempt id, no
    /// phrase valuer, and the revival budget of a fresh game of that width. Once the best game
    /// lasts the whole source, only while it comes from a game without the valuer
    /// ([`SearchOptions::survival_rounds_when_whole`]), at the width the beams reached, every
    /// other game re-planning the best one from a cut anywhere in it where
    /// [`SearchOptions::survival_cuts_when_whole`] says so. `None`
    /// where the option is off, there is no survival system, or the round, priced at its own
    /// games' work, does not fit.
    ///
    /// [`SearchOptions::survival_rounds`]: crate::solve::SearchOptions::survival_rounds
    /// [`SearchOptions::revive_width`]: crate::solve::SearchOptions::revive_width
    /// [`SeedSetup::survival_round`]: crate::solve::policy::SeedSetup::survival_round
    /// [`SearchOptions::survival_rounds_when_whole`]: crate::solve::SearchOptions::survival_rounds_when_whole
    /// [`SearchOptions::survival_cuts_when_whole`]: crate::solve::SearchOptions::survival_cuts_when_whole
    pub(super) fn survival_round(&self, ctx: Ctx, left: f64, n: usize) -> Option<Proposal> {
        let o = ctx.o;
        let whole = self.games.whole(self.setup.source);
        let unvalued = |g: &Summary| self.games.unvalued.contains(&g.id);
        let goes_on = o.survival_rounds_when_whole && self.games.kept.first().is_some_and(unvalued);
        if !o.survival_rounds || n == 0 || self.setup.survival == 0 || whole && !goes_on {
            return None;
        }
        // Once whole, games of new tie-breaks at the width the beams reached (wider games of
        // `fill` scored less on problem 18); before, only a round wider than the last.
        let (w, last) = match whole {
            true => (self.widening.width, 0),
            false => (self.outlook(ctx)?.next, self.widening.width),
        };
        if w <= last.max(o.revive_width) {
            return None;
        }
        let m = self.model(o, Kinds::SURVIVAL)?;
        let plan = m.plan_cost_at(m.costs.unvalued_per_unit(o), w);
        let cost = Cost {
            plan,
            spell: m.costs.encode,
        };
        if self.seconds(cost, o) > left {
            return None;
        }
        let first = self.games.planned;
        let tasks = (0..n)
            .map(|j| {
                let id = first + j as u32;
                let mut a = self.revive_attempt(ctx, id);
                let systems = &self.setup.survival_round;
                if !systems.is_empty() {
                    a.system = systems[id as usize % systems.len()];
                }
                a.width = w;
                a.revive = m.revive_budget(w);
                // Once whole, every other game re-plans the best one from a cut anywhere in it
                // ([`SearchOptions::survival_cuts_when_whole`]).
                if whole && o.survival_cuts_when_whole && id % 2 == 1 {
                    let b = &self.games.kept[0];
                    a.base = Start::Cuts.base(id, (b.id, b.units), false);
                }
                Task::Attempt(a)
            })
            .collect();
        Some(Proposal {
            tasks,
            width: w,
            kind: RoundKind::Fresh,
            cost,
        })
    }

    /// Whether a tail revives before it re-plans, however wide the re-plans
    /// ([`SearchOptions::revive_below_share`]): the best game lasts less than that share of the
    /// source, and the widest fresh games lasted less than
    /// [`SearchOptions::revive_below_gain`] times as long as the next narrower width's. Wider
    /// beams then no longer buy units, and a re-plan of the game's last units rarely doubles
    /// its length, where a reviving game may play the whole source.
    ///
    /// [`SearchOptions::revive_below_share`]: crate::solve::SearchOptions::revive_below_share
    /// [`SearchOptions::revive_below_gain`]: crate::solve::SearchOptions::revive_below_gain
    pub(super) fn revives_first(&self, ctx: Ctx) -> bool {
        let o = ctx.o;
        let source = self.setup.source as f64;
        let short = (self.games.kept.first())
            .is_some_and(|g| (g.units as f64) < o.revive_below_share * source);
        short && (self.widening.length_gain()).is_some_and(|g| g < o.revive_below_gain)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tail::tests::{best_game, clock, dying_seed, dying_seed_at};
    use super::*;
    use crate::solve::policy::{attempts_of, Attempt, Outcome, Report};
    use crate::solve::stage::Valuer;
    use crate::solve::SearchOptions;

    /// The report of an attempt that planned and spelt `g` (0.05 work seconds of planning).
    fn spelt(g: Summary) -> Report {
        Report {
            outcome: Outcome::Spelt(g),
            plan_work: 0.05,
            plans: 1,
            spell_work: 1e-3,
            plan_seconds: 0.05,
            spell_seconds: 1e-3,
        }
    }

    /// A dying seed whose next round of fresh games (width 64, after a round of width 16) does
    /// not fit: its tail is a round of fresh games of the survival round's systems, or else the
    /// revive systems, in turn, without the valuer, with a fresh game's revival budget, at
    /// width 64 where it fits at the survival systems' price; none where it does not fit, the
    /// beams are not wider than the last round's or than `revive_width`, or the option is off.
    /// Once the best game is whole, only while it comes from a game without the valuer, at the
    /// width the beams reached.
    #[test]
    fn dying_seeds_play_survival_rounds_where_the_wide_round_does_not_fit() {
        let (o, preset) = clock();
        let ctx = Ctx {
            o: &o,
            preset: &preset,
        };
        let mut s = dying_seed_at(16);
        s.setup.revive = vec![5, 1];
        // `survive` at 2 us per unit per unit of width, a survival round's games at 0.35 of
        // that, over twice the 300 units of the best game, with the margin: about 0.5 ms per
        // unit of width (width 64 about 0.032 s).
        let round = |s: &SeedState, o: &SearchOptions, left: f64| {
            let ctx = Ctx { o, preset: &preset };
            s.tail(ctx, left)
                .filter(|p| p.kind == RoundKind::Fresh)
                .map(|p| (p.width, attempts_of(&p.tasks), s.seconds(p.cost, o)))
        };
        for (left, width) in [(0.1, 64), (1.0, 64)] {
            let (w, attempts, seconds) = round(&s, &o, left).expect("a survival round");
            assert_eq!(w, width, "{left}");
            assert!(seconds <= left, "{seconds} > {left}");
            let m = s.model(&o, Kinds::SURVIVAL).unwrap();
            let systems: Vec<(u32, usize)> = attempts.iter().map(|a| (a.id, a.system)).collect();
            assert_eq!(systems, [(10, 5), (11, 1)]);
            for a in &attempts {
                let Attempt {
                    width,
                    base,
                    valuer,
                    revive,
                    ..
                } = a;
                assert_eq!(*width, w);
                assert_eq!(*base, None);
                assert_eq!(*valuer, Valuer::Off);
                assert_eq!(*revive, m.revive_budget(w));
            }
        }
        // Its games' plan work is learnt apart: `survive`'s (system 5) as the survival
        // systems', `fill`'s (system 1, without the valuer there) as a survival round's own;
        // its record holds their width, and how long they lasted at it.
        {
            use crate::solve::policy::{GameId, Round};
            let mut s = s.clone();
            let p = s.tail(ctx, 0.1).expect("a survival round");
            let others = s.costs.as_ref().unwrap().plan;
            let started = Round {
                seed: 0,
                tasks: p.tasks.clone(),
                width: p.width,
                kind: p.kind,
                cost: p.cost,
                horizon: Some(0.0),
                fixed: None,
            };
            s.start(&started);
            let reports: Vec<Report> = [5, 1]
                .iter()
                .enumerate()
                .map(|(k, &system)| {
                    spelt(Summary {
                        id: GameId::Planned(10 + k as u32),
                        system,
                        ..best_game(1000)
                    })
                })
                .collect();
            s.report(&o, &started, &reports);
            let c = s.costs.as_ref().unwrap();
            assert_eq!(c.plan, others);
            assert_eq!(c.survival.unwrap().width, 64);
            assert_eq!(c.unvalued.unwrap().width, 64);
            assert_eq!(s.widening.record[1], (64, 30_000));
            assert_eq!(s.widening.lasted, [(64, 1000)]);
            assert_eq!(s.widening.width, 64);
        }
        // The survival round's own systems, where given, go before the revive systems.
        {
            let mut s = s.clone();
            s.setup.survival_round = vec![1];
            let (_, attempts, _) = round(&s, &o, 0.1).expect("a survival round");
            let systems: Vec<(u32, usize)> = attempts.iter().map(|a| (a.id, a.system)).collect();
            assert_eq!(systems, [(10, 1), (11, 1)]);
            let mut cfg =
                crate::solve::SolveConfig::new(crate::engine::Phrases::new(Vec::<String>::new()));
            let names = |cfg: &crate::solve::SolveConfig| -> Vec<String> {
                let ids = cfg.survival_round_systems();
                ids.iter().map(|&i| cfg.systems[i].0.clone()).collect()
            };
            assert_eq!(names(&cfg), ["fill"], "the default");
            cfg.search.survival_round_systems = vec!["nothing".into(), "survive".into()];
            assert_eq!(names(&cfg), ["survive"]);
        }
        // Width 64 does not fit (width 32 would): the usual tail.
        assert!(round(&s, &o, 0.02).is_none());
        assert!(s.tail(ctx, 0.02).is_some());
        // Beams no wider than the last round's, or not wider than `revive_width`.
        let mut narrow = s.clone();
        narrow.widening.width = 4;
        assert!(round(&narrow, &o, 1.0).is_none());
        // The option off.
        let off = SearchOptions {
            survival_rounds: false,
            ..o.clone()
        };
        assert!(round(&s, &off, 1.0).is_none());
        // A whole best game that no game without the valuer led to.
        let mut whole = s.clone();
        whole.games.kept = vec![best_game(1000)];
        assert!(round(&whole, &o, 1.0).is_none());
        // One that did: games of new tie-breaks at the width the beams reached, not wider,
        // unless the option says no.
        whole.games.unvalued = vec![whole.games.kept[0].id];
        whole.widening.width = 64;
        let (w, attempts, _) = round(&whole, &o, 1.0).expect("a survival round once whole");
        assert_eq!(w, 64);
        assert!(attempts.iter().all(|a| a.valuer == Valuer::Off));
        // Every other game (the odd ids) re-plans the best game from a cut anywhere in it,
        // unless the option says no.
        let best = whole.games.kept[0].id;
        for a in &attempts {
            match a.id % 2 {
                0 => assert_eq!(a.base, None, "{a:?}"),
                _ => assert!(
                    a.base.is_some_and(|(g, at)| g == best && at < 1000),
                    "{a:?}"
                ),
            }
        }
        let fresh = SearchOptions {
            survival_cuts_when_whole: false,
            ..o.clone()
        };
        let (_, attempts, _) = round(&whole, &fresh, 1.0).expect("a survival round once whole");
        assert!(attempts.iter().all(|a| a.base.is_none()));
        let no_more = SearchOptions {
            survival_rounds_when_whole: false,
            ..o.clone()
        };
        assert!(round(&whole, &no_more, 1.0).is_none());
        // Not where the beams are no wider than `revive_width`, or where it does not fit.
        whole.widening.width = o.revive_width;
        assert!(round(&whole, &o, 1.0).is_none());
        whole.widening.width = 64;
        assert!(round(&whole, &o, 0.02).is_none());
    }

    /// A survival round is priced at its own games' work once one of them planned (a plan of
    /// the widest width measured), before that at the survival systems' times
    /// `survival_round_price`; a beam without the valuer narrows at the survival systems'
    /// price, not at the dearer others'.
    #[test]
    fn survival_rounds_are_priced_at_their_own_work() {
        let (o, _) = clock();
        let mut s = dying_seed(16);
        let c = s.costs.as_mut().unwrap();
        let survive = c.per_unit(Kinds::SURVIVAL);
        assert_eq!(c.unvalued_per_unit(&o), survive * o.survival_round_price);
        c.learn_unvalued(64, true, 64.0 * 5e-7);
        assert_eq!(c.unvalued_per_unit(&o), 5e-7);
        c.learn_unvalued(16, true, 16.0 * 1e-5);
        assert_eq!(c.unvalued_per_unit(&o), 5e-7);
        assert_eq!(c.per_unit(Kinds::SURVIVAL), survive);
        let t = s.timing(&o);
        assert!(t.unvalued_lead < t.narrow_lead, "{t:?}");
        let c = s.costs.as_ref().unwrap();
        assert_eq!(t.unvalued_lead, c.narrow_lead(Kinds::SURVIVAL, 1000.0, &o));
    }

    /// A dying seed whose best game lasts less than half its source, and whose widest fresh
    /// games lasted no longer than the narrower ones', revives before it re-plans, however wide
    /// the re-plans that fit; not before two widths, where wider beams made its games last,
    /// where its best game is long, or where the option is off.
    #[test]
    fn dying_seeds_revive_first_where_wider_beams_stop_buying_units() {
        let (o, preset) = clock();
        // Survival rounds aside: they go first where they fit.
        let o = SearchOptions {
            survival_rounds: false,
            ..o
        };
        let ctx = Ctx {
            o: &o,
            preset: &preset,
        };
        let mut s = dying_seed_at(16);
        let tail = |s: &SeedState, o: &SearchOptions| {
            let ctx = Ctx { o, preset: &preset };
            s.tail(ctx, 1.0).expect("a tail fits")
        };
        let replans = tail(&s, &o);
        assert!(!replans.revives());
        assert_eq!((replans.kind, replans.width), (RoundKind::Tail, 16));
        // Lengths are kept per width, the longest at each, in the order of the widths.
        s.widening.took_length(16, 280);
        s.widening.took_length(4, 320);
        s.widening.took_length(16, 300);
        assert_eq!(s.widening.lasted, [(4, 320), (16, 300)]);
        assert_eq!(s.widening.length_gain(), Some(300.0 / 320.0));
        assert!(s.revives_first(ctx));
        assert!(tail(&s, &o).revives());
        let mut longer = s.clone();
        longer.widening.took_length(64, 500);
        assert!(!tail(&longer, &o).revives());
        let mut long = s.clone();
        long.games.kept = vec![best_game(600)];
        assert!(!tail(&long, &o).revives());
        let off = SearchOptions {
            revive_below_share: 0.0,
            ..o.clone()
        };
        assert!(!tail(&s, &off).revives());
    }

    /// The games that come from a fresh game planned without the valuer: the game itself and
    /// its re-plans are remembered, a valued game and its re-plans are not, and a game no
    /// longer kept is forgotten.
    #[test]
    fn unvalued_games_and_their_replans_are_remembered() {
        use crate::solve::policy::{GameId, Round};
        let (o, _) = clock();
        let mut s = dying_seed(16);
        s.games.planned = 10;
        let preset = clock().1;
        let play = |s: &mut SeedState,
                    o: &SearchOptions,
                    (id, valuer, base, score): (u32, Valuer, Option<u32>, u64)| {
            let mut a = s.revive_attempt(Ctx { o, preset: &preset }, id);
            a.valuer = valuer;
            a.revive = 0;
            a.base = base.map(|b| (GameId::Planned(b), 500));
            let round = Round {
                seed: 0,
                tasks: vec![Task::Attempt(a)],
                width: 16,
                kind: RoundKind::Fresh,
                cost: Cost {
                    plan: 0.0,
                    spell: 0.0,
                },
                horizon: Some(0.0),
                fixed: None,
            };
            s.start(&round);
            let report = spelt(Summary {
                id: GameId::Planned(id),
                score,
                kept: if base.is_some() { 500 } else { 0 },
                ..best_game(1000)
            });
            s.report(o, &round, &[report]);
        };
        play(&mut s, &o, (10, Valuer::Off, None, 40_000));
        play(&mut s, &o, (11, Valuer::Words, None, 41_000));
        play(&mut s, &o, (12, Valuer::Chars, Some(10), 40_500));
        play(&mut s, &o, (13, Valuer::Chars, Some(11), 41_500));
        assert_eq!(s.games.unvalued, [GameId::Planned(10), GameId::Planned(12)]);
        // Kept no longer (two games kept: 14 and 13).
        let forgetful = SearchOptions {
            keep_games: 2,
            ..o.clone()
        };
        play(&mut s, &forgetful, (14, Valuer::Words, None, 42_000));
        assert!(s.games.unvalued.is_empty(), "{:?}", s.games.unvalued);
    }
}
