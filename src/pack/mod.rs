//! Square-grid tetromino packing puzzles (`hextris pack ...`). They share nothing with the hex
//! game's rules: each puzzle keeps its own board type and its own figure/angle conventions, as
//! `../shared/pack/PUZZLES.md` defines them. [`tiling`] is the exact tiling engine that square and
//! fillit share; the command lines are in `crate::cli::pack`.

pub mod drop;
pub mod fillit;
pub mod square;
pub mod tiling;
pub mod totems;
