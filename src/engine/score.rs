//! Scoring a solution the way the organisers' evaluator does: replay the commands, stop at the
//! first error (which makes the seed score 0, phrases included), and add the power score of the
//! raw text to the move score (RULES.md sections 9 to 11).

use super::command::{Command, Decoded};
use super::game::{Game, GameError, Status};
use super::power::Phrases;
use super::problem::Problem;
use std::fmt;

/// Why a solution scores 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A character outside the command table.
    InvalidCharacter(char),
    /// A command that returns the unit to a position it has held.
    RepeatedPosition,
    /// A command after the game ended.
    CommandAfterEnd,
    /// The seed is not one of the problem's `sourceSeeds`.
    SeedNotInProblem,
}

impl ErrorKind {
    /// The short name used in reports: `invalid-character`, `repeated-position`, ...
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::InvalidCharacter(_) => "invalid-character",
            ErrorKind::RepeatedPosition => "repeated-position",
            ErrorKind::CommandAfterEnd => "command-after-end",
            ErrorKind::SeedNotInProblem => "seed-not-in-problem",
        }
    }
}

impl From<GameError> for ErrorKind {
    fn from(e: GameError) -> ErrorKind {
        match e {
            GameError::RepeatedPosition => ErrorKind::RepeatedPosition,
            GameError::CommandAfterEnd => ErrorKind::CommandAfterEnd,
        }
    }
}

/// How a scored game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    OutOfUnits,
    BoardFull,
    /// The solution stopped with a unit still in play.
    InProgress,
    /// The solution is an error: `command` is the 0-based index of the offending command among
    /// the real commands, `char_index` its 0-based index among the characters of the text.
    Error {
        kind: ErrorKind,
        command: u32,
        char_index: usize,
    },
}

impl End {
    pub fn is_error(&self) -> bool {
        matches!(self, End::Error { .. })
    }
}

impl fmt::Display for End {
    /// `out-of-units`, `board-full`, `in-progress`, or `error:<kind>` with where it happened.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            End::OutOfUnits => write!(f, "out-of-units"),
            End::BoardFull => write!(f, "board-full"),
            End::InProgress => write!(f, "in-progress"),
            End::Error {
                kind: ErrorKind::SeedNotInProblem,
                ..
            } => {
                write!(f, "error:seed-not-in-problem")
            }
            End::Error {
                kind,
                command,
                char_index,
            } => {
                write!(
                    f,
                    "error:{} at command {command} (char {char_index})",
                    kind.name()
                )?;
                if let ErrorKind::InvalidCharacter(c) = kind {
                    write!(f, " {c:?}")?;
                }
                Ok(())
            }
        }
    }
}

/// The result of scoring one solution for one seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// Move score plus power score, or 0 on an error.
    pub score: u64,
    pub move_score: u64,
    pub power_score: u64,
    /// Commands played while a unit was in play.
    pub commands: u32,
    /// Units locked.
    pub locked: u32,
    pub end: End,
    /// Occurrences of each phrase, in the order of the phrase list (all 0 on an error).
    pub phrase_counts: Vec<u32>,
}

/// Scores `solution` for `seed` of `problem`, as the evaluator would.
pub fn replay(problem: &Problem, seed: u32, solution: &str, phrases: &Phrases) -> Evaluation {
    if !problem.seeds.contains(&seed) {
        let end = End::Error {
            kind: ErrorKind::SeedNotInProblem,
            command: 0,
            char_index: 0,
        };
        return failed(0, 0, end, phrases);
    }
    let mut game = Game::new(problem, seed);
    let mut command = 0u32;
    for (char_index, c) in solution.chars().enumerate() {
        let cmd = match Command::decode(c) {
            Decoded::Command(cmd) => cmd,
            Decoded::Ignored => continue,
            Decoded::Invalid => {
                let kind = ErrorKind::InvalidCharacter(c);
                let end = End::Error {
                    kind,
                    command,
                    char_index,
                };
                return failed(game.commands(), game.locked(), end, phrases);
            }
        };
        if let Err(e) = game.step(cmd) {
            let end = End::Error {
                kind: e.into(),
                command,
                char_index,
            };
            return failed(game.commands(), game.locked(), end, phrases);
        }
        command += 1;
    }
    let phrase_counts = phrases.count(solution);
    let power_score = phrases.score(&phrase_counts);
    let end = match game.status() {
        Status::Playing => End::InProgress,
        Status::OutOfUnits => End::OutOfUnits,
        Status::BoardFull => End::BoardFull,
    };
    Evaluation {
        score: game.move_score() + power_score,
        move_score: game.move_score(),
        power_score,
        commands: game.commands(),
        locked: game.locked(),
        end,
        phrase_counts,
    }
}

fn failed(commands: u32, locked: u32, end: End, phrases: &Phrases) -> Evaluation {
    Evaluation {
        score: 0,
        move_score: 0,
        power_score: 0,
        commands,
        locked,
        end,
        phrase_counts: vec![0; phrases.len()],
    }
}

/// The official score of a problem (RULES.md section 13): the floor of the sum of the scores of
/// its distinct seeds divided by the number of LISTED seeds (problem 5 lists one seed twice and
/// was scored by 10). `score_of` gives a seed's score (0 for a seed without a solution).
pub fn problem_score(problem: &Problem, mut score_of: impl FnMut(u32) -> u64) -> u64 {
    if problem.seeds.is_empty() {
        return 0;
    }
    let sum: u64 = problem
        .distinct_seeds()
        .into_iter()
        .map(&mut score_of)
        .sum();
    sum / problem.seeds.len() as u64
}
