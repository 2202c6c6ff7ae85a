//! The rules of the ICFP 2015 game, exactly as the organisers' evaluator plays them
//! (`../shared/icfp2015/RULES.md`): hex geometry, units, the board, the source of units, the
//! commands, replay and scoring.
//!
//! This module knows nothing of the modules that search (planner, encoders, solver, viewer); they
//! build on it, never the other way round. Coordinates follow [`hex`]: `(x, y)` = (column, row),
//! row 0 at the top, odd rows shifted half a cell to the right.

pub mod board;
pub mod command;
pub mod game;
pub mod hex;
pub mod power;
pub mod problem;
pub mod score;
pub mod source;
pub mod unit;

pub use board::Board;
pub use command::{Command, Decoded};
pub use game::{lock_points, lock_unit, Game, GameError, Outcome, Piece, Status};
pub use hex::{offset_step, Axial, Cell, Dir};
pub use power::{phrase_points, repetition_points, Phrases, FIRST_USE_POINTS, OFFICIAL_PHRASES};
pub use problem::Problem;
pub use score::{problem_score, replay, End, ErrorKind, Evaluation};
pub use source::{Lcg, Source};
pub use unit::{Segment, Shape, Unit};
