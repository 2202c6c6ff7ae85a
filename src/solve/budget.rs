//! The time rules in one room. The policy ([`super::policy`]) decides what runs next from what
//! has happened; these rules say what a run may spend and by when each task must end:
//!
//! - what a run may spend, resolved once from the command line into a [`RunPlan`] (its
//!   [`Budget`], its checkpoints, its memory), and the preset it runs by, resolved once from the
//!   budget ([`Preset`]: a run on a clock, real or virtual, or a run by attempts);
//! - what the command line keeps back for its output ([`reserve`]), where the common shorter
//!   budgets end ([`checkpoints`]), and the horizons a round must fit before ([`horizons`]);
//! - the lanes a seed runs on ([`Preset::lanes`]) and the widest beam the memory allows
//!   ([`memory_width`], [`Preset::width_cap`]);
//! - what fits before a horizon, each rule against the first horizon it serves (a longer run
//!   starts nothing a shorter one refused): a round of search ([`room`]), an exhaustive search
//!   ([`exhaust_fits`]), the quick answer's greedy spelling ([`greedy_fits`]), and the horizon a
//!   round is planned for as seconds before the deadline ([`before_deadline`]);
//! - how fast this machine does a work second of planning and of spelling ([`Pace`], learnt per
//!   seed from its reports: the policy weighs a round's counted work against the time left
//!   with it, planning and spelling apart, since their paces differ);
//! - each task's one [`Limit`] ([`limit`], [`quick_limit`]), from the policy's [`Timing`]: the
//!   seconds left before its round's horizon turned into counted work at the host's speed
//!   ([`cut`], [`quick_cut`]: where the quick answer's planning stops, a late beam narrows, a
//!   late DP spelling hands over), and on a real clock the moment of that horizon
//!   ([`moment`]); and the limit of the late quick answers after a stop ([`stop_limit`]).
//!
//! Every constant is a field of [`SearchOptions`] (`src/solve/search.json`). A run by attempts
//! has no deadline: none of these rules reads the clock for it, so its answers are the same on
//! any machine and any number of threads.

use super::options::SearchOptions;
use crate::work::{Cut, Limit};
use std::time::{Duration, Instant};

/// What the solver may spend.
#[derive(Clone, Copy, Debug)]
pub enum Budget {
    /// Until this instant.
    Until(Instant),
    /// Exactly this many games planned per seed, whatever the time: reproducible to the
    /// character.
    Attempts(u32),
    /// This many work seconds ([`crate::work`]) on a virtual clock: the run the policy would
    /// play on this project's machine, simulated on one thread, the same on any machine and
    /// under any load (for benchmarks that must not depend on the machine's other work).
    Virtual(f64),
}

impl Budget {
    /// The deadline on the real clock, if the budget has one.
    pub fn deadline(&self) -> Option<Instant> {
        match *self {
            Budget::Until(d) => Some(d),
            _ => None,
        }
    }

    /// The work seconds of a virtual clock, if the budget runs on one.
    pub fn virtual_seconds(&self) -> Option<f64> {
        match *self {
            Budget::Virtual(w) => Some(w),
            _ => None,
        }
    }
}

/// A run's time and memory, resolved once from what the command line was given (as ripgrep
/// resolves its flags once): `play_icfp2015 -t`, `hextris solve -t` and `hextris bench -t` all
/// build theirs here, so that `bench -t T` measures what `play_icfp2015 -t T` runs, to the same
/// deadline.
#[derive(Clone, Debug)]
pub struct RunPlan {
    /// What the run may spend: until its deadline (its [`reserve`] kept back for the output and
    /// the exit), work seconds on a virtual clock, or a number of attempts.
    pub budget: Budget,
    /// Where the common shorter budgets end, in seconds before the end of this one
    /// ([`checkpoints`]; [`super::SolveConfig::checkpoints`]).
    pub checkpoints: Vec<f64>,
    /// Where the shorter budgets whose revivals a longer run plays end, in seconds before the
    /// end of this one ([`revive_checkpoints`]; [`super::SolveConfig::revive_checkpoints`]).
    pub revive_checkpoints: Vec<f64>,
    /// The bytes the solver may count on ([`super::SolveConfig::memory`]): four fifths of a
    /// limit given ([`RunPlan::with_memory_limit`]), [`super::DEFAULT_MEMORY`] without one.
    pub memory: u64,
}

impl RunPlan {
    /// A run of `seconds` from `started`: on the real clock it ends its [`reserve`] before
    /// `started + seconds`, its checkpoints where the shorter runs would end theirs; on a virtual
    /// clock (`virtual_clock`) it spends `seconds` work seconds, with no reserve. `None` when
    /// the deadline cannot be represented.
    pub fn timed(
        started: Instant,
        seconds: f64,
        virtual_clock: bool,
        o: &SearchOptions,
    ) -> Option<RunPlan> {
        let end = instant_after(started, seconds)?;
        let budget = if virtual_clock {
            Budget::Virtual(seconds)
        } else {
            Budget::Until(end - reserve(seconds, o))
        };
        Some(RunPlan {
            budget,
            checkpoints: checkpoints(seconds, !virtual_clock, o),
            revive_checkpoints: revive_checkpoints(seconds, !virtual_clock, o),
            memory: super::DEFAULT_MEMORY,
        })
    }

    /// A run of `n` attempts per seed: no deadline, no checkpoint.
    pub fn attempts(n: u32) -> RunPlan {
        RunPlan {
            budget: Budget::Attempts(n.max(1)),
            checkpoints: Vec::new(),
            revive_checkpoints: Vec::new(),
            memory: super::DEFAULT_MEMORY,
        }
    }

    /// With a memory limit of `mb` megabytes, if one is given: the solver counts on four fifths
    /// of it, the rest kept for what it does not count (code, stacks, the allocator).
    pub fn with_memory_limit(mut self, mb: Option<u64>) -> RunPlan {
        if let Some(mb) = mb {
            self.memory = mb.saturating_mul(1 << 20) / 5 * 4;
        }
        self
    }

    /// The seconds the run has on the real clock from `started` to its deadline, if it has one.
    pub fn seconds_from(&self, started: Instant) -> Option<Duration> {
        self.budget
            .deadline()
            .map(|d| d.saturating_duration_since(started))
    }
}

/// `start + seconds`, or `None` when that instant cannot be represented.
pub fn instant_after(start: Instant, seconds: f64) -> Option<Instant> {
    Duration::try_from_secs_f64(seconds)
        .ok()
        .and_then(|d| start.checked_add(d))
}

/// Bytes a beam keeps per unit of width per unit placed (a placement and its parent), with room
/// for the allocator.
pub const STEP_BYTES: u64 = 96;

/// The rules that tell a run by attempts from a run on a clock, resolved once from the budget
/// ([`Preset::of`]): the policy and the executor read these, never the budget's kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Preset {
    /// The games a seed plans at most, its quick answer included; `None`: as many as the time
    /// allows.
    pub games: Option<u32>,
    /// One task per seed at a time, whatever the workers, so that the answers are the same on
    /// any number of threads. Otherwise the workers are shared among the seeds: a seed alone
    /// gets every one.
    pub one_lane: bool,
    /// The beams widen at every round, instead of when the last round says widening pays.
    pub widen_always: bool,
    /// A polish may go before the next round of beams when it promises more (see
    /// [`super::policy::polish_goes_first`]); otherwise polishes wait until the beams grow no
    /// wider.
    pub polish_early: bool,
    /// The most work seconds a polish may be expected to take.
    pub polish_limit: f64,
    /// The widest beam, before the memory caps it.
    pub max_width: usize,
    /// A seed whose whole space of games is small is searched to the end right after its
    /// quick answer ([`super::options::ExhaustOptions`]); a run by attempts plans its games as
    /// before.
    pub exhaust: bool,
}

impl Preset {
    /// The preset of `budget`.
    pub fn of(budget: Budget, o: &SearchOptions) -> Preset {
        match budget {
            Budget::Attempts(n) => Preset::attempts(n, o),
            Budget::Until(_) | Budget::Virtual(_) => Preset::clock(o),
        }
    }

    /// A run on a clock (real or virtual): the policy's rules as they are, the deadline deciding
    /// what fits.
    pub fn clock(o: &SearchOptions) -> Preset {
        Preset {
            games: None,
            one_lane: false,
            widen_always: false,
            polish_early: true,
            polish_limit: f64::INFINITY,
            max_width: o.max_width,
            exhaust: true,
        }
    }

    /// A run by attempts: `n` games per seed (at least one), planned as before the time policy
    /// (a wider beam at every round, the best games polished at the end), with no clock to stop
    /// a task that takes minutes, so the widest beam and the dearest polish are capped
    /// ([`super::options::AttemptsOptions`]).
    pub fn attempts(n: u32, o: &SearchOptions) -> Preset {
        Preset {
            games: Some(n.max(1)),
            one_lane: true,
            widen_always: true,
            polish_early: false,
            polish_limit: o.attempts.polish_seconds,
            max_width: o.max_width.min(o.attempts.max_width),
            exhaust: false,
        }
    }

    /// The tasks a seed runs at once, with `workers` workers and `seeds` seeds in the run.
    pub fn lanes(&self, workers: usize, seeds: usize) -> usize {
        if self.one_lane {
            1
        } else {
            (workers / seeds.max(1)).max(1)
        }
    }

    /// The widest beam of a seed whose memory allows `memory_width` (see [`memory_width`]).
    pub fn width_cap(&self, memory_width: usize) -> usize {
        memory_width.min(self.max_width).max(1)
    }
}

/// The widest beam `memory` bytes allow a seed whose source has `source` units, with `workers`
/// beams at once: each worker's part of [`SearchOptions::beam_memory_share`] of the memory, at
/// [`STEP_BYTES`] per unit of width per unit placed.
pub fn memory_width(memory: u64, workers: usize, source: usize, o: &SearchOptions) -> usize {
    let per_beam = (memory as f64 * o.beam_memory_share) as u64 / workers.max(1) as u64;
    ((per_beam / (STEP_BYTES * source.max(1) as u64)) as usize).max(1)
}

/// Time a run of `total` seconds on the command line keeps back for writing its output and
/// exiting.
pub fn reserve(total: f64, o: &SearchOptions) -> Duration {
    let seconds = (o.reserve_seconds + o.reserve_share * total)
        .min(o.reserve_most)
        .min(total * o.reserve_most_share);
    Duration::from_secs_f64(seconds)
}

/// Where the common budgets below `total` ([`SearchOptions::checkpoints`]) end, in seconds
/// before the end of a run of `total` seconds; with `reserved`, each budget's end keeps back
/// its [`reserve`] as the run's does. A run plans its rounds to end before each in turn (see
/// [`super::SolveConfig::checkpoints`]).
pub fn checkpoints(total: f64, reserved: bool, o: &SearchOptions) -> Vec<f64> {
    ends_before(&o.checkpoints, total, reserved, o)
}

/// Where the budgets below `total` whose revivals a longer run plays
/// ([`SearchOptions::revive_checkpoints`]) end, as [`checkpoints`] says where the common
/// budgets end.
pub fn revive_checkpoints(total: f64, reserved: bool, o: &SearchOptions) -> Vec<f64> {
    ends_before(&o.revive_checkpoints, total, reserved, o)
}

/// Where each of the `budgets` below `total` ends, in seconds before the end of a run of
/// `total` seconds; with `reserved`, each budget's end keeps back its [`reserve`].
fn ends_before(budgets: &[f64], total: f64, reserved: bool, o: &SearchOptions) -> Vec<f64> {
    let end = |t: f64| {
        if reserved {
            t - reserve(t, o).as_secs_f64()
        } else {
            t
        }
    };
    budgets
        .iter()
        .filter(|&&n| n < total)
        .map(|&n| end(total) - end(n))
        .filter(|&before| before > 0.0)
        .collect()
}

/// The seconds left before each horizon still ahead, in increasing order: the `checkpoints`
/// (seconds before the deadline) not passed yet, then the deadline itself, `left` seconds away.
pub fn horizons(checkpoints: &[f64], left: f64) -> Vec<f64> {
    let mut h: Vec<f64> = checkpoints
        .iter()
        .map(|before| left - before)
        .filter(|&l| l > 0.0)
        .collect();
    h.sort_by(f64::total_cmp);
    h.push(left);
    h
}

/// The horizons still ahead as [`horizons`] gives them, with those of the `revive` checkpoints
/// (seconds before the deadline, [`revive_checkpoints`]) still ahead in front, and how many of
/// those lead the list. A revive checkpoint's horizon comes before every other: one that does
/// not is dropped.
pub fn horizons_with_revivals(checkpoints: &[f64], revive: &[f64], left: f64) -> (Vec<f64>, usize) {
    let rest = horizons(checkpoints, left);
    let first = rest[0];
    let mut lefts: Vec<f64> = revive
        .iter()
        .map(|before| left - before)
        .filter(|&l| l > 0.0 && l < first)
        .collect();
    lefts.sort_by(f64::total_cmp);
    let revivals = lefts.len();
    lefts.extend(rest);
    (lefts, revivals)
}

/// The seconds a round may be predicted to take to end before a horizon `left` seconds away:
/// the time left over [`SearchOptions::fit_margin`] (the machine may run slower than predicted).
pub fn room(left: f64, o: &SearchOptions) -> f64 {
    left / o.fit_margin
}

/// The horizon `left` seconds away as seconds before the deadline (the last of `lefts`, the
/// horizons' seconds left in increasing order), rounded to the microsecond so that a horizon
/// reads the same whenever a round is picked ([`super::policy::Round::horizon`]).
pub fn before_deadline(lefts: &[f64], left: f64) -> f64 {
    let deadline = lefts.last().copied().unwrap_or(0.0);
    ((deadline - left).max(0.0) * 1e6).round() / 1e6
}

/// How many of a game's last `units` a tail round can re-plan and spell in the `room` seconds
/// it may take ([`room`]), at `per_unit` seconds a unit: all of them when they fit, else the
/// largest power of two that fits. The grid is coarse on purpose: on the real clock the room
/// follows the host's jitter, and a span that moved with every millisecond would make two runs
/// of different budgets part at their first tail (a longer run must first play what a shorter
/// one plays); on a grid of doublings, a few per cent of jitter moves the span only when the
/// room lies within those few per cent of a doubling.
pub fn tail_units(room: f64, per_unit: f64, units: usize) -> usize {
    let fit = (room / per_unit.max(1e-12)).floor().max(0.0);
    if fit >= units as f64 {
        return units;
    }
    if fit < 1.0 {
        return 0;
    }
    1usize << (fit.log2().floor() as u32).min(usize::BITS - 1)
}

/// Whether an exhaustive search predicted to take `seconds` is wanted: it fits before the first
/// horizon of `lefts`, where the shortest run it serves ends. A longer run must not start what
/// a shorter one refused, or its games at the shorter one's end would differ.
pub fn exhaust_fits(seconds: f64, lefts: &[f64], o: &SearchOptions) -> bool {
    seconds <= room(lefts.first().copied().unwrap_or(0.0), o)
}

/// What the executor needs for a seed's cuts ([`Cut`]), in counted work, and the host's speed
/// that turns the seconds left before a horizon into work (the policy learns them:
/// [`super::policy::Policy::timing`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// A late beam narrows once the work left before its horizon falls below this many work
    /// seconds, to finish greedily and be spelt.
    pub narrow_lead: f64,
    /// [`Self::narrow_lead`] for a beam planning without the phrase valuer: at the survival
    /// systems' price (where they were measured), which plan without it. On problem 18 the
    /// others' beams, valuing phrases by words, cost several times `fill`'s without it, and at
    /// their price a reviving `fill` game narrowed before it started.
    pub unvalued_lead: f64,
    /// The greedy encoder's work seconds per unit: a late DP encoding hands over to it.
    pub greedy_unit: f64,
    /// Seconds of the machine at hand per work second (1 on a virtual clock, and before any
    /// measure).
    pub speed: f64,
}

/// Seconds per work second of one kind of work on the machine at hand, learnt from decayed sums.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pace {
    seconds: f64,
    work: f64,
}

impl Pace {
    /// Learns from a task that took `seconds` for `work` work seconds (too small a task is
    /// not trusted to measure).
    pub fn learn(&mut self, seconds: f64, work: f64, o: &SearchOptions) {
        if work > o.clock_least_work {
            self.seconds = self.seconds * o.clock_decay + seconds;
            self.work = self.work * o.clock_decay + work;
        }
    }

    /// 1 before any measure (the weights are this project's machine's).
    pub fn speed(&self, o: &SearchOptions) -> f64 {
        if self.work > o.clock_trusted_work {
            let [slowest, fastest] = o.clock_speed_range;
            (self.seconds / self.work).clamp(slowest, fastest)
        } else {
            1.0
        }
    }
}

/// The cut of a task starting now, `left` seconds before its round's horizon (on a virtual
/// clock, work seconds): the seconds become work at the host's speed, here alone, once; the
/// task then narrows and hands over by its own counted work ([`Cut`]).
pub fn cut(left: f64, timing: &Timing) -> Cut {
    let work = left.max(0.0) / timing.speed.max(1e-9);
    Cut::starting_now(work, timing.narrow_lead, timing.greedy_unit)
}

/// The cut of a quick answer starting now, `left` seconds before its horizon, with `workers`
/// workers and `unanswered` seeds still without an answer: each of those gets its part of the
/// time left, of which its quick answer plans in [`SearchOptions::quick_plan_share`], so that
/// it can still be spelt. It neither narrows (a width-1 beam) nor hands over (plain paths).
pub fn quick_cut(
    left: f64,
    workers: usize,
    unanswered: usize,
    timing: &Timing,
    o: &SearchOptions,
) -> Cut {
    let plain = Timing {
        narrow_lead: 0.0,
        unvalued_lead: 0.0,
        greedy_unit: 0.0,
        ..*timing
    };
    let part = left * (workers as f64 / unanswered.max(1) as f64).min(1.0);
    let mut c = cut(left, &plain);
    c.plan_stop = part * o.quick_plan_share / timing.speed.max(1e-9);
    c
}

/// Whether the quick answer's greedy spelling fits before the first horizon, `left` seconds away:
/// [`SearchOptions::greedy_units_left`] units of the largest unit space (`unit_states` states)
/// at [`SearchOptions::spell_state_seconds`] per state, since the encoder stops only after the
/// unit in hand. `behind_quick`: it runs on the lane of the quick answer, after it, which may
/// first plan in [`SearchOptions::quick_plan_share`] of the time left.
pub fn greedy_fits(unit_states: usize, left: f64, behind_quick: bool, o: &SearchOptions) -> bool {
    let left = if behind_quick {
        left * (1.0 - o.quick_plan_share)
    } else {
        left
    };
    let per_unit = unit_states as f64 * o.spell_state_seconds;
    per_unit * o.greedy_units_left <= left
}

/// After a stop, the time the quick answers of seeds without an answer may take.
pub fn stop_grace(o: &SearchOptions) -> Duration {
    Duration::from_secs_f64(o.stop_grace)
}

/// The limit of the quick answers after a stop: the moment [`stop_grace`] from now.
pub fn stop_limit(o: &SearchOptions) -> Limit {
    Limit::until(Some(Instant::now() + stop_grace(o)))
}

/// The moment a round's tasks must stop by: its horizon, `before` seconds before the run's
/// `deadline` (the deadline itself for a round without a horizon); `None` without a deadline
/// (a run by attempts, a virtual clock).
pub fn moment(deadline: Option<Instant>, before: Option<f64>) -> Option<Instant> {
    deadline.map(|d| {
        before.map_or(d, |before| {
            let before = Duration::from_secs_f64(before.clamp(0.0, 1e9));
            d.checked_sub(before).unwrap_or(d)
        })
    })
}

/// The limit of a task starting now, `left` seconds before its round's horizon (on a virtual
/// clock, work seconds; `None` without a horizon), that must stop by `until` (its round's
/// [`moment`]): the seconds become counted work here ([`cut`]).
pub fn limit(left: Option<f64>, until: Option<Instant>, timing: &Timing) -> Limit {
    Limit::new(left.map_or(Cut::NONE, |left| cut(left, timing)), until)
}

/// The limit of a quick answer starting now (see [`quick_cut`] and [`limit`]).
pub fn quick_limit(
    left: Option<f64>,
    until: Option<Instant>,
    (workers, unanswered): (usize, usize),
    timing: &Timing,
    o: &SearchOptions,
) -> Limit {
    let cut = left.map_or(Cut::NONE, |left| {
        quick_cut(left, workers, unanswered, timing, o)
    });
    Limit::new(cut, until)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tail takes all the game's units when they fit, else the largest power of two that
    /// fits in its room (so that jitter rarely moves it), and none when no unit fits.
    #[test]
    fn a_tail_takes_the_units_that_fit() {
        assert_eq!(tail_units(1.0, 0.3, 100), 2);
        assert_eq!(tail_units(1.0, 0.01, 100), 100);
        assert_eq!(tail_units(1.0, 0.011, 100), 64);
        assert_eq!(tail_units(0.99, 0.011, 100), 64);
        assert_eq!(tail_units(0.69, 0.011, 100), 32);
        assert_eq!(tail_units(1.0, 0.5, 100), 2);
        assert_eq!(tail_units(1.0, 1.5, 100), 0);
        assert_eq!(tail_units(-1.0, 0.3, 100), 0);
        assert_eq!(tail_units(1.0, 0.0, 7), 7);
    }

    /// A longer run's checkpoint falls where the shorter run would end, its reserve counted.
    #[test]
    fn checkpoints_fall_where_shorter_runs_end() {
        let o = SearchOptions::default();
        let end = |t: f64| t - reserve(t, &o).as_secs_f64();
        let before = checkpoints(60.0, true, &o);
        assert_eq!(before.len(), 2, "{before:?}");
        for (n, b) in [10.0, 30.0].iter().zip(&before) {
            assert!((end(60.0) - b - end(*n)).abs() < 1e-9, "{n}: {b}");
        }
        assert_eq!(checkpoints(100.0, false, &o), vec![90.0, 70.0]);
        assert!(checkpoints(10.0, true, &o).is_empty());
        assert!(checkpoints(0.5, false, &o).is_empty());
    }

    /// The reserve: a small share of the budget, at most a second, and at most a quarter of a
    /// tiny budget.
    #[test]
    fn the_reserve_is_small_and_bounded() {
        let o = SearchOptions::default();
        let r = |t: f64| reserve(t, &o).as_secs_f64();
        assert!((r(10.0) - 0.15).abs() < 1e-12);
        assert!((r(1.0) - 0.06).abs() < 1e-12);
        assert_eq!(r(1000.0), 1.0);
        assert!((r(0.1) - 0.025).abs() < 1e-12);
    }

    /// One run plan for every command: on the real clock the reserve is kept back and the
    /// checkpoints fall where the shorter runs end theirs; on the virtual clock neither; a
    /// memory limit counts at its headroom.
    #[test]
    fn a_run_plan_keeps_the_reserve_on_the_real_clock_only() {
        let o = SearchOptions::default();
        let start = Instant::now();
        let real = RunPlan::timed(start, 60.0, false, &o).unwrap();
        let end = real.budget.deadline().unwrap();
        let expect = start + Duration::from_secs(60) - reserve(60.0, &o);
        assert_eq!(end, expect);
        assert_eq!(real.checkpoints, checkpoints(60.0, true, &o));
        assert_eq!(real.seconds_from(start), Some(expect - start));
        let virt = RunPlan::timed(start, 60.0, true, &o).unwrap();
        assert_eq!(virt.budget.virtual_seconds(), Some(60.0));
        assert_eq!(virt.checkpoints, vec![50.0, 30.0]);
        assert!(RunPlan::timed(start, 1e30, false, &o).is_none());
        let limited = RunPlan::attempts(0).with_memory_limit(Some(100));
        assert!(matches!(limited.budget, Budget::Attempts(1)));
        assert_eq!(limited.memory, 80 << 20);
        assert_eq!(
            RunPlan::attempts(3).with_memory_limit(None).memory,
            crate::solve::DEFAULT_MEMORY
        );
    }

    /// Horizons: the checkpoints still ahead, nearest first, then the deadline.
    #[test]
    fn horizons_are_the_checkpoints_ahead_then_the_deadline() {
        assert_eq!(horizons(&[90.0, 70.0], 100.0), vec![10.0, 30.0, 100.0]);
        assert_eq!(horizons(&[90.0, 70.0], 80.0), vec![10.0, 80.0]);
        assert_eq!(horizons(&[], 5.0), vec![5.0]);
        // Revive checkpoints lead, those passed and those after a checkpoint left out.
        assert_eq!(
            horizons_with_revivals(&[90.0, 70.0], &[101.0, 95.0, 99.5, 50.0, 98.5], 100.0),
            (vec![0.5, 1.5, 5.0, 10.0, 30.0, 100.0], 3)
        );
        assert_eq!(
            horizons_with_revivals(&[], &[4.0, 3.0], 5.0),
            (vec![1.0, 2.0, 5.0], 2)
        );
    }

    /// A run by attempts: one lane, every round wider, polishes last and capped, narrower
    /// beams; a run on a clock shares the workers.
    #[test]
    fn the_presets_of_a_clock_and_of_attempts() {
        let o = SearchOptions::default();
        let clock = Preset::of(Budget::Virtual(1.0), &o);
        assert_eq!(clock, Preset::clock(&o));
        assert_eq!(
            (clock.lanes(2, 1), clock.lanes(2, 5), clock.lanes(8, 3)),
            (2, 1, 2)
        );
        let attempts = Preset::of(Budget::Attempts(0), &o);
        assert_eq!(attempts.games, Some(1));
        assert_eq!(attempts.lanes(8, 1), 1);
        assert!(attempts.widen_always && !attempts.polish_early);
        assert_eq!(attempts.width_cap(100_000), o.attempts.max_width);
        assert_eq!(clock.width_cap(100_000), o.max_width);
        assert_eq!(clock.width_cap(0), 1);
    }

    /// Half the memory, shared by the workers, at [`STEP_BYTES`] per unit per unit of width.
    #[test]
    fn the_memory_caps_the_beam_width() {
        let o = SearchOptions::default();
        assert_eq!(memory_width(1 << 30, 2, 1000, &o), (1 << 28) / (96 * 1000));
        assert_eq!(memory_width(1000, 2, 1000, &o), 1);
    }

    /// The greedy spelling fits when two units of its largest space fit, after the quick
    /// answer's share of the time when it runs behind it.
    #[test]
    fn the_greedy_spelling_fits_when_two_units_fit() {
        let o = SearchOptions::default();
        // 1e6 states: 0.5 s a unit, 1 s for two.
        assert!(greedy_fits(1_000_000, 1.01, false, &o));
        assert!(!greedy_fits(1_000_000, 0.99, false, &o));
        assert!(!greedy_fits(1_000_000, 1.5, true, &o));
        assert!(greedy_fits(1_000_000, 2.1, true, &o));
        assert!(greedy_fits(usize::MAX, f64::INFINITY, true, &o));
    }
}
