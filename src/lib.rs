//! hextris: plays the ICFP Programming Contest 2015 game (hex-grid Tetris with phrases of power)
//! and solves square-grid tetromino packing puzzles.
//!
//! The data flows one way: problem JSON -> [`engine`] (the rules) -> [`plan`] (placements) ->
//! [`encode`] (command strings) -> [`eval`] (what a lock is worth: the planner asks it through
//! [`plan::Evaluator`]) -> [`solve`] (time limits, cores, best solutions) -> scorer and
//! viewer in [`cli`], which draws games with [`view`]. The engine knows nothing of the modules
//! that search or draw; the [`pack`] puzzles share nothing with the hex game and live apart.
//!
//! The documentation (`cargo doc --no-deps`, checked with warnings as errors in `.ci/run`) is
//! for the crate's developers: a module's doc may link its private items, which resolve with
//! `--document-private-items`; every other broken link is an error.
#![allow(rustdoc::private_intra_doc_links)]

pub mod cli;
pub mod encode;
pub mod engine;
pub mod error;
pub mod eval;
pub mod io;
pub mod pack;
pub mod plan;
pub mod solve;
pub mod stop;
pub mod store;
#[doc(hidden)]
pub mod testkit;
pub mod view;
pub mod work;

pub use error::Error;
