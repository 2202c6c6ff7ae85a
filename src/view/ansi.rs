//! Drawing a frame on a [`Canvas`]: the board as hexagons, the status, the phrases spelt so far
//! and the command strip.
//!
//! Board geometry: each hex cell takes two terminal columns, its glyph and a space; cell `(x, y)`
//! is drawn at column `1 + 2x + (y & 1)` of the board (column 0 and `2 * width + 1` are the side
//! walls, row `height` the floor), so odd rows sit half a cell to the right as in the rules, and
//! each cell touches its six neighbours. A board wider or taller than the screen is scrolled
//! (never scaled): [`Viewport::follow`] keeps the unit in play in sight, and the title says which
//! columns and rows show.
//!
//! With colour, cells are hexagon glyphs coloured by the unit that filled them
//! ([`super::unit_colour`]); without, they are letters, so a picture pasted into a bug report
//! still says which unit is which: `.` empty, `#` filled at the start, `A`..`Z`, `a`..`z` the
//! unit (index mod 52), `@` the unit in play, `*` its pivot (`+` when the pivot is not one of its
//! cells).

use super::canvas::{printable, Canvas, Style};
use super::replay::{command_name, Frame, Owner, Replay};
use super::{unit_colour, START_COLOUR};
use crate::engine::{Cell, End, Outcome, Status};

/// Screen columns a board of this width takes, walls included.
pub fn board_columns(width: usize) -> usize {
    2 * width + 2
}

/// Screen rows a board of this height takes, floor included.
pub fn board_rows(height: usize) -> usize {
    height + 1
}

/// The column of cell `(x, y)` from the left wall.
pub fn cell_column(x: i64, y: i64) -> i64 {
    1 + 2 * x + (y & 1)
}

const EMPTY_COLOUR: u8 = 240;
const WALL_COLOUR: u8 = 244;
const PIVOT_ELSEWHERE_BG: u8 = 160;
const PHRASE_COLOUR: u8 = 214;
const ERROR_COLOUR: u8 = 196;

/// What to draw for one board cell.
fn cell_glyph(owner: Owner, piece: Option<usize>, pivot: bool, color: bool) -> (char, Style) {
    match (piece, pivot) {
        (Some(k), true) if color => ('●', Style::fg(16).on(unit_colour(k)).bold()),
        (Some(k), false) if color => ('⬢', Style::fg(15).on(unit_colour(k)).bold()),
        (None, true) if color => ('+', Style::fg(15).on(PIVOT_ELSEWHERE_BG).bold()),
        (Some(_), true) => ('*', Style::PLAIN),
        (Some(_), false) => ('@', Style::PLAIN),
        (None, true) => ('+', Style::PLAIN),
        (None, false) => match owner {
            Owner::Empty if color => ('⬡', Style::fg(EMPTY_COLOUR)),
            Owner::Start if color => ('⬢', Style::fg(START_COLOUR)),
            Owner::Unit(k) if color => ('⬢', Style::fg(unit_colour(k))),
            Owner::Empty => ('.', Style::PLAIN),
            Owner::Start => ('#', Style::PLAIN),
            Owner::Unit(k) => {
                let k = (k % 52) as u8;
                let c = if k < 26 { b'A' + k } else { b'a' + k - 26 };
                (c as char, Style::PLAIN)
            }
        },
    }
}

/// The part of the screen the board is drawn in, and which part of the board shows there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Viewport {
    /// Screen position of the area's top-left corner.
    pub left: i64,
    pub top: i64,
    /// Size of the area, in screen columns and rows.
    pub width: usize,
    pub height: usize,
    /// Board column and row (in screen units, walls included) shown at the top-left corner.
    pub scroll_x: i64,
    pub scroll_y: i64,
}

impl Viewport {
    /// A viewport showing a whole board from its top-left corner.
    pub fn whole(width: usize, height: usize) -> Viewport {
        Viewport {
            left: 0,
            top: 0,
            width: board_columns(width),
            height: board_rows(height),
            scroll_x: 0,
            scroll_y: 0,
        }
    }

    /// Scrolls to bring `cells` into view with a small margin: sideways as little as possible,
    /// and vertically as low as possible; then keeps the view on the board (no empty space past
    /// the walls or the floor when the board is larger).
    pub fn follow(&mut self, cells: &[Cell], board_width: usize, board_height: usize) {
        if cells.is_empty() {
            // No unit in play (the game is over): show the stack at the bottom.
            self.scroll_y = i64::MAX / 2;
        }
        if let (Some(x0), Some(x1)) = (
            cells.iter().map(|c| cell_column(c.x, c.y)).min(),
            cells.iter().map(|c| cell_column(c.x, c.y)).max(),
        ) {
            let m = (self.width as i64 / 4).min(6);
            if x0 - m < self.scroll_x {
                self.scroll_x = x0 - m;
            }
            if x1 + m >= self.scroll_x + self.width as i64 {
                self.scroll_x = x1 + m + 1 - self.width as i64;
            }
            // Vertically, the view goes as low as it can while the unit shows: the stack at the
            // bottom is what the unit is heading for.
            let y0 = cells.iter().map(|c| c.y).min().expect("not empty");
            let m = (self.height as i64 / 4).min(3);
            self.scroll_y = y0 - m;
        }
        self.clamp(board_width, board_height);
    }

    /// Keeps the scroll position within the board.
    pub fn clamp(&mut self, board_width: usize, board_height: usize) {
        let max_x = board_columns(board_width) as i64 - self.width as i64;
        let max_y = board_rows(board_height) as i64 - self.height as i64;
        self.scroll_x = self.scroll_x.min(max_x).max(0);
        self.scroll_y = self.scroll_y.min(max_y).max(0);
    }

    /// Whether the whole board shows.
    pub fn shows_all(&self, board_width: usize, board_height: usize) -> bool {
        self.scroll_x == 0
            && self.scroll_y == 0
            && self.width >= board_columns(board_width)
            && self.height >= board_rows(board_height)
    }

    /// Which board columns and rows show, as `(x0, x1, y0, y1)`, inclusive (partly shown cells
    /// count).
    pub fn shown_cells(&self, board_width: usize, board_height: usize) -> (i64, i64, i64, i64) {
        let x0 = ((self.scroll_x - 2).max(0) / 2).min(board_width as i64 - 1);
        let x1 = ((self.scroll_x + self.width as i64 - 2) / 2).clamp(0, board_width as i64 - 1);
        let y0 = self.scroll_y.min(board_height as i64 - 1);
        let y1 = (self.scroll_y + self.height as i64 - 1).clamp(0, board_height as i64 - 1);
        (x0, x1, y0, y1)
    }

    fn put(&self, canvas: &mut Canvas, col: i64, row: i64, c: char, style: Style) {
        let (sx, sy) = (col - self.scroll_x, row - self.scroll_y);
        if sx >= 0 && sy >= 0 && sx < self.width as i64 && sy < self.height as i64 {
            canvas.put(self.left + sx, self.top + sy, c, style);
        }
    }
}

/// Draws the board of a frame: cells by owner, the unit in play and its pivot, walls and floor.
pub fn draw_board(canvas: &mut Canvas, state: &Frame, view: &Viewport, color: bool) {
    let owners = state.owners();
    let (w, h) = (owners.width() as i64, owners.height() as i64);
    let piece = state.game().piece();
    let piece_cells = state.game().piece_cells();
    let wall = if color {
        Style::fg(WALL_COLOUR)
    } else {
        Style::PLAIN
    };
    let (bar, floor) = if color { ('│', '─') } else { ('|', '-') };
    let y_end = (view.scroll_y + view.height as i64).min(h);
    for y in view.scroll_y.max(0)..y_end {
        view.put(canvas, 0, y, bar, wall);
        view.put(canvas, 2 * w + 1, y, bar, wall);
        let x_start = ((view.scroll_x - 2) / 2).max(0);
        let x_end = ((view.scroll_x + view.width as i64) / 2 + 1).min(w);
        for x in x_start..x_end {
            let cell = Cell::new(x, y);
            let in_piece = piece
                .filter(|_| piece_cells.contains(&cell))
                .map(|p| p.unit);
            let is_pivot = piece.is_some_and(|p| p.pivot == cell);
            let (c, style) = cell_glyph(owners.get(x, y), in_piece, is_pivot, color);
            view.put(canvas, cell_column(x, y), y, c, style);
        }
    }
    for col in 0..board_columns(w as usize) as i64 {
        view.put(canvas, col, h, floor, wall);
    }
}

/// The status of a frame in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusText {
    /// Unit k of n, command i of m, score = move + power, lines cleared, how the game stands.
    pub line: String,
    /// The phrases spelt so far, with their counts.
    pub phrases: String,
    /// What the command that led here did, or why the replay stopped.
    pub note: String,
    /// Whether `note` reports an error.
    pub error: bool,
}

/// The status of frame `state.frame()` of `replay`.
pub fn status_text(replay: &Replay, state: &Frame) -> StatusText {
    let i = state.frame();
    let game = state.game();
    let mv = game.move_score();
    let power = replay.power_at(i);
    let standing = match game.status() {
        Status::Playing => "in progress",
        Status::OutOfUnits => "out of units",
        Status::BoardFull => "board full",
    };
    let line = format!(
        "unit {} of {} · command {} of {} · score {} = {} move + {} power · lines {} · {}",
        state.unit_number(),
        replay.problem().source_length,
        i,
        replay.len(),
        mv + power,
        mv,
        power,
        state.lines(),
        standing
    );
    let counts = replay.counts_at(i);
    let used: Vec<String> = counts
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(k, n)| format!("{:?}x{n}", printable(replay.phrases().get(k))))
        .collect();
    let phrases = if used.is_empty() {
        "phrases: none yet".to_string()
    } else {
        format!("phrases: {}", used.join(" "))
    };
    let at_end = i == replay.len();
    let (note, error) = match replay.stop() {
        Some((end, c)) if at_end => {
            let what = match (end, c) {
                (End::Error { .. }, Some(c)) => format!(
                    "stopped: {} on {:?}; the whole solution scores 0",
                    end,
                    printable(&c.to_string())
                ),
                _ => format!("stopped: {end}; the whole solution scores 0"),
            };
            (what, true)
        }
        _ => (last_note(state), false),
    };
    StatusText {
        line,
        phrases,
        note,
        error,
    }
}

/// What the command that led to a frame did.
pub(crate) fn last_note(state: &Frame) -> String {
    match state.last() {
        None => match state.game().status() {
            Status::Playing => "start: the first unit is in play".into(),
            Status::OutOfUnits => "start: the source is empty, the game is over".into(),
            Status::BoardFull => "start: the first unit cannot spawn, the game is over".into(),
        },
        Some((cmd, Outcome::Moved)) => format!("last: {}", command_name(cmd)),
        Some((cmd, Outcome::Locked { lines, points })) => format!(
            "last: {} locked the unit: +{points} points, {lines} line{} cleared",
            command_name(cmd),
            if lines == 1 { "" } else { "s" }
        ),
        Some((cmd, Outcome::Ignored)) => format!(
            "last: {} ignored (the game was over at the start)",
            command_name(cmd)
        ),
    }
}

/// Draws the command strip: the text around the command that led to frame `i`, the phrases
/// spelt so far highlighted, the current command marked, the text still to come dimmed. Without
/// colour a second row marks them: `^` the current command, `=` spelt phrases. Returns the rows
/// used.
pub fn draw_strip(canvas: &mut Canvas, row: i64, replay: &Replay, i: usize, color: bool) -> i64 {
    let width = canvas.width();
    let text = replay.text();
    let prefix = replay.prefix_len(i);
    let current = i.checked_sub(1).map(|k| replay.played()[k].char_index);
    let label = "text: ";
    let room = width.saturating_sub(label.len() + 1).max(1);
    // Keep the current command about two thirds along, so what follows shows too.
    let anchor = current.unwrap_or(0);
    let mut from = anchor.saturating_sub(room * 2 / 3);
    let total = text.len() + replay.stop().and_then(|(_, c)| c).is_some() as usize;
    if total > room {
        from = from.min(total - room);
    } else {
        from = 0;
    }
    let to = (from + room).min(text.len());
    let mut spelt = vec![false; to - from];
    for o in replay.occurrences(i, from, to) {
        for k in o.start.max(from)..o.end.min(to) {
            spelt[k - from] = true;
        }
    }
    let x0 = canvas.text(0, row, label, Style::PLAIN.dim());
    for k in from..to {
        let c = text[k];
        let shown = match c {
            '\n' | '\t' | '\r' => '·',
            c if c == ' ' || c.is_ascii_graphic() => c,
            _ => '?',
        };
        let mut style = Style::PLAIN;
        if color {
            if spelt[k - from] {
                style = Style::fg(PHRASE_COLOUR).bold().underline();
            }
            if k >= prefix {
                style = style.dim();
            }
            if Some(k) == current {
                style = style.reverse();
            }
        }
        canvas.put(x0 + (k - from) as i64, row, shown, style);
        if !color {
            let mark = if Some(k) == current {
                '^'
            } else if spelt[k - from] {
                '='
            } else {
                ' '
            };
            canvas.put(x0 + (k - from) as i64, row + 1, mark, Style::PLAIN);
        }
    }
    if let Some((_, Some(_))) = replay.stop() {
        if i == replay.len() && to == text.len() {
            let style = if color {
                Style::fg(ERROR_COLOUR).bold().reverse()
            } else {
                Style::PLAIN
            };
            let x = x0 + (to - from) as i64;
            canvas.put(x, row, if color { '✗' } else { 'X' }, style);
            if !color {
                canvas.put(x, row + 1, '^', Style::PLAIN);
            }
        }
    }
    if color {
        1
    } else {
        2
    }
}

/// The text around the board on an interactive screen.
#[derive(Clone, Debug, Default)]
pub struct Chrome {
    /// The top line (the board's scroll range is added to it).
    pub title: String,
    /// The keys, on the bottom line.
    pub help: String,
    /// Play mode: what each command would do now.
    pub legend: Option<String>,
    /// A message that replaces the note of the last command (a refused command, say), and
    /// whether it is a warning.
    pub message: Option<(String, bool)>,
}

/// Draws a whole interactive screen: title, board (scrolled to follow the unit in play), status,
/// phrases, note, command strip, legend and keys. `view` keeps the scroll position between
/// frames; its area is set here from the canvas size. With `follow`, the view scrolls to the
/// unit in play; without (after scrolling by hand), it stays put.
pub fn draw_screen(
    canvas: &mut Canvas,
    replay: &Replay,
    state: &Frame,
    chrome: &Chrome,
    view: &mut Viewport,
    follow: bool,
    color: bool,
) {
    let (w, h) = (canvas.width(), canvas.height() as i64);
    let problem = replay.problem();
    let status = status_text(replay, state);
    // Long lines wrap at their separators onto a second line rather than being cut.
    let status_lines = wrap_parts(&status.line, " · ", w, 2);
    let phrase_lines = wrap_parts(&status.phrases, " ", w, 2);
    let legend_lines = chrome
        .legend
        .as_deref()
        .map(|l| wrap_parts(l, " · ", w, 2))
        .unwrap_or_default();
    let strip_rows = if color { 1 } else { 2 };
    let footer =
        (status_lines.len() + phrase_lines.len() + legend_lines.len()) as i64 + 2 + strip_rows;
    if w < 20 || h < footer + 3 {
        canvas.text(0, 0, "too small", Style::PLAIN);
        canvas.text(0, 1, "q quits", Style::PLAIN);
        return;
    }
    view.left = 0;
    view.top = 1;
    view.width = w;
    // The footer follows the board, or the bottom of the screen when the board is taller.
    view.height = ((h - 1 - footer) as usize).min(board_rows(problem.height));
    if follow {
        view.follow(&state.game().piece_cells(), problem.width, problem.height);
    } else {
        view.clamp(problem.width, problem.height);
    }
    draw_board(canvas, state, view, color);

    // A title longer than the screen ends with an ellipsis, so that the cut shows.
    let title = super::canvas::ellipsize(&printable(&chrome.title), w);
    canvas.text(0, 0, &title, Style::PLAIN.bold());
    if !view.shows_all(problem.width, problem.height) {
        // Right-aligned, over the end of a long title: where the view is matters more.
        let (x0, x1, y0, y1) = view.shown_cells(problem.width, problem.height);
        let range = format!(
            " scrolled: columns {x0}-{x1} of {}, rows {y0}-{y1} of {} ",
            problem.width, problem.height
        );
        let x = (w as i64 - range.len() as i64).max(0);
        canvas.text(x, 0, &range, Style::PLAIN.reverse());
    }

    let mut row = 1 + view.height as i64;
    for line in &status_lines {
        canvas.text(0, row, line, Style::PLAIN.bold());
        row += 1;
    }
    for line in &phrase_lines {
        canvas.text(0, row, &printable(line), Style::PLAIN);
        row += 1;
    }
    let (note, warn) = match &chrome.message {
        Some((m, warn)) => (m.clone(), *warn),
        None => (status.note, status.error),
    };
    let note_style = if warn && color {
        Style::fg(ERROR_COLOUR).bold()
    } else {
        Style::PLAIN
    };
    canvas.text(0, row, &printable(&note), note_style);
    row += 1;
    row += draw_strip(canvas, row, replay, state.frame(), color);
    for line in &legend_lines {
        canvas.text(0, row, line, Style::PLAIN);
        row += 1;
    }
    canvas.text(0, row, &chrome.help, Style::PLAIN.dim());
}

/// Packs the parts of `text` (split at `sep`) into at most `max_lines` lines of `width`
/// characters; when they do not all fit, the last line ends with `…`. A single part longer than
/// the width is left for the canvas to clip.
pub fn wrap_parts(text: &str, sep: &str, width: usize, max_lines: usize) -> Vec<String> {
    let mut lines: Vec<String> = vec![String::new()];
    let mut cut = false;
    for part in text.split(sep) {
        let last = lines.last_mut().expect("never empty");
        let len = last.chars().count();
        if len == 0 || len + sep.chars().count() + part.chars().count() <= width {
            if len > 0 {
                last.push_str(sep);
            }
            last.push_str(part);
        } else if lines.len() < max_lines {
            lines.push(part.to_string());
        } else {
            cut = true;
            break;
        }
    }
    if cut {
        let last = lines.last_mut().expect("never empty");
        let keep = width.saturating_sub(2).min(last.chars().count());
        *last = last.chars().take(keep).collect::<String>() + " …";
    }
    lines
}

/// The picture of a frame for a pipe: the whole board, then the status, phrases and note.
pub fn frame_text(replay: &Replay, state: &Frame, color: bool) -> String {
    let p = replay.problem();
    let view = Viewport::whole(p.width, p.height);
    let mut canvas = Canvas::new(view.width, view.height);
    draw_board(&mut canvas, state, &view, color);
    let status = status_text(replay, state);
    let mut out = canvas.to_text(color);
    out.push_str(&format!(
        "problem {} seed {}: {}\n{}\n{}\n",
        p.id,
        replay.seed(),
        status.line,
        status.phrases,
        status.note
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Phrases, Problem};
    use std::path::Path;

    fn problem() -> Problem {
        Problem::from_json(
            r#"{"id":7,"width":4,"height":4,"sourceLength":3,"sourceSeeds":[0],
            "filled":[{"x":0,"y":3},{"x":3,"y":2}],
            "units":[{"members":[{"x":0,"y":0},{"x":1,"y":0}],"pivot":{"x":0,"y":0}}]}"#,
            Path::new("t.json"),
        )
        .unwrap()
    }

    #[test]
    fn plain_board_puts_cells_where_the_hex_geometry_says() {
        let p = problem();
        let r = Replay::load(&p, 0, "", Phrases::official());
        let s = r.state_at(0);
        let text = frame_text(&r, &s, false);
        let lines: Vec<&str> = text.lines().collect();
        // The unit spawns at (1,0),(2,0) with its pivot at (1,0).
        assert_eq!(lines[0], "|. * @ . |");
        assert_eq!(lines[1], "| . . . .|");
        assert_eq!(lines[2], "|. . . # |");
        assert_eq!(lines[3], "| # . . .|");
        assert_eq!(lines[4], "----------");
        assert!(lines[5].contains("unit 1 of 3 · command 0 of 0 · score 0 = 0 move + 0 power"));
        assert!(!text.contains('\x1b'));
    }

    #[test]
    fn locked_units_keep_their_letter_and_the_score_adds_up() {
        let p = problem();
        // Down to the bottom: SE, SW, SE keeps the columns; the next SW locks on row 3.
        let r = Replay::load(&p, 0, "lalaei!", Phrases::official());
        let s = r.state_at(4);
        let text = frame_text(&r, &s, false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[3], "| # A A .|", "{text}");
        assert!(lines[5].contains("unit 2 of 3"), "{}", lines[5]);
        let end = r.state_at(r.len());
        let st = status_text(&r, &end);
        let e = crate::engine::replay(&p, 0, "lalaei!", &Phrases::official());
        assert!(
            st.line.contains(&format!(
                "score {} = {} move + {} power",
                e.score, e.move_score, e.power_score
            )),
            "{} vs {e:?}",
            st.line
        );
        assert_eq!(st.phrases, "phrases: \"ei!\"x1");
    }

    #[test]
    fn colour_output_uses_hexagons_and_escape_codes() {
        let p = problem();
        let r = Replay::load(&p, 0, "", Phrases::official());
        let text = frame_text(&r, &r.state_at(0), true);
        assert!(text.contains('⬡') && text.contains('⬢') && text.contains('●'));
        assert!(text.contains("\x1b[0;38;5;"));
    }

    #[test]
    fn a_screen_narrower_than_the_board_scrolls_to_the_unit_and_clips() {
        let p = Problem::from_json(
            r#"{"id":8,"width":60,"height":30,"sourceLength":3,"sourceSeeds":[0],"filled":[],
            "units":[{"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}}]}"#,
            Path::new("t.json"),
        )
        .unwrap();
        // Move the unit far east: 25 E then down.
        let text: String = "b".repeat(25) + "lalalalala";
        let r = Replay::load(&p, 0, &text, Phrases::official());
        let s = r.state_at(r.len());
        let mut canvas = Canvas::new(40, 20);
        let mut view = Viewport::whole(1, 1);
        draw_screen(
            &mut canvas,
            &r,
            &s,
            &Chrome::default(),
            &mut view,
            true,
            false,
        );
        assert!(view.scroll_x > 0 && view.scroll_y > 0, "{view:?}");
        let piece = s.game().piece_cells()[0];
        let col = cell_column(piece.x, piece.y) - view.scroll_x;
        let row = 1 + piece.y - view.scroll_y;
        assert_eq!(canvas.char_at(col as usize, row as usize), '*');
        assert!(
            canvas.row_text(0).contains("scrolled: columns"),
            "{}",
            canvas.row_text(0)
        );
        for y in 0..20 {
            assert!(canvas.row_output(y, true).chars().count() <= 40 + 200);
            assert!(canvas.row_text(y).chars().count() <= 40);
        }
    }

    #[test]
    fn long_status_lines_wrap_at_separators() {
        assert_eq!(
            wrap_parts("aa · bb · cc", " · ", 8, 2),
            vec!["aa · bb", "cc"]
        );
        assert_eq!(
            wrap_parts("aa · bb · cc", " · ", 20, 2),
            vec!["aa · bb · cc"]
        );
        assert_eq!(wrap_parts("a b c d e f", " ", 3, 2), vec!["a b", "c …"]);
    }

    #[test]
    fn the_strip_marks_the_current_command_and_spelt_phrases() {
        let p = problem();
        let r = Replay::load(&p, 0, "ei!l", Phrases::official());
        let mut canvas = Canvas::new(30, 2);
        // At frame 3, "ei!" is spelt and '!' is the current command.
        draw_strip(&mut canvas, 0, &r, 3, false);
        assert_eq!(canvas.row_text(0), "text: ei!l");
        assert_eq!(canvas.row_text(1), "      ==^");
        let mut canvas = Canvas::new(30, 2);
        draw_strip(&mut canvas, 0, &r, 2, false);
        assert_eq!(canvas.row_text(1), "       ^", "not yet spelt at frame 2");
    }
}
