//! Deterministic work counts: what the planner and the encoders did, counted in their inner
//! loops, so that the solver's choices can follow the cost of its actions without reading a
//! clock.
//!
//! A clock's readings differ from run to run, and a choice made on them (how many plans an
//! attempt makes, whether a polish goes first, which seed runs next) sends two runs of the same
//! problem down different paths. Counting work instead makes the sequence of actions a function
//! of the inputs alone: a run of T seconds does first what a run of T/2 does.
//!
//! Each kind of operation ([`Op`]) is counted apart; [`WEIGHTS`] turns the counts into *work
//! seconds*, about seconds of this project's 2-core machine (fitted by `hextris bench
//! --calibrate`, which prints the table). How many real seconds a work second takes on the
//! machine at hand is learnt by the solver, and used only to tell what fits before a deadline.
//!
//! The counts are per thread: a task runs on one thread, and [`measure`] reads what it added.

use std::cell::RefCell;
use std::time::Instant;

/// The operations counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// A move generation, whatever its size.
    Gen,
    /// A word of a unit's bit rows, cleared or copied by a move generation or by the reach of a
    /// probe unit of the stack evaluation.
    GenWord,
    /// A state of a row below the stack's top, worked out by a move generation.
    GenRow,
    /// A lock found by a move generation.
    GenLock,
    /// A lock scored by the heuristic.
    Feature,
    /// A word of the board copied, locked and hashed for a partial game a beam keeps.
    ChildWord,
    /// A state of the space of a unit that cannot rotate, valued by words for the planner.
    ValuerWords,
    /// A cell of the character-level valuer's programme (a free state of a row it works out,
    /// times the automaton's nodes; and a lock's share of them).
    ValuerChars,
    /// A state of a row below the stack's top, worked out by the reach of a probe unit of the
    /// stack evaluation ([`crate::eval::stack`]): a move generation's flood without its locks.
    ProbeRow,
    /// A cell of a unit times a word of its bit row, for a row below the stack's top, in the
    /// map of where the unit fits (`UnitSpace::free_map`, for a move generation or a probe): a
    /// unit of many cells costs that many times more per row than its states say.
    MapCell,
    /// A word of a board row flooded again by the stack evaluation for a lock it scores (the
    /// cells the lock seals off: `StackMap::lock`).
    StackWord,
    /// A unit spelt with plain paths: per unit, and per state of its rows from the spawn to the
    /// lock.
    PlainUnit,
    PlainState,
    /// A game spelt by the greedy or the DP encoder, whatever its length: the buffers, the
    /// phrases' bookkeeping and the result set up for it (a tiny problem's many games are
    /// mostly this).
    SpellCall,
    /// A unit spelt by the greedy encoder, or by the DP encoder.
    GreedyUnit,
    DpUnit,
    /// A component of a row found by the encoders (its states flooded), valued by the DP
    /// encoder's programme or, bare, only found alive (the greedy encoder; the DP encoder of a
    /// unit that cannot rotate).
    EncComp,
    EncCompBare,
    /// A word's links from one row's components to another's, for the DP encoder's values.
    EncLink,
    /// A word tried at a state by a walk.
    EncStep,
    /// A word of a row's bit mask, for a test that a walk can still leave a row.
    EncEscape,
    /// A state of a row, times the words, valued by the line programme of a unit that cannot
    /// rotate.
    LineState,
    /// A game spelt by the character encoder, whatever its length: its automata and tables
    /// set up for it.
    CharsCall,
    /// A unit spelt by the character encoder, and a cell of its programme (a state of a
    /// unit's region, times the contexts, times the automaton's nodes).
    CharsUnit,
    CharsCell,
    /// A node a character encoder's walk expands (its search for a path at the programme's
    /// bound): a unit whose bound is loose takes many, and a tiny problem's spellings are
    /// mostly these.
    CharsNode,
    /// A character of a text scored by the engine, or replayed to find the text of a kept
    /// opening (a re-plan of a long game's tail replays all the units before it).
    EvalChar,
}

/// How many kinds of operation are counted.
pub const OPS: usize = 27;

/// The stages of the solver whose operations are counted: each operation belongs to one, and
/// `hextris bench --calibrate` fits each stage's weights on its own timings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The planner: move generation, the heuristic, the beam, the phrase valuers.
    Plan,
    /// Plain paths.
    Plain,
    /// The greedy and the DP encoders, which share their operations.
    Spell,
    /// The character encoder.
    Chars,
    /// The engine's scoring of a text.
    Evaluate,
}

/// Every operation with the stage that counts it, in the order of [`WEIGHTS`] (an operation's
/// index is its place here).
pub const TABLE: [(Op, Stage); OPS] = [
    (Op::Gen, Stage::Plan),
    (Op::GenWord, Stage::Plan),
    (Op::GenRow, Stage::Plan),
    (Op::GenLock, Stage::Plan),
    (Op::Feature, Stage::Plan),
    (Op::ChildWord, Stage::Plan),
    (Op::ValuerWords, Stage::Plan),
    (Op::ValuerChars, Stage::Plan),
    (Op::ProbeRow, Stage::Plan),
    (Op::MapCell, Stage::Plan),
    (Op::StackWord, Stage::Plan),
    (Op::PlainUnit, Stage::Plain),
    (Op::PlainState, Stage::Plain),
    (Op::SpellCall, Stage::Spell),
    (Op::GreedyUnit, Stage::Spell),
    (Op::DpUnit, Stage::Spell),
    (Op::EncComp, Stage::Spell),
    (Op::EncCompBare, Stage::Spell),
    (Op::EncLink, Stage::Spell),
    (Op::EncStep, Stage::Spell),
    (Op::EncEscape, Stage::Spell),
    (Op::LineState, Stage::Spell),
    (Op::CharsCall, Stage::Chars),
    (Op::CharsUnit, Stage::Chars),
    (Op::CharsCell, Stage::Chars),
    (Op::CharsNode, Stage::Chars),
    (Op::EvalChar, Stage::Evaluate),
];

/// Every operation, in the order of [`WEIGHTS`].
pub const ALL: [Op; OPS] = {
    let mut all = [Op::Gen; OPS];
    let mut i = 0;
    while i < OPS {
        all[i] = TABLE[i].0;
        i += 1;
    }
    all
};

impl Op {
    /// The stage that counts this operation.
    pub fn stage(self) -> Stage {
        TABLE[self as usize].1
    }
}

/// The operations of `stage`, in the order of [`WEIGHTS`].
pub fn ops_of(stage: Stage) -> Vec<Op> {
    TABLE
        .iter()
        .filter(|(_, s)| *s == stage)
        .map(|&(op, _)| op)
        .collect()
}

/// Nanoseconds per operation on this project's machine, as `hextris bench DIR --calibrate`
/// fitted them all at once (fifth session) on the 25 official problems with 18 random ones: 8
/// of the default families, 6 survival problems and 4 tiny ones (docs/tuning.md gives the
/// command and the fits' errors). With them `hextris bench -t 1 --virtual` takes 1.08 real
/// seconds of one core per counted work second on the official problems (0.81 to 1.32 on each)
/// and 1.00 on random problems no fit saw. The encoders' stages were fitted again in the
/// sixth session with a game's fixed cost counted ([`Op::SpellCall`], [`Op::CharsCall`]), on
/// that set with 6 long sources and 8 more tiny problems: the tiny set then takes 1.27 (1.43),
/// the official problems 1.10. Since the seventh session a task's engine check and its
/// opening's replay are counted too: long sources on small boards 1.27 -> 1.04.
/// A weight of 0 is an operation whose cost the others' counts already carry (the fit found no
/// share of its own for it).
///
/// [`Op::ValuerChars`] alone was fitted again in the forty-fifth session (`hextris bench
/// ../shared/icfp2015/problems --calibrate`: 1.2 ns, against 3.9): the character-level valuer
/// was made several times faster since the fifth session while counting the same cells, so
/// the work clock priced the beams that use it (problems 1 and 14 most) at three to four times
/// their time against the rest, and the policy spent too little on them. The other weights
/// stay: the policy's rules were measured with them.
pub const WEIGHTS: [f64; OPS] = [
    0e+00,   // Gen
    7.3e+01, // GenWord
    0e+00,   // GenRow
    0e+00,   // GenLock
    7.4e+01, // Feature
    0e+00,   // ChildWord
    1.5e+02, // ValuerWords
    1.2e+00, // ValuerChars
    0e+00,   // ProbeRow
    2.9e+00, // MapCell
    1.6e+01, // StackWord
    7.6e+02, // PlainUnit
    3.4e+00, // PlainState
    4.6e+03, // SpellCall
    2.9e+03, // GreedyUnit
    0e+00,   // DpUnit
    0e+00,   // EncComp
    5.2e+01, // EncCompBare
    3.5e+02, // EncLink
    1.6e+01, // EncStep
    3.6e+02, // EncEscape
    1.3e+01, // LineState
    8.7e+04, // CharsCall
    1.0e+04, // CharsUnit
    8.7e+00, // CharsCell
    1.8e+02, // CharsNode
    3.6e+01, // EvalChar
];

/// Counts of every operation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counts(pub [u64; OPS]);

impl Counts {
    /// The counts in work seconds, by [`WEIGHTS`].
    pub fn seconds(&self) -> f64 {
        self.0
            .iter()
            .zip(WEIGHTS)
            .map(|(&n, w)| n as f64 * w)
            .sum::<f64>()
            * 1e-9
    }

    /// The work seconds of operation `op` alone.
    pub fn seconds_of(&self, op: Op) -> f64 {
        self.0[op as usize] as f64 * WEIGHTS[op as usize] * 1e-9
    }

    fn minus(&self, before: &Counts) -> Counts {
        Counts(std::array::from_fn(|i| self.0[i].wrapping_sub(before.0[i])))
    }
}

thread_local! {
    static COUNTS: RefCell<Counts> = RefCell::default();
}

/// Adds `n` operations `op` to this thread's counts.
#[inline]
pub fn add(op: Op, n: u64) {
    COUNTS.with(|c| {
        let mut c = c.borrow_mut();
        c.0[op as usize] = c.0[op as usize].wrapping_add(n);
    });
}

/// This thread's counts so far.
pub fn counts() -> Counts {
    COUNTS.with(|c| *c.borrow())
}

/// Runs `f` and returns its result with the operations it counted on this thread.
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, Counts) {
    let before = counts();
    let out = f();
    (out, counts().minus(&before))
}

/// How a task's work is cut short so that it ends by its horizon (the round's
/// [`crate::solve::policy::Round::horizon`]), in counted work, not seconds: one value that
/// travels from the round to the planner and the encoders. The executor turns the seconds left
/// before the horizon into work at the host's speed (`crate::solve::budget::cut`), once, when
/// the task starts; from then on the task reads only its own counts, so where a beam narrows
/// and a DP spelling hands over is a function of the inputs and that allowance alone: on the
/// virtual clock a longer run's task before a checkpoint is cut exactly where the shorter
/// run's is.
#[derive(Clone, Copy, Debug)]
pub struct Cut {
    /// This thread's counts when the task started: the task's work is counted from them.
    start: Counts,
    /// The work seconds the task may do before its horizon.
    pub allowance: f64,
    /// The planner stops (its plan ends early, still valid) once the task has done this much
    /// work: the quick answer plans within a share of its allowance. Infinite otherwise.
    pub plan_stop: f64,
    /// A beam narrows to its best partial game, to finish greedily and be spelt, once the work
    /// left falls below this many work seconds.
    pub narrow_lead: f64,
    /// The greedy encoder's work seconds per unit: a DP spelling hands over to it once the
    /// work left falls below what it needs for the units left (with a margin). 0 never hands
    /// over.
    pub greedy_unit: f64,
}

/// How many times the greedy encoder's work for the units left a DP spelling keeps in hand
/// before it hands over to it. Not a knob: a safety margin on a measured rate, as the
/// calibration's weights are (a late hand-over only costs the few units spelt greedily).
const HANDOVER_MARGIN: f64 = 2.0;

impl Cut {
    /// No cut: a task without a horizon (a run by attempts, or a test).
    pub const NONE: Cut = Cut {
        start: Counts([0; OPS]),
        allowance: f64::INFINITY,
        plan_stop: f64::INFINITY,
        narrow_lead: 0.0,
        greedy_unit: 0.0,
    };

    /// A cut of a task starting now on this thread, which may do `allowance` work seconds.
    pub fn starting_now(allowance: f64, narrow_lead: f64, greedy_unit: f64) -> Cut {
        Cut {
            start: counts(),
            allowance,
            plan_stop: f64::INFINITY,
            narrow_lead,
            greedy_unit,
        }
    }

    /// The work seconds the task has done so far (on this thread, where it runs).
    pub fn spent(&self) -> f64 {
        if self.allowance.is_infinite() {
            return 0.0;
        }
        counts().minus(&self.start).seconds()
    }

    /// The work seconds left before the horizon.
    pub fn left(&self) -> f64 {
        self.allowance - self.spent()
    }

    /// Whether the planner stops here (see [`Cut::plan_stop`]).
    pub fn plan_stopped(&self) -> bool {
        self.plan_stop.is_finite() && self.spent() >= self.plan_stop
    }

    /// Whether a beam narrows here (see [`Cut::narrow_lead`]).
    pub fn narrows(&self) -> bool {
        self.allowance.is_finite() && self.left() < self.narrow_lead
    }

    /// Whether a DP spelling with `units_left` units still to spell hands over to the greedy
    /// encoder here (see [`Cut::greedy_unit`]).
    pub fn hands_over(&self, units_left: usize) -> bool {
        self.greedy_unit > 0.0
            && self.allowance.is_finite()
            && self.left() < units_left as f64 * self.greedy_unit * HANDOVER_MARGIN
    }
}

impl Default for Cut {
    fn default() -> Cut {
        Cut::NONE
    }
}

/// A task's one time limit, the only time value the planner and the encoders receive: the
/// counted work it may spend ([`Cut`]) and, on a real clock, the moment it must stop by (its
/// round's horizon, built by `crate::solve::budget`). A search stops on it through one check,
/// [`Limit::stopped`], which a stop request (Ctrl-C, SIGTERM) also trips; it decides where to
/// narrow or hand over by the counted work alone, so that those choices do not depend on the
/// clock's readings.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limit {
    /// The counted work the task may spend, and where it narrows and hands over.
    pub cut: Cut,
    /// The moment the task must stop by; `None` without one (a run by attempts, a virtual
    /// clock, a test).
    until: Option<Instant>,
}

impl Limit {
    /// No limit: neither counted work nor a moment (a run by attempts, or a test). A stop
    /// request still stops the task.
    pub const NONE: Limit = Limit {
        cut: Cut::NONE,
        until: None,
    };

    /// A limit of counted work `cut` and, if given, the moment `until`.
    pub fn new(cut: Cut, until: Option<Instant>) -> Limit {
        Limit { cut, until }
    }

    /// A limit of a moment alone (no counted work).
    pub fn until(until: Option<Instant>) -> Limit {
        Limit::new(Cut::NONE, until)
    }

    /// Whether the task must stop now: its moment has passed, or a stop is requested.
    pub fn stopped(&self) -> bool {
        crate::stop::passed(self.until)
    }

    /// Whether the planner stops here: [`Limit::stopped`], or its share of the counted work is
    /// spent ([`Cut::plan_stopped`]).
    pub fn plan_stopped(&self) -> bool {
        self.stopped() || self.cut.plan_stopped()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cut counts the task's work from its start: it narrows and hands over once the work
    /// left falls below its leads, and stops the planner at its share; without a horizon it
    /// never does.
    #[test]
    fn a_cut_follows_the_work_counted_since_its_start() {
        add(Op::Feature, 1_000_000_000); // earlier work on this thread does not count
        let per = WEIGHTS[Op::Feature as usize] * 1e-9;
        let mut c = Cut::starting_now(100.0 * per, 30.0 * per, per);
        c.plan_stop = 50.0 * per;
        assert!(c.spent().abs() < 1e-12);
        assert!(!c.narrows() && !c.plan_stopped() && !c.hands_over(40));
        assert!(
            c.hands_over(60),
            "60 units at twice a unit's work exceed the 100 left"
        );
        add(Op::Feature, 60);
        assert!((c.left() - 40.0 * per).abs() < 1e-9);
        // 21 units at twice a unit's work exceed the 40 left, 19 do not (20 would be a tie, which
        // the rounding of the weight decides).
        assert!(!c.narrows() && c.plan_stopped() && c.hands_over(21) && !c.hands_over(19));
        add(Op::Feature, 20);
        assert!(c.narrows());
        let none = Cut::NONE;
        assert!(!none.narrows() && !none.plan_stopped() && !none.hands_over(1_000_000));
    }

    #[test]
    fn measure_counts_only_what_its_closure_adds() {
        add(Op::Gen, 5);
        let ((), inner) = measure(|| {
            add(Op::Gen, 3);
            add(Op::Feature, 4);
        });
        assert_eq!(inner.0[Op::Gen as usize], 3);
        assert_eq!(inner.0[Op::Feature as usize], 4);
        let seconds =
            (3.0 * WEIGHTS[Op::Gen as usize] + 4.0 * WEIGHTS[Op::Feature as usize]) * 1e-9;
        assert!((inner.seconds() - seconds).abs() < 1e-15);
        let (_, nested) = measure(|| measure(|| add(Op::GenLock, 2)).1);
        assert_eq!(nested.0[Op::GenLock as usize], 2);
    }

    #[test]
    fn the_table_lists_every_operation_in_order() {
        for (i, op) in ALL.iter().enumerate() {
            assert_eq!(*op as usize, i);
            assert_eq!(TABLE[i].0, *op);
        }
    }

    /// The stages cut the table into runs, in the solver's order, each beginning where its first
    /// operation stands.
    #[test]
    fn each_stage_holds_a_run_of_the_table() {
        let stages = [
            Stage::Plan,
            Stage::Plain,
            Stage::Spell,
            Stage::Chars,
            Stage::Evaluate,
        ];
        let joined: Vec<Op> = stages.iter().flat_map(|&s| ops_of(s)).collect();
        assert_eq!(joined, ALL.to_vec());
        let firsts: Vec<Op> = stages.iter().map(|&s| ops_of(s)[0]).collect();
        assert_eq!(
            firsts,
            [
                Op::Gen,
                Op::PlainUnit,
                Op::SpellCall,
                Op::CharsCall,
                Op::EvalChar
            ]
        );
        assert_eq!(Op::EncLink.stage(), Stage::Spell);
    }
}
