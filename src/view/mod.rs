//! Seeing the game: a replay model, terminal drawing, the interactive viewer and manual player,
//! and SVG pictures of the board.
//!
//! - [`replay`] is the headless model: the frames of one game, produced by the engine command
//!   by command, with undo. Everything else only draws it or moves through it.
//! - [`canvas`] is a clipped grid of styled characters and its ANSI output.
//! - [`ansi`] draws a frame (board, status, command strip) on a canvas.
//! - [`term`] runs the interactive loops (`hextris view`, `hextris play`) with crossterm.
//! - [`svg`] draws a frame as an SVG picture (`hextris render --svg`).
//! - [`html`] writes a whole replay as one self-contained web page (`hextris render --html`).
//! - [`report`] writes a store's report as a web page with charts, linking to the replay pages
//!   (`hextris store report --html`).
//!
//! The viewer is not part of the engine and the rules are never re-derived here. Coordinates
//! follow [`crate::engine::hex`]: `(x, y)` = (column, row), row 0 on top, odd rows shifted half a
//! cell to the right, which the drawings keep (one terminal column, or half a hexagon).

pub mod ansi;
pub mod canvas;
pub mod html;
pub mod replay;
pub mod report;
pub mod svg;
pub mod term;

pub use replay::{Frame, Owner, Owners, Played, Pushed, Refused, Replay};

/// The 256-colour palette of units: unit `k` of a problem is drawn in `UNIT_COLOURS[k % 12]`, in
/// the terminal and (as RGB) in SVG pictures, so a unit keeps its colour from frame to frame.
pub const UNIT_COLOURS: [u8; 12] = [203, 114, 75, 221, 176, 80, 215, 141, 150, 117, 174, 186];

/// The colour of cells filled before the first unit.
pub const START_COLOUR: u8 = 245;

/// The colour of unit `k`.
pub fn unit_colour(k: usize) -> u8 {
    UNIT_COLOURS[k % UNIT_COLOURS.len()]
}

/// The RGB value of an xterm 256-colour index (the 6x6x6 cube and the grey ramp; the 16 system
/// colours, which terminals theme freely, get their usual defaults).
pub fn xterm_rgb(c: u8) -> (u8, u8, u8) {
    const SYSTEM: [(u8, u8, u8); 16] = [
        (0, 0, 0),
        (205, 0, 0),
        (0, 205, 0),
        (205, 205, 0),
        (0, 0, 238),
        (205, 0, 205),
        (0, 205, 205),
        (229, 229, 229),
        (127, 127, 127),
        (255, 0, 0),
        (0, 255, 0),
        (255, 255, 0),
        (92, 92, 255),
        (255, 0, 255),
        (0, 255, 255),
        (255, 255, 255),
    ];
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    match c {
        0..=15 => SYSTEM[c as usize],
        16..=231 => {
            let i = c - 16;
            (
                LEVELS[(i / 36) as usize],
                LEVELS[(i / 6 % 6) as usize],
                LEVELS[(i % 6) as usize],
            )
        }
        _ => {
            let g = 8 + 10 * (c - 232);
            (g, g, g)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xterm_colours() {
        assert_eq!(xterm_rgb(196), (255, 0, 0));
        assert_eq!(xterm_rgb(16), (0, 0, 0));
        assert_eq!(xterm_rgb(231), (255, 255, 255));
        assert_eq!(xterm_rgb(75), (95, 175, 255));
        assert_eq!(xterm_rgb(232), (8, 8, 8));
        assert_eq!(xterm_rgb(255), (238, 238, 238));
    }

    #[test]
    fn palette_colours_are_distinct() {
        let mut rgb: Vec<_> = UNIT_COLOURS.iter().map(|&c| xterm_rgb(c)).collect();
        rgb.push(xterm_rgb(START_COLOUR));
        let n = rgb.len();
        rgb.sort();
        rgb.dedup();
        assert_eq!(rgb.len(), n);
    }
}
