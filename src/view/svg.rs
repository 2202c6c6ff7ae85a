//! A frame as an SVG picture (`hextris render`): pointy-top hexagons with odd rows shifted half
//! a cell to the right, cells coloured by the unit that filled them (the terminal palette, as
//! RGB), the unit in play outlined with its pivot marked, and the status as a caption.
//!
//! Geometry: with circumradius `R` (chosen per board width), cell `(x, y)` is centred at
//! `(M + sqrt(3) R (x + 1/2 + (y odd) / 2), M + R + 3/2 R y)`, which makes neighbouring hexagons
//! share edges exactly as the rules' neighbours do. Only elements every SVG renderer knows are
//! used (polygon, circle, text), so the picture shows the same in a browser and in a bug report.

use super::ansi::{status_text, wrap_parts};
use super::replay::{Frame, Owner, Replay};
use super::{unit_colour, xterm_rgb, START_COLOUR};
use crate::engine::Cell;
use std::fmt::Write;

/// Circumradius of a cell, in pixels, at most and at least: a board is drawn about
/// [`BOARD_PX`] wide within these bounds.
const R_MAX: f64 = 18.0;
const R_MIN: f64 = 5.0;
const BOARD_PX: f64 = 640.0;
/// Margin around the board.
const M: f64 = 10.0;
const FONT: f64 = 13.0;
const LINE: f64 = 18.0;
/// Average advance of a monospace character at [`FONT`], to wrap the caption.
const CHAR_W: f64 = FONT * 0.6;

/// The circumradius for a board this many cells wide.
fn radius(width: usize) -> f64 {
    (BOARD_PX / (3f64.sqrt() * (width as f64 + 0.5))).clamp(R_MIN, R_MAX)
}

fn centre(c: Cell, r: f64) -> (f64, f64) {
    let w = 3f64.sqrt() * r;
    let shift = if c.y & 1 == 1 { 0.5 } else { 0.0 };
    (
        M + w * (c.x as f64 + 0.5 + shift),
        M + r + 1.5 * r * c.y as f64,
    )
}

fn hexagon(c: Cell, r: f64) -> String {
    let (cx, cy) = centre(c, r);
    let mut pts = String::new();
    for k in 0..6 {
        // Pointy top: vertices at -90, -30, 30, 90, 150 and 210 degrees.
        let a = (60.0 * k as f64 - 90.0).to_radians();
        let _ = write!(pts, "{:.1},{:.1} ", cx + r * a.cos(), cy + r * a.sin());
    }
    pts.trim_end().to_string()
}

fn rgb(c: u8) -> String {
    let (r, g, b) = xterm_rgb(c);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// Escapes text for XML content and attributes.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters are not allowed in XML 1.0 text.
            c if c.is_control() => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// Splits `s` into lines of at most `width` characters, at spaces where possible.
fn wrap(s: &str, width: usize) -> Vec<String> {
    let width = width.max(10);
    let mut lines = vec![String::new()];
    for word in s.split(' ') {
        let last = lines.last_mut().expect("never empty");
        let len = last.chars().count();
        if len > 0 && len + 1 + word.chars().count() > width {
            lines.push(word.to_string());
        } else {
            if len > 0 {
                last.push(' ');
            }
            last.push_str(word);
        }
    }
    lines
}

/// The SVG picture of a frame; `heading` is the caption's first line.
pub fn render(replay: &Replay, state: &Frame, heading: &str) -> String {
    let p = replay.problem();
    let (w, h) = (p.width as i64, p.height as i64);
    let r = radius(p.width);
    let board_w = 3f64.sqrt() * r * (w as f64 + 0.5) + 2.0 * M;
    let board_h = 1.5 * r * (h - 1) as f64 + 2.0 * r + 2.0 * M;
    let width = board_w.max(480.0);
    let status = status_text(replay, state);
    let piece = state.game().piece();
    let piece_cells = state.game().piece_cells();
    let chars = ((width - 2.0 * M) / CHAR_W) as usize;
    // The first lines (heading and status) are bold; count them for the style below.
    let mut caption = wrap(heading, chars);
    caption.extend(wrap_parts(&status.line, " · ", chars, usize::MAX));
    let bold = caption.len();
    caption.extend(wrap(&status.phrases, chars));
    caption.extend(wrap(&status.note, chars));
    if let Some(pc) = piece {
        if pc.pivot.x < 0 || pc.pivot.y < 0 || pc.pivot.x >= w || pc.pivot.y >= h {
            caption.push(format!(
                "the pivot ({}, {}) of the unit in play is off the board",
                pc.pivot.x, pc.pivot.y
            ));
        }
    }
    let height = board_h + LINE * caption.len() as f64 + M;

    let mut out = String::new();
    let _ = writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.1} {height:.1}">"#
    );
    let _ = writeln!(out, "<title>{}</title>", escape(heading));
    let _ = writeln!(
        out,
        r##"<rect x="0" y="0" width="{width:.1}" height="{height:.1}" fill="#ffffff"/>"##
    );
    let _ = writeln!(out, r##"<g stroke="#ffffff" stroke-width="1">"##);
    let owners = state.owners();
    for y in 0..h {
        for x in 0..w {
            let cell = Cell::new(x, y);
            let fill = match (
                piece.filter(|_| piece_cells.contains(&cell)),
                owners.get(x, y),
            ) {
                (Some(pc), _) => rgb(unit_colour(pc.unit)),
                (None, Owner::Empty) => "#eeeeee".into(),
                (None, Owner::Start) => rgb(START_COLOUR),
                (None, Owner::Unit(k)) => rgb(unit_colour(k)),
            };
            let _ = writeln!(
                out,
                r#"<polygon points="{}" fill="{fill}"/>"#,
                hexagon(cell, r)
            );
        }
    }
    let _ = writeln!(out, "</g>");
    if let Some(pc) = piece {
        let _ = writeln!(
            out,
            r##"<g fill="none" stroke="#111111" stroke-width="3" stroke-linejoin="round">"##
        );
        for &c in &piece_cells {
            let _ = writeln!(out, r#"<polygon points="{}"/>"#, hexagon(c, r));
        }
        let _ = writeln!(out, "</g>");
        if pc.pivot.x >= 0 && pc.pivot.y >= 0 && pc.pivot.x < w && pc.pivot.y < h {
            let (cx, cy) = centre(pc.pivot, r);
            let _ = writeln!(
                out,
                r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="#ffffff" stroke="#111111" stroke-width="2"/>"##,
                r * 0.35
            );
        }
    }
    let _ = writeln!(
        out,
        r##"<g font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="{FONT}" fill="#222222">"##
    );
    for (k, line) in caption.iter().enumerate() {
        let y = board_h + LINE * (k as f64 + 0.75);
        let weight = if k < bold {
            r#" font-weight="bold""#
        } else {
            ""
        };
        let fill = if status.error && line.starts_with("stopped:") {
            r##" fill="#cc0000""##
        } else {
            ""
        };
        let _ = writeln!(
            out,
            r#"<text x="{M}" y="{y:.1}"{weight}{fill}>{}</text>"#,
            escape(line)
        );
    }
    let _ = writeln!(out, "</g>");
    let _ = writeln!(out, "</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Phrases, Problem};
    use std::path::Path;

    #[test]
    fn neighbours_share_edges() {
        // The distance between the centres of neighbouring cells is sqrt(3) R on every side.
        let r = radius(12);
        let d = |a: Cell, b: Cell| {
            let ((x0, y0), (x1, y1)) = (centre(a, r), centre(b, r));
            ((x1 - x0).powi(2) + (y1 - y0).powi(2)).sqrt()
        };
        let want = 3f64.sqrt() * r;
        for c in [Cell::new(3, 2), Cell::new(3, 3)] {
            for dir in [
                crate::engine::Dir::E,
                crate::engine::Dir::W,
                crate::engine::Dir::SE,
                crate::engine::Dir::SW,
                crate::engine::Dir::NE,
                crate::engine::Dir::NW,
            ] {
                assert!((d(c, c.step(dir)) - want).abs() < 1e-9, "{c:?} {dir:?}");
            }
        }
    }

    #[test]
    fn a_picture_has_every_cell_the_outline_and_a_caption() {
        let p = Problem::from_json(
            r#"{"id":7,"width":4,"height":3,"sourceLength":3,"sourceSeeds":[0],
            "filled":[{"x":0,"y":2}],
            "units":[{"members":[{"x":0,"y":0},{"x":1,"y":0}],"pivot":{"x":0,"y":0}}]}"#,
            Path::new("t.json"),
        )
        .unwrap();
        let r = Replay::load(&p, 0, "ei!", Phrases::official());
        let svg = render(&r, &r.state_at(r.len()), "a <test> & more");
        assert!(svg.starts_with("<?xml"));
        assert_eq!(
            svg.matches("<polygon").count(),
            12 + 2,
            "cells plus the outline"
        );
        assert_eq!(svg.matches("<circle").count(), 1);
        assert!(svg.contains("a &lt;test&gt; &amp; more"));
        assert!(svg.contains("score 306 = 0 move + 306 power"), "{svg}");
        assert!(svg.contains("&quot;ei!&quot;x1"));
        assert!(svg.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn wrapping_keeps_words_whole() {
        assert_eq!(
            wrap("aaaa bbbb cccc dddd", 10),
            vec!["aaaa bbbb", "cccc dddd"]
        );
    }
}
