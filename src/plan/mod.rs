//! The placement planner: for each unit of the source, every lock it can reach, valued by an
//! [`Evaluator`] (the heuristic and its kin, in `crate::eval`), and the best ones kept. The
//! result is a [`Plan`]: the sequence of locks, which an encoder turns into commands.
//!
//! The planner simulates the game with the engine's own pieces ([`Board::place`],
//! [`lock_unit`], [`crate::engine::Source`]); it never re-implements a rule.

pub mod beam;
pub mod bits;
pub mod eval;
pub mod every;
pub mod outline;
pub mod path;
pub mod rowmask;
pub mod scratch;
pub mod space;
pub mod stackmap;

pub use beam::{plan_beam, BeamShape};
pub use eval::{Candidates, Evaluator, Scored, StateMemo};
pub use outline::Outline;
pub use rowmask::RowMask;
pub use scratch::{Bfs, KeySet};
pub use space::{Lock, LockKey, ReachBufs, State, UnitSpace};
pub use stackmap::StackMap;

use crate::engine::{lock_unit, Board, Command, Decoded, Game, Outcome, Piece, Problem};
use crate::work::Op;

/// The precomputed move-generation tables of every unit of a problem.
#[derive(Clone, Debug)]
pub struct Tables {
    pub spaces: Vec<UnitSpace>,
    /// The spawn footprints and danger band of the stack evaluation (which reads them in
    /// `crate::eval::stack`): built here because they depend only on the problem.
    pub stack: StackMap,
}

impl Tables {
    pub fn new(problem: &Problem) -> Tables {
        let spaces: Vec<UnitSpace> = problem
            .units
            .iter()
            .map(|u| UnitSpace::new(u, problem.width, problem.height))
            .collect();
        let stack = StackMap::new(&problem.units, &spaces, problem.width, problem.height);
        Tables { spaces, stack }
    }
}

/// Reusable buffers for move generation.
#[derive(Debug, Default)]
pub struct Scratch {
    pub free: Vec<u64>,
    pub reach: Vec<u64>,
    pub bufs: ReachBufs,
    pub locks: Vec<Lock>,
    pub bfs: Bfs,
    pub seen: KeySet,
}

/// A simulated game as the planner sees it: the board and what scoring needs.
#[derive(Clone, Debug)]
pub struct Sim {
    pub board: Board,
    pub ls_old: usize,
    pub move_score: u64,
}

impl Sim {
    pub fn new(problem: &Problem) -> Sim {
        Sim {
            board: problem.board.clone(),
            ls_old: 0,
            move_score: 0,
        }
    }

    /// Locks unit `space`/`problem.units[unit]` at `s`: fills its cells, clears lines, scores.
    pub fn lock(&mut self, problem: &Problem, unit: usize, s: State) -> usize {
        let pivot = crate::engine::Cell::new(s.x, s.y);
        let (lines, points) = lock_unit(
            &mut self.board,
            &problem.units[unit],
            s.o,
            pivot,
            self.ls_old,
        );
        self.move_score += points;
        self.ls_old = lines;
        lines
    }
}

/// One placement of a plan: which unit, and the lock chosen for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub unit: usize,
    pub lock: Lock,
}

impl Placement {
    /// The rows the unit falls from its spawn to its lock (0 when it locks at its spawn row or
    /// above): the descents of its way down.
    pub fn descent(&self, tables: &Tables) -> u64 {
        let spawn = tables.spaces[self.unit].spawn_state();
        (self.lock.state.y - spawn.y).max(0) as u64
    }
}

/// A whole game's placements; the game ends after the last one (source empty or the next spawn
/// blocked).
#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub placements: Vec<Placement>,
    pub move_score: u64,
    /// The planner ran out of time before the game ended.
    pub truncated: bool,
}

impl Plan {
    /// The rows its units fall, summed: from each unit's spawn to its lock. Only the SW and SE
    /// commands change a unit's row, each by one, so every path to these locks makes this many
    /// descents whatever the encoder spells (give or take a row where a symmetric unit holds
    /// the same cells with its pivot elsewhere). Phrases are spelt mostly on the way down, so on
    /// most boards the power a game earns grows in proportion to it.
    pub fn descents(&self, tables: &Tables) -> u64 {
        self.placements.iter().map(|p| p.descent(tables)).sum()
    }
}

/// Replays a solution text on `seed` and calls `on_lock` at each lock with the byte offset just
/// past the locking command and the piece as it was before it; `on_lock` returns false to stop
/// there. `None` when the text errs (or goes on after the game ended) before that.
fn replay_locks(
    problem: &Problem,
    seed: u32,
    text: &str,
    mut on_lock: impl FnMut(usize, Piece) -> bool,
) -> Option<()> {
    let mut game = Game::new(problem, seed);
    for (at, ch) in text.char_indices() {
        let cmd = match Command::decode(ch) {
            Decoded::Command(c) => c,
            Decoded::Ignored => continue,
            Decoded::Invalid => return None,
        };
        let piece = game.piece()?;
        if let Outcome::Locked { .. } = game.step(cmd).ok()? {
            if !on_lock(at + ch.len_utf8(), piece) {
                break;
            }
        }
    }
    Some(())
}

/// The part of a solution text that plays its first `units` units on `seed`: up to and including
/// the command that locks the last of them (empty for 0). `None` when the text errs first or
/// locks fewer units. An improvement of a game that keeps its opening keeps this text for it.
pub fn text_of_opening<'t>(
    problem: &Problem,
    seed: u32,
    text: &'t str,
    units: usize,
) -> Option<&'t str> {
    if units == 0 {
        return Some("");
    }
    let (mut locked, mut end) = (0, None);
    replay_locks(problem, seed, text, |at, _| {
        locked += 1;
        if locked == units {
            end = Some(at);
        }
        locked < units
    })?;
    end.map(|e| &text[..e])
}

/// The plan a solution text plays on `seed`: each unit's lock, in order, as the engine replays
/// it (so a stored game can be spelt again or improved). `None` when the text errs.
pub fn plan_of_text(problem: &Problem, tables: &Tables, seed: u32, text: &str) -> Option<Plan> {
    let mut sim = Sim::new(problem);
    let mut free = Vec::new();
    let mut placements = Vec::new();
    replay_locks(problem, seed, text, |_, piece| {
        let sp = &tables.spaces[piece.unit];
        let state = State {
            x: piece.pivot.x,
            y: piece.pivot.y,
            o: problem.units[piece.unit].canon(piece.orient),
        };
        sp.free_map(&sim.board, &mut free);
        let lock = Lock {
            state,
            cmds: sp.lock_cmds(&free, state),
            key: sp.key(state),
        };
        sim.lock(problem, piece.unit, state);
        placements.push(Placement {
            unit: piece.unit,
            lock,
        });
        true
    })?;
    Some(Plan {
        placements,
        move_score: sim.move_score,
        truncated: false,
    })
}

/// Options of the greedy planner.
#[derive(Clone, Debug)]
pub struct PlanConfig {
    /// The task's limit: planning stops (the plan ends early, still valid) once it is
    /// [`Limit::stopped`](crate::work::Limit::stopped) or the quick answer's share of its work is
    /// spent; a beam narrows to its best partial game and finishes it greedily once the work
    /// left before its horizon falls below its cut's lead, so that a wide search still ends
    /// with a whole game when time runs short. [`crate::work::Limit::NONE`]: never.
    pub limit: crate::work::Limit,
    /// Placements the game starts with (the first units of the source, as given): the search
    /// plans the rest. Empty for a whole game.
    pub prefix: Vec<Placement>,
    /// The evaluator's carry after the prefix (see [`Evaluator`]); 0 without one.
    pub carry: u32,
    /// Where every partial game of a beam dies at once, it goes back and searches the units
    /// before again (see [`beam`]) while the partial games it expands in all (a unit's width
    /// summed over its units, rewound stretches included) stay within this budget; 0 never.
    pub revive_budget: usize,
    /// Where above 0, a beam that revives narrows to this width from its first death on: its
    /// rewound stretches start from it, and the rest of its game keeps it (a narrow beam buys
    /// more units with the same work). 0: a beam revives at its own width.
    pub revive_narrow: usize,
}

/// A [`PlanConfig::revive_budget`] without a bound of its own: the beam revives for as long as
/// its task's cut allows (a revive tail's games and a dying seed's last round, in the solver),
/// its tries at one unit not counted.
pub const REVIVE_TO_HORIZON: usize = usize::MAX;

impl PlanConfig {
    /// Options for a whole game without a clock and without revivals (a plain beam, as the
    /// stages and the tuner measure).
    pub fn whole_game() -> PlanConfig {
        PlanConfig {
            limit: crate::work::Limit::NONE,
            prefix: Vec::new(),
            carry: 0,
            revive_budget: 0,
            revive_narrow: 0,
        }
    }
}

/// A game's value as the search ranks games before they are spelt: its move score, and its
/// descents at `rate` points each (the power a descent is expected to carry once spelt). The one
/// formula for the enumeration ([`every`]) and the solver's predictions.
pub fn game_value(move_score: u64, descents: u64, rate: f64) -> f64 {
    move_score as f64 + rate * descents as f64
}

/// Lists the supported locks (see [`UnitSpace::locks`]) of the unit `unit` on `board` into
/// `scratch.locks`; false when the unit cannot spawn.
pub fn gen_locks(tables: &Tables, unit: usize, board: &Board, scratch: &mut Scratch) -> bool {
    let space = &tables.spaces[unit];
    // The three passes copy the rows above the stack and work out the rows below its top (see
    // [`crate::work`]).
    crate::work::add(Op::Gen, 1);
    crate::work::add(Op::GenWord, space.row_words as u64);
    let top = stack_top(board);
    let below = (board.height() - top) as u64;
    crate::work::add(Op::GenRow, space.states_per_row() * below);
    crate::work::add(Op::MapCell, space.map_cells_per_row() * below);
    space.free_map_under(board, top as i64, &mut scratch.free);
    // The reach and the locks both take the rows above the stack from the empty board's: where
    // those rows end is found once, from the stack's top.
    let clear = space.clear_until_under(&scratch.free, top as i64);
    if !space.reach_with_clear(&scratch.free, clear, &mut scratch.reach, &mut scratch.bufs) {
        scratch.locks.clear();
        return false;
    }
    space.locks_with_clear(
        &scratch.free,
        &scratch.reach,
        clear,
        true,
        &mut scratch.locks,
        &mut scratch.seen,
    );
    crate::work::add(Op::GenLock, scratch.locks.len() as u64);
    true
}

/// The first row of `board` with a filled cell (its height when there is none): the rows above
/// are an empty board's, which move generation copies rather than works out.
pub fn stack_top(board: &Board) -> usize {
    (0..board.height())
        .find(|&y| board.row_count(y) > 0)
        .unwrap_or(board.height())
}

/// Plays a whole game greedily: each unit goes to the lock `eval` values best.
pub fn plan_greedy<E: Evaluator + ?Sized>(
    problem: &Problem,
    tables: &Tables,
    seed: u32,
    cfg: &PlanConfig,
    eval: &mut E,
) -> Plan {
    plan_beam(problem, tables, seed, cfg, BeamShape::GREEDY, eval)
}
