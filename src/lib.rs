//! hextris: plays the ICFP Programming Contest 2015 game (hex-grid Tetris with phrases of power)
//! and solves square-grid tetromino packing puzzles.
//!
//! The data flows one way: problem JSON -> [`engine`] (the rules) -> planner -> encoder ->
//! solutions -> scorer and viewer. The engine knows nothing of the modules that search; the
//! [`pack`] puzzles share nothing with the hex game and live apart.

pub mod engine;
pub mod error;
pub mod pack;

pub use error::Error;
