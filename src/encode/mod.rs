//! Encoders: turn a [`Plan`] (a lock per unit) into the command string of a whole game.
//!
//! Four modes: [`Mode::Plain`] spells the shortest path to each lock in plain characters;
//! [`Mode::Greedy`] and [`Mode::Dp`] spell phrases of power on the way, word by word (see
//! [`mod@unit`]); [`Mode::Chars`] spells them character by character ([`chars`]), so that every
//! occurrence counts, at up to tens of times the DP encoder's cost. Every unit ends with a lock
//! at exactly the member set the plan chose, so the board evolves as planned whatever the mode.
//! [`Encoder::spell`] takes any mode and returns the text with the mode that spelt it
//! ([`Spelling`]), so that a caller knows it as data.

pub mod automaton;
pub mod chars;
pub mod comps;
pub mod heading;
pub mod line;
pub mod phrases;
pub mod row;
pub mod unit;
pub mod walk;

pub use chars::{CharStats, CharTables};
pub use phrases::{Dropped, Phrase, PhraseTable, Word};

use crate::engine::{Command, Phrases, Problem};
use crate::plan::{Bfs, LockKey, Plan, Sim, State, Tables, UnitSpace};
use crate::work::{Cut, Op};
use comps::Comps;
use std::time::Instant;
use unit::{Job, UnitGeometry};
use walk::Spelt;

/// Value of an impossible state in the encoders' dynamic programmes: far enough below zero
/// that adding the gains of any path to it stays far below every possible value, and far
/// enough above `i32::MIN` that it never overflows.
pub const NEG: i32 = i32::MIN / 4;

/// The opening of a game kept from another: its first `units` placements, already spelt as
/// `text` (see [`crate::plan::text_of_opening`]). The default keeps nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Opening<'t> {
    pub units: usize,
    pub text: &'t str,
}

/// How to spell a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The shortest path to each lock, in plain characters.
    Plain,
    /// Per unit, words inserted greedily on the way down ([`walk::greedy`]).
    Greedy,
    /// Per unit, words chosen by a dynamic programme over row components ([`walk::dp`], or
    /// [`mod@line`] for a unit that cannot rotate), the greedy walk kept where it does better.
    Dp,
    /// The whole game character by character on the phrase automaton ([`chars`]); where it
    /// cannot finish before the deadline, [`Encoder::spell`] spells the plan with [`Mode::Dp`].
    Chars,
}

impl Mode {
    pub const ALL: [Mode; 4] = [Mode::Plain, Mode::Greedy, Mode::Dp, Mode::Chars];

    /// The mode's name in the solver's tags, which end with it.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Plain => "plain",
            Mode::Greedy => "greedy",
            Mode::Dp => "dp",
            Mode::Chars => "chars",
        }
    }

    /// The mode of a name ([`Mode::name`]).
    pub fn from_name(name: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The mode a solver's tag names: its last word that is a mode's name (a tag ends with
    /// the mode that spelt the game, and a stored game's tag may have more after it). A stored
    /// game keeps no other record of its spelling than its tag, and this is the one place it
    /// is read back.
    pub fn of_tag(tag: &str) -> Option<Mode> {
        tag.split_whitespace().rev().find_map(Mode::from_name)
    }
}

/// A plan spelt: its text and the mode that spelt it (which may differ from the mode asked
/// for: see [`Mode::Chars`]).
#[derive(Clone, Debug)]
pub struct Spelling {
    pub text: String,
    pub mode: Mode,
    /// What the character encoder did, when it was asked for.
    pub stats: CharStats,
}

/// The encoder of one problem and one phrase table.
pub struct Encoder<'a> {
    problem: &'a Problem,
    pub(crate) tables: &'a Tables,
    pub(crate) table: &'a PhraseTable,
    /// Per unit, per word.
    pub(crate) geometry: Vec<Vec<UnitGeometry>>,
    pub(crate) words: Vec<String>,
    /// Per word, the phrases it holds.
    word_phrases: Vec<Vec<usize>>,
    /// The table's phrases, in its order, for the engine's count of a kept opening.
    counted: Phrases,
}

/// Reusable buffers of the encoder.
#[derive(Debug, Default)]
struct Buffers {
    free: Vec<u64>,
    bfs: [row::RowSearch; 2],
    path: Bfs,
    comps: Comps,
    line: Vec<i32>,
}

impl<'a> Encoder<'a> {
    pub fn new(problem: &'a Problem, tables: &'a Tables, table: &'a PhraseTable) -> Encoder<'a> {
        let geometry = tables
            .spaces
            .iter()
            .map(|sp| {
                table
                    .words
                    .iter()
                    .map(|w| {
                        w.playable(sp.k).then(|| {
                            std::array::from_fn(|par| {
                                w.geometry[par]
                                    .steps
                                    .iter()
                                    .map(|&(dx, dy, r)| (dx, dy, r % sp.k))
                                    .collect()
                            })
                        })
                    })
                    .collect()
            })
            .collect();
        let words = table.words.iter().map(|w| w.text.clone()).collect();
        let word_phrases = table.word_phrases();
        let encoder = Encoder {
            problem,
            tables,
            table,
            geometry,
            words,
            word_phrases,
            counted: Phrases::new(table.phrases.iter().map(|p| p.text.clone())),
        };
        debug_assert_eq!(encoder.counted.len(), table.phrases.len());
        encoder
    }

    /// Spells `plan` with any `mode` (see [`Encoder::encode_after`] for `opening`, `deadline` and
    /// `cut`) and says which mode spelt it. [`Mode::Chars`] needs the character
    /// encoder's tables `chars`; when it cannot finish before the deadline, the plan is spelt
    /// with [`Mode::Dp`] instead (which ends early rather than not at all). The other modes
    /// ignore `chars`.
    ///
    /// # Panics
    /// With [`Mode::Chars`] and no tables.
    pub fn spell(
        &self,
        plan: &Plan,
        opening: Opening,
        mode: Mode,
        chars: Option<&CharTables>,
        deadline: Option<Instant>,
        cut: &Cut,
    ) -> Spelling {
        let mut stats = CharStats::default();
        if mode == Mode::Chars {
            let ct = chars.expect("Mode::Chars needs the character encoder's tables");
            if let Some(text) = self.encode_chars_after(ct, plan, opening, deadline, &mut stats) {
                return Spelling { text, mode, stats };
            }
        }
        let mode = if mode == Mode::Chars { Mode::Dp } else { mode };
        Spelling {
            text: self.encode_after(plan, opening, mode, deadline, cut),
            mode,
            stats,
        }
    }

    /// Spells a whole plan. Past `deadline`, it stops after the unit in hand: the string then
    /// ends early (a valid, shorter game). Plain paths spell the first unit whatever the time
    /// (one short search), so that a plan never gives an empty answer.
    pub fn encode(&self, plan: &Plan, mode: Mode, deadline: Option<Instant>) -> String {
        self.encode_after(plan, Opening::default(), mode, deadline, &Cut::NONE)
    }

    /// As [`Encoder::encode`], with two more options. The plan's first `opening.units`
    /// placements are taken as spelt by `opening.text` (the caller's promise: that text locks
    /// exactly them), so that only the rest is spelt; the phrases the opening holds count as
    /// used. And the DP encoder hands over to the greedy one (several times faster) once the work
    /// left before the task's horizon falls below what the greedy one would need for the units
    /// left ([`Cut::hands_over`], in counted work): a DP encoding that runs late then still
    /// spells a whole game instead of ending it early. [`Cut::NONE`] never hands over.
    ///
    /// The modes that spell unit by unit: [`Mode::Chars`], which spells the whole game at once
    /// and may not finish, is [`Encoder::spell`]'s or [`Encoder::encode_chars_after`]'s.
    ///
    /// # Panics
    /// With [`Mode::Chars`].
    pub fn encode_after(
        &self,
        plan: &Plan,
        opening: Opening,
        mode: Mode,
        deadline: Option<Instant>,
        cut: &Cut,
    ) -> String {
        // The buffers are sized by the board's state count; on a large board filling them anew
        // costs more than spelling a unit, so each thread keeps its own between encodings.
        thread_local! {
            static BUFFERS: std::cell::RefCell<Buffers> = std::cell::RefCell::default();
        }
        BUFFERS.with(|cell| match cell.try_borrow_mut() {
            Ok(mut b) => self.encode_with(plan, opening, mode, deadline, cut, &mut b),
            Err(_) => {
                let mut b = Buffers::default();
                self.encode_with(plan, opening, mode, deadline, cut, &mut b)
            }
        })
    }

    fn encode_with(
        &self,
        plan: &Plan,
        opening: Opening,
        mode: Mode,
        deadline: Option<Instant>,
        cut: &Cut,
        b: &mut Buffers,
    ) -> String {
        assert!(
            mode != Mode::Chars,
            "Mode::Chars spells through Encoder::spell"
        );
        let mut sim = Sim::new(self.problem);
        let mut out = String::from(opening.text);
        // The engine counts the opening's phrases, as it scores them.
        let mut used: Vec<bool> = if opening.text.is_empty() {
            vec![false; self.table.phrases.len()]
        } else {
            self.counted
                .count(opening.text)
                .iter()
                .map(|&n| n > 0)
                .collect()
        };
        let mut mode = mode;
        let units = plan.placements.len();
        for (u, pl) in plan.placements.iter().enumerate() {
            if u < opening.units {
                sim.lock(self.problem, pl.unit, pl.lock.state);
                continue;
            }
            let first_plain = u == 0 && mode == Mode::Plain;
            if crate::stop::passed(deadline) && !first_plain {
                break;
            }
            if mode == Mode::Dp && cut.hands_over(units - u) {
                mode = Mode::Greedy;
            }
            let space = &self.tables.spaces[pl.unit];
            // Plain paths search the rows from the spawn down to the lock's; the other
            // encoders count their own work as they go.
            crate::work::add(work_op(mode), 1);
            if mode == Mode::Plain {
                let rows = (pl.lock.state.y - space.spawn_state().y).max(0) as u64 + 1;
                crate::work::add(Op::PlainState, space.states_per_row() * rows);
            }
            space.free_map(&sim.board, &mut b.free);
            let job = Job {
                space,
                geometry: &self.geometry[pl.unit],
                words: &self.words,
                free: &b.free,
                target: pl.lock.key,
                start: space.spawn_state(),
            };
            let spelt = match mode {
                Mode::Plain | Mode::Chars => None,
                Mode::Greedy => {
                    b.comps.build(&job, None);
                    let order = self.greedy_order(&used);
                    walk::greedy(&job, &b.comps, &order, &mut b.bfs)
                }
                Mode::Dp => {
                    let mut bonus: Vec<i32> = self
                        .table
                        .phrases
                        .iter()
                        .zip(&used)
                        .map(|(p, &u)| if u { 0 } else { p.first_use() })
                        .collect();
                    let mut wval: Vec<i32> = self
                        .table
                        .words
                        .iter()
                        .map(|w| w.value(&self.table.phrases, &used))
                        .collect();
                    // The component values serve the DP walk of rotating units; a unit that
                    // cannot rotate has its own programme, and the greedy walk needs only
                    // which components are alive.
                    b.comps.build(&job, space.rotates().then_some(&wval[..]));
                    // The programme's value at the start, before the walk lowers any word's
                    // value: a bound on the power of any walk (see below).
                    let bound;
                    let dp = if !space.rotates() {
                        // A unit that cannot rotate has its own programme (see `line`).
                        let lw = line::LineWords::new(&job);
                        line::values(&job, &lw, &wval, &mut b.line);
                        bound = line::start_value(&job, &b.line);
                        let [bfs, _] = &mut b.bfs;
                        line::walk(
                            &job,
                            &lw,
                            &mut wval,
                            &self.word_phrases,
                            &mut bonus,
                            &b.line,
                            bfs,
                        )
                    } else {
                        bound = b.comps.value_of(space, job.start);
                        walk::dp(
                            &job,
                            &b.comps,
                            &mut wval,
                            &self.word_phrases,
                            &mut bonus,
                            &mut b.bfs,
                        )
                    };
                    // The programme's values are estimates (they ignore the positions a word
                    // leaves visited on its last row), so the greedy walk sometimes does better on
                    // a unit; both end at the same lock, so the better of the two is kept. They
                    // are also bounds: every walk's words, each at its value before the unit
                    // (a first use counted at each use), sum to no more than the start's value.
                    // So a walk that scores the bound cannot be beaten, and the greedy walk is
                    // skipped (in a profile of problem 24 it took 17 % of the run, the quick
                    // answer's greedy spelling included).
                    let value = |s: &Option<Spelt>| {
                        s.as_ref()
                            .map_or(-1, |s| s.power(self.table, &self.word_phrases, &used))
                    };
                    let dp_value = value(&dp);
                    if dp.is_some() && dp_value >= bound as i64 {
                        dp
                    } else {
                        let order = self.greedy_order(&used);
                        let greedy = walk::greedy(&job, &b.comps, &order, &mut b.bfs);
                        if value(&greedy) > dp_value {
                            greedy
                        } else {
                            dp
                        }
                    }
                }
            };
            let spelt = spelt.unwrap_or_else(|| plain_unit(&job, &mut b.path));
            for &w in &spelt.words {
                for &p in &self.word_phrases[w] {
                    used[p] = true;
                }
            }
            out.push_str(&spelt.text);
            sim.lock(self.problem, pl.unit, pl.lock.state);
        }
        out
    }

    /// Words holding a phrase not used yet first, the most valuable (the longest: see
    /// [`Phrase::first_use`]) first; then by power per descent, longer first.
    fn greedy_order(&self, used: &[bool]) -> Vec<usize> {
        let ws = &self.table.words;
        let value = |w: usize| ws[w].value(&self.table.phrases, used);
        let fresh = |w: usize| self.word_phrases[w].iter().any(|&p| !used[p]);
        let density = |w: usize| value(w) as f64 / ws[w].descents.max(1) as f64;
        let mut order: Vec<usize> = (0..ws.len()).collect();
        order.sort_by(|&a, &b| {
            fresh(b).cmp(&fresh(a)).then_with(|| {
                if fresh(a) {
                    value(b).cmp(&value(a))
                } else {
                    density(b)
                        .total_cmp(&density(a))
                        .then(ws[b].text.len().cmp(&ws[a].text.len()))
                }
            })
        });
        order
    }
}

/// The operation counted ([`crate::work`]) for each unit spelt in `mode`.
fn work_op(mode: Mode) -> Op {
    match mode {
        Mode::Plain => Op::PlainUnit,
        Mode::Greedy => Op::GreedyUnit,
        Mode::Dp | Mode::Chars => Op::DpUnit,
    }
}

/// The shortest path to the unit's lock in plain characters.
fn plain_unit(job: &Job, bfs: &mut Bfs) -> Spelt {
    Spelt {
        text: plain_text(job.space, job.free, job.start, job.target, bfs),
        words: Vec::new(),
    }
}

/// The shortest path from `start` to lock `key` on free map `free`, in plain characters, ended
/// by the first command that locks the unit there ([`Command::first_in`]): the text every
/// encoder falls back to.
pub(crate) fn plain_text(
    space: &UnitSpace,
    free: &[u64],
    start: State,
    key: LockKey,
    bfs: &mut Bfs,
) -> String {
    let (cmds, end) = space
        .path(free, start, key, bfs)
        .expect("a planned lock is reachable");
    let lock = Command::first_in(space.lock_cmds(free, end)).expect("a target state can lock");
    cmds.iter().chain([&lock]).map(|c| c.char()).collect()
}

/// The shortest path to each lock, in plain characters, each ended by a locking command.
pub fn plain(problem: &Problem, tables: &Tables, plan: &Plan) -> String {
    let table = PhraseTable::default();
    Encoder::new(problem, tables, &table).encode(plan, Mode::Plain, None)
}

/// Whether each phrase of `table` can be spelt on `problem` by a single unit: some unit reaches,
/// from its spawn on the initial board, a state from which the phrase plays through free
/// states without repeating a position. Returns, per phrase, the first such unit.
pub fn spellable(problem: &Problem, tables: &Tables, table: &PhraseTable) -> Vec<Option<usize>> {
    let encoder = Encoder::new(problem, tables, table);
    let mut scratch = crate::plan::Scratch::default();
    let mut out = vec![None; table.phrases.len()];
    for (u, space) in tables.spaces.iter().enumerate() {
        space.free_map(&problem.board, &mut scratch.free);
        if !space.reach(&scratch.free, &mut scratch.reach, &mut scratch.bufs) {
            continue;
        }
        let job = Job {
            space,
            geometry: &encoder.geometry[u],
            words: &encoder.words,
            free: &scratch.free,
            target: (u8::MAX, 0, 0),
            start: space.spawn_state(),
        };
        // The words that are single phrases come first in the table, in phrase order.
        for (p, slot) in out.iter_mut().enumerate() {
            if slot.is_some() || job.geometry[p].is_none() {
                continue;
            }
            let reachable = (0..space.states)
                .map(|i| space.state_of(i))
                .filter(|&s| space.is_free(&scratch.reach, s));
            if reachable.into_iter().any(|s| job.word_end(p, s).is_some()) {
                *slot = Some(u);
            }
        }
    }
    out
}

/// Helpers shared by the encoders' tests.
#[cfg(test)]
pub(crate) mod test_util {
    use super::{CharTables, Encoder, PhraseTable};
    use crate::engine::{Command, Decoded, Phrases, Problem};
    use crate::eval::{LockScorer, Weights};
    use crate::plan::{plan_greedy, Lock, Plan, PlanConfig, Tables, UnitSpace};
    use rand::Rng;

    /// The bundled sample problems: a small board and a wide one.
    pub const SAMPLES: [&str; 2] = [
        include_str!("../../problems/sample_hex.json"),
        include_str!("../../problems/sample_wide.json"),
    ];

    /// A problem set up for spelling with the official phrases: what the encoders' tests of
    /// whole games start from.
    pub struct Setup {
        pub problem: Problem,
        pub tables: Tables,
        pub phrases: Phrases,
        pub table: PhraseTable,
    }

    impl Setup {
        /// The problem of `json` with the official phrases.
        pub fn new(json: &str) -> Setup {
            let problem = Problem::from_json(json, std::path::Path::new("test")).unwrap();
            let tables = Tables::new(&problem);
            let phrases = Phrases::official();
            let table = PhraseTable::new(&phrases);
            Setup {
                problem,
                tables,
                phrases,
                table,
            }
        }

        pub fn encoder(&self) -> Encoder<'_> {
            Encoder::new(&self.problem, &self.tables, &self.table)
        }

        pub fn char_tables(&self) -> CharTables {
            CharTables::new(&self.table, &self.tables.spaces, self.problem.width)
        }

        /// The greedy planner's plan of the whole game of `seed`, with the `balanced` weights.
        pub fn greedy_plan(&self, seed: u32) -> Plan {
            let weights = Weights::system("balanced").unwrap();
            let mut scorer = LockScorer::new(&self.tables, &weights, 1);
            let cfg = PlanConfig::whole_game();
            plan_greedy(&self.problem, &self.tables, seed, &cfg, &mut scorer)
        }
    }

    /// The cells a unit locked at `lock` covers, sorted: the member set the references lock at.
    pub fn target_of(sp: &UnitSpace, lock: &Lock) -> Vec<(i64, i64)> {
        let mut target: Vec<(i64, i64)> = sp
            .cells(lock.state)
            .iter()
            .map(|&(dx, dy)| (lock.state.x + dx, lock.state.y + dy))
            .collect();
        target.sort();
        target
    }

    /// Random short phrases (1 to 3, of 2 to 4 characters) over `alphabet`, each with a descent
    /// (the encoders leave the others out), followed by each of `extras` with its probability.
    pub fn random_phrases(
        rng: &mut impl Rng,
        alphabet: &str,
        extras: &[(&str, f64)],
    ) -> Vec<String> {
        let alphabet: Vec<char> = alphabet.chars().collect();
        let descent =
            |c: char| matches!(Command::decode(c), Decoded::Command(cmd) if cmd.is_descent());
        let mut v: Vec<String> = (0..rng.gen_range(1..=3))
            .map(|_| loop {
                let p: String = (0..rng.gen_range(2..=4))
                    .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
                    .collect();
                if p.chars().any(descent) {
                    break p;
                }
            })
            .collect();
        for &(extra, p) in extras {
            if rng.gen_bool(p) {
                v.push(extra.into());
            }
        }
        v
    }
}

#[cfg(test)]
mod mode_tests {
    use super::*;
    use std::time::Duration;

    /// A mode's name reads back as the mode, from a tag too.
    #[test]
    fn a_mode_is_named_and_read_back_from_its_tag() {
        for m in Mode::ALL {
            assert_eq!(Mode::from_name(m.name()), Some(m));
            let tag = format!("hextris balanced#3 w16 from 12 {}", m.name());
            assert_eq!(Mode::of_tag(&tag), Some(m));
            assert_eq!(Mode::of_tag(&format!("{tag} (stored)")), Some(m));
        }
        assert_eq!(Mode::from_name("dpx"), None);
        assert_eq!(Mode::of_tag("hextris low#0 w1 (stored)"), None);
        assert_eq!(Mode::of_tag(""), None);
    }

    /// A DP spelling hands over to the greedy encoder by the task's counted work: with no work
    /// left before its horizon it spells greedily from the first unit; with plenty, it spells
    /// as without a cut.
    #[test]
    fn a_dp_spelling_hands_over_by_counted_work() {
        let setup = test_util::Setup::new(include_str!("../../problems/sample_hex.json"));
        let encoder = setup.encoder();
        let plan = setup.greedy_plan(setup.problem.seeds[0]);
        let open = Opening::default();
        let late = Cut::starting_now(0.0, 0.0, 1e-6);
        let greedy = encoder.encode(&plan, Mode::Greedy, None);
        let dp = encoder.encode(&plan, Mode::Dp, None);
        assert_ne!(greedy, dp, "the test needs a plan the two spell apart");
        assert_eq!(
            encoder.encode_after(&plan, open, Mode::Dp, None, &late),
            greedy
        );
        let early = Cut::starting_now(1e9, 0.0, 1e-6);
        assert_eq!(
            encoder.encode_after(&plan, open, Mode::Dp, None, &early),
            dp
        );
    }

    /// `spell` with [`Mode::Chars`] gives the character encoder's text and says so; past its
    /// deadline it gives the DP encoder's (ended early) and says that; the other modes give
    /// `encode_after`'s text under their own name.
    #[test]
    fn spell_returns_the_text_with_the_mode_that_spelt_it() {
        let setup = test_util::Setup::new(include_str!("../../problems/sample_hex.json"));
        let (encoder, ct) = (setup.encoder(), setup.char_tables());
        let plan = setup.greedy_plan(setup.problem.seeds[0]);
        let open = Opening::default();
        let chars = encoder.spell(&plan, open, Mode::Chars, Some(&ct), None, &Cut::NONE);
        let by_chars = encoder.encode_chars(&ct, &plan, None, &mut CharStats::default());
        assert_eq!((chars.mode, Some(chars.text)), (Mode::Chars, by_chars));
        let past = Some(Instant::now() - Duration::from_secs(1));
        let late = encoder.spell(&plan, open, Mode::Chars, Some(&ct), past, &Cut::NONE);
        assert_eq!(late.mode, Mode::Dp);
        assert_eq!(late.text, encoder.encode(&plan, Mode::Dp, past));
        for m in [Mode::Plain, Mode::Greedy, Mode::Dp] {
            let s = encoder.spell(&plan, open, m, None, None, &Cut::NONE);
            assert_eq!((s.mode, s.text), (m, encoder.encode(&plan, m, None)));
        }
    }
}
