//! Playing one game: spawning, commands, locking, line clears, move score, and the ends of a
//! game, exactly as the organisers' evaluator plays them (RULES.md sections 4 and 6 to 10).
//!
//! The pieces here are the only place the rules live: [`Piece::moved`] is the geometry of a
//! command, [`lock_unit`] a lock and its move score, and [`Game`] the state machine that ties
//! them to a board and a source. Searches reuse these functions instead of re-deriving the rules.
//!
//! Invariants of a [`Game`] while a unit is in play: the unit's position is valid on the board,
//! and `visited` holds the positions it has held since its last descent (all on its current
//! row), as (pivot column, canonical orientation) pairs. A descent can never repeat a position
//! because no command raises the pivot, so the list restarts there, as in the evaluator.

use super::board::Board;
use super::command::Command;
use super::hex::{offset_step, Cell};
use super::problem::Problem;
use super::source::Source;
use super::unit::Unit;

/// A unit in play: which unit, where its pivot is, how it is turned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub unit: usize,
    pub pivot: Cell,
    pub orient: u8,
}

impl Piece {
    /// The unit at its spawn position.
    pub fn spawn(unit_index: usize, unit: &Unit) -> Piece {
        Piece {
            unit: unit_index,
            pivot: unit.spawn(),
            orient: 0,
        }
    }

    /// Where a command would take the piece, whether or not that position is valid.
    pub fn moved(self, cmd: Command) -> Piece {
        let mut p = self;
        match cmd {
            Command::CW => p.orient = (p.orient + 1) % 6,
            Command::CCW => p.orient = (p.orient + 5) % 6,
            _ => {
                let dir = cmd.dir().expect("a command that is not a rotation moves");
                let (x, y) = offset_step(p.pivot.x, p.pivot.y, dir);
                p.pivot = Cell::new(x, y);
            }
        }
        p
    }

    /// The piece's position for the no-repeat rule, given its row: pivot column and canonical
    /// orientation (same member set and pivot means same position).
    pub fn key(self, unit: &Unit) -> (i64, u8) {
        (self.pivot.x, unit.canon(self.orient))
    }
}

/// Locks `unit` at `pivot` in orientation `orient` on `board`: fills its cells, clears the full
/// rows, and returns the lines cleared and the move points, given the lines of the previous
/// lock. The one place a lock happens, for the game and for the planner's simulations.
pub fn lock_unit(
    board: &mut Board,
    unit: &Unit,
    orient: u8,
    pivot: Cell,
    ls_old: usize,
) -> (usize, u64) {
    board.place(unit.shape(orient, pivot.y), pivot);
    let lines = board.clear_full_rows();
    (lines, lock_points(unit.size(), lines, ls_old))
}

/// Move score of one lock (RULES.md section 10): `size + 50 * ls * (ls + 1)` points, plus
/// `floor((ls_old - 1) * points / 10)` when the previous lock cleared more than one line.
pub fn lock_points(size: usize, lines: usize, ls_old: usize) -> u64 {
    let (size, ls, ls_old) = (size as u64, lines as u64, ls_old as u64);
    let points = size + 50 * ls * (ls + 1);
    let bonus = if ls_old > 1 {
        (ls_old - 1) * points / 10
    } else {
        0
    };
    points + bonus
}

/// How a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// A unit is in play.
    Playing,
    /// Every unit of the source has been locked.
    OutOfUnits,
    /// The next unit could not spawn.
    BoardFull,
}

/// What a command did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The unit moved or turned.
    Moved,
    /// The command was invalid, so the unit locked where it was.
    Locked { lines: usize, points: u64 },
    /// The game was already over before the first command; the evaluator accepts this one
    /// command and does nothing (RULES.md F.22).
    Ignored,
}

/// The errors a command can cause; either makes the seed score 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The command would return the unit to a position it has held.
    RepeatedPosition,
    /// The game had already ended.
    CommandAfterEnd,
}

/// One game of a problem for one seed.
#[derive(Clone, Debug)]
pub struct Game<'p> {
    problem: &'p Problem,
    board: Board,
    source: Source,
    piece: Option<Piece>,
    visited: Vec<(i64, u8)>,
    status: Status,
    /// The evaluator's "game over" flag: set after any command when the game is over, so that
    /// the next command is an error. Not set at the start, hence the one accepted command.
    over_seen: bool,
    move_score: u64,
    ls_old: usize,
    locked: u32,
    commands: u32,
}

impl<'p> Game<'p> {
    /// Starts a game: the first unit spawns (or the game is over at once).
    pub fn new(problem: &'p Problem, seed: u32) -> Game<'p> {
        let mut g = Game {
            problem,
            board: problem.board.clone(),
            source: Source::new(seed, problem.source_length as u64, problem.units.len()),
            piece: None,
            visited: Vec::new(),
            status: Status::Playing,
            over_seen: false,
            move_score: 0,
            ls_old: 0,
            locked: 0,
            commands: 0,
        };
        g.spawn_next();
        g
    }

    /// Plays one command.
    pub fn step(&mut self, cmd: Command) -> Result<Outcome, GameError> {
        if self.over_seen {
            return Err(GameError::CommandAfterEnd);
        }
        let out = match self.piece {
            Some(piece) => {
                self.commands += 1;
                self.apply(piece, cmd)
            }
            None => Ok(Outcome::Ignored),
        };
        if self.status != Status::Playing {
            self.over_seen = true;
        }
        out
    }

    fn apply(&mut self, piece: Piece, cmd: Command) -> Result<Outcome, GameError> {
        let unit = &self.problem.units[piece.unit];
        let next = piece.moved(cmd);
        if !self
            .board
            .fits(unit.shape(next.orient, next.pivot.y), next.pivot)
        {
            let (lines, points) = self.lock(piece);
            return Ok(Outcome::Locked { lines, points });
        }
        let key = next.key(unit);
        if cmd.is_descent() {
            self.visited.clear();
        } else if self.visited.contains(&key) {
            return Err(GameError::RepeatedPosition);
        }
        self.visited.push(key);
        self.piece = Some(next);
        Ok(Outcome::Moved)
    }

    fn lock(&mut self, piece: Piece) -> (usize, u64) {
        let unit = &self.problem.units[piece.unit];
        let (lines, points) = lock_unit(
            &mut self.board,
            unit,
            piece.orient,
            piece.pivot,
            self.ls_old,
        );
        self.move_score += points;
        self.ls_old = lines;
        self.locked += 1;
        self.spawn_next();
        (lines, points)
    }

    fn spawn_next(&mut self) {
        self.visited.clear();
        self.piece = None;
        let Some(index) = self.source.next() else {
            self.status = Status::OutOfUnits;
            return;
        };
        let unit = &self.problem.units[index];
        let piece = Piece::spawn(index, unit);
        if self.board.fits(unit.shape(0, piece.pivot.y), piece.pivot) {
            self.visited.push(piece.key(unit));
            self.piece = Some(piece);
        } else {
            self.status = Status::BoardFull;
        }
    }

    pub fn problem(&self) -> &'p Problem {
        self.problem
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The unit in play, if any.
    pub fn piece(&self) -> Option<Piece> {
        self.piece
    }

    /// The cells of the unit in play (empty when none is).
    pub fn piece_cells(&self) -> Vec<Cell> {
        self.piece
            .map(|p| {
                self.problem.units[p.unit]
                    .cells(p.pivot, p.orient)
                    .collect()
            })
            .unwrap_or_default()
    }

    pub fn status(&self) -> Status {
        self.status
    }

    pub fn move_score(&self) -> u64 {
        self.move_score
    }

    /// Units locked so far.
    pub fn locked(&self) -> u32 {
        self.locked
    }

    /// Commands played while a unit was in play (a command that caused an error included).
    pub fn commands(&self) -> u32 {
        self.commands
    }

    /// Units still to come after the one in play.
    pub fn units_left(&self) -> u64 {
        self.source.remaining()
    }

    /// Whether a command would still be accepted: always while a unit is in play, and once more
    /// after a game that ended without one (the evaluator's quirk, RULES.md F.22), as ignored.
    pub fn accepts_command(&self) -> bool {
        !self.over_seen
    }

    /// Whether `cmd` would repeat a position of the unit in play (a sure error).
    pub fn would_repeat(&self, cmd: Command) -> bool {
        let Some(piece) = self.piece else {
            return false;
        };
        let unit = &self.problem.units[piece.unit];
        let next = piece.moved(cmd);
        !cmd.is_descent()
            && self
                .board
                .fits(unit.shape(next.orient, next.pivot.y), next.pivot)
            && self.visited.contains(&next.key(unit))
    }

    /// Whether `cmd` would lock the unit in play.
    pub fn would_lock(&self, cmd: Command) -> bool {
        let Some(piece) = self.piece else {
            return false;
        };
        let unit = &self.problem.units[piece.unit];
        let next = piece.moved(cmd);
        !self
            .board
            .fits(unit.shape(next.orient, next.pivot.y), next.pivot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn problem(json: &str) -> Problem {
        Problem::from_json(json, Path::new("t.json")).unwrap()
    }

    #[test]
    fn moves_agree_with_the_hex_geometry() {
        use crate::engine::hex::Dir;
        for y in -3..4 {
            for x in -2..3 {
                let p = Piece {
                    unit: 0,
                    pivot: Cell::new(x, y),
                    orient: 0,
                };
                for (cmd, dir) in [
                    (Command::W, Dir::W),
                    (Command::E, Dir::E),
                    (Command::SW, Dir::SW),
                    (Command::SE, Dir::SE),
                ] {
                    assert_eq!(
                        p.moved(cmd).pivot,
                        p.pivot.step(dir),
                        "{cmd:?} from ({x},{y})"
                    );
                }
            }
        }
    }

    #[test]
    fn lock_points_follow_the_formula() {
        assert_eq!(lock_points(2, 2, 0), 302);
        assert_eq!(lock_points(2, 1, 2), 112);
        assert_eq!(lock_points(3, 0, 3), 3);
        assert_eq!(lock_points(5, 0, 3), 6);
        assert_eq!(lock_points(1, 4, 0), 1001);
    }

    #[test]
    fn repeat_rule_compares_member_sets() {
        // RULES.md D.15: unit {(0,0),(2,0)} with pivot (1,0) is symmetric under 180 degrees.
        let p = problem(
            r#"{"id":9003,"width":7,"height":7,"filled":[],"sourceLength":1,"sourceSeeds":[0],
            "units":[{"members":[{"x":0,"y":0},{"x":2,"y":0}],"pivot":{"x":1,"y":0}}]}"#,
        );
        let mut g = Game::new(&p, 0);
        assert_eq!(g.step(Command::SE), Ok(Outcome::Moved));
        assert_eq!(g.step(Command::CW), Ok(Outcome::Moved));
        assert_eq!(g.step(Command::CW), Ok(Outcome::Moved));
        assert!(g.would_repeat(Command::CW));
        assert_eq!(g.step(Command::CW), Err(GameError::RepeatedPosition));
    }

    #[test]
    fn a_full_lock_clears_and_the_game_ends_when_the_source_is_empty() {
        let p = problem(
            r#"{"id":1,"width":2,"height":2,"filled":[{"x":0,"y":1}],"sourceLength":1,
            "sourceSeeds":[0],"units":[{"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}}]}"#,
        );
        let mut g = Game::new(&p, 0);
        // The unit spawns at (0,0), since floor((2 - 1) / 2) = 0; SW would leave the board.
        assert!(g.would_lock(Command::SW));
        assert_eq!(g.step(Command::E), Ok(Outcome::Moved));
        assert_eq!(g.step(Command::SE), Ok(Outcome::Moved));
        assert_eq!(
            g.step(Command::SE),
            Ok(Outcome::Locked {
                lines: 1,
                points: 101
            })
        );
        assert_eq!(g.status(), Status::OutOfUnits);
        assert_eq!(g.step(Command::SE), Err(GameError::CommandAfterEnd));
        assert_eq!(g.board().row_count(1), 0);
    }
}
