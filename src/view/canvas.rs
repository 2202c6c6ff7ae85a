//! A grid of styled characters the size of the picture (a terminal screen, or a whole board for
//! piped output), and its conversion to text with or without ANSI escape codes.
//!
//! Everything drawn goes through [`Canvas::put`], which clips to the grid: a board wider or taller
//! than the screen is cut at the edge, never wrapped, so a line of output is never longer than the
//! canvas. Every character drawn must be one terminal column wide; text that may hold anything
//! else (phrases, solution characters) goes through [`printable`] first.

/// The look of one character: 256-colour indices and attributes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    pub fg: Option<u8>,
    pub bg: Option<u8>,
    pub bold: bool,
    pub dim: bool,
    pub reverse: bool,
    pub underline: bool,
}

impl Style {
    pub const PLAIN: Style = Style {
        fg: None,
        bg: None,
        bold: false,
        dim: false,
        reverse: false,
        underline: false,
    };

    pub const fn fg(c: u8) -> Style {
        Style {
            fg: Some(c),
            ..Style::PLAIN
        }
    }

    pub const fn bold(self) -> Style {
        Style { bold: true, ..self }
    }

    pub const fn dim(self) -> Style {
        Style { dim: true, ..self }
    }

    pub const fn reverse(self) -> Style {
        Style {
            reverse: true,
            ..self
        }
    }

    pub const fn underline(self) -> Style {
        Style {
            underline: true,
            ..self
        }
    }

    pub const fn on(self, bg: u8) -> Style {
        Style {
            bg: Some(bg),
            ..self
        }
    }

    /// The SGR escape sequence that sets this style from a reset.
    fn sgr(self) -> String {
        let mut codes: Vec<String> = vec!["0".into()];
        if self.bold {
            codes.push("1".into());
        }
        if self.dim {
            codes.push("2".into());
        }
        if self.underline {
            codes.push("4".into());
        }
        if self.reverse {
            codes.push("7".into());
        }
        if let Some(c) = self.fg {
            codes.push(format!("38;5;{c}"));
        }
        if let Some(c) = self.bg {
            codes.push(format!("48;5;{c}"));
        }
        format!("\x1b[{}m", codes.join(";"))
    }
}

/// A character grid of a fixed size.
#[derive(Clone, Debug)]
pub struct Canvas {
    width: usize,
    height: usize,
    cells: Vec<(char, Style)>,
}

impl Canvas {
    pub fn new(width: usize, height: usize) -> Canvas {
        Canvas {
            width,
            height,
            cells: vec![(' ', Style::PLAIN); width * height],
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// Sets one character; positions off the canvas are ignored (this is the clipping).
    pub fn put(&mut self, x: i64, y: i64, c: char, style: Style) {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return;
        }
        self.cells[y as usize * self.width + x as usize] = (c, style);
    }

    /// Writes text from column `x` of row `y`, clipped; returns the column after it.
    pub fn text(&mut self, x: i64, y: i64, s: &str, style: Style) -> i64 {
        let mut x = x;
        for c in s.chars() {
            self.put(x, y, c, style);
            x += 1;
        }
        x
    }

    /// The character at a position (a space off the canvas).
    pub fn char_at(&self, x: usize, y: usize) -> char {
        self.get(x, y).0
    }

    /// The character and style at a position.
    pub fn get(&self, x: usize, y: usize) -> (char, Style) {
        if x >= self.width || y >= self.height {
            return (' ', Style::PLAIN);
        }
        self.cells[y * self.width + x]
    }

    /// Row `y` without styles or trailing spaces.
    pub fn row_text(&self, y: usize) -> String {
        let row: String = (0..self.width).map(|x| self.char_at(x, y)).collect();
        row.trim_end().to_string()
    }

    /// Row `y` as output: with `color`, SGR codes where the style changes and a reset at the
    /// end; without, plain characters. Trailing unstyled spaces are dropped either way.
    pub fn row_output(&self, y: usize, color: bool) -> String {
        let row = &self.cells[y * self.width..(y + 1) * self.width];
        let used = row
            .iter()
            .rposition(|&(c, s)| c != ' ' || (color && s != Style::PLAIN))
            .map_or(0, |i| i + 1);
        let mut out = String::new();
        let mut current = Style::PLAIN;
        for &(c, s) in &row[..used] {
            if color && s != current {
                out.push_str(&s.sgr());
                current = s;
            }
            out.push(c);
        }
        if color && current != Style::PLAIN {
            out.push_str("\x1b[0m");
        }
        out
    }

    /// The whole canvas as lines, each ending in a newline.
    pub fn to_text(&self, color: bool) -> String {
        let mut out = String::new();
        for y in 0..self.height {
            out.push_str(&self.row_output(y, color));
            out.push('\n');
        }
        out
    }
}

/// The non-ASCII characters the drawings themselves use, all one column wide.
const OWN_GLYPHS: &str = "·…←→↑↓⬢⬡●✗│─";

/// `s` with every character that might not be one column wide (controls, other non-ASCII)
/// replaced by `?`, so that it can be drawn on a canvas.
pub fn printable(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c == ' ' || c.is_ascii_graphic() || OWN_GLYPHS.contains(c) {
                c
            } else {
                '?'
            }
        })
        .collect()
}

/// `s` cut to at most `width` characters, its last one an ellipsis (`…`) when it was cut, so
/// that a reader can tell a cut line from a whole one.
pub fn ellipsize(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        return s.to_string();
    }
    let mut out: String = s.chars().take(width.saturating_sub(1)).collect();
    if width > 0 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ellipsize_cuts_with_an_ellipsis_only_when_needed() {
        assert_eq!(ellipsize("hextris", 7), "hextris");
        assert_eq!(ellipsize("hextris", 8), "hextris");
        assert_eq!(ellipsize("hextris", 4), "hex…");
        assert_eq!(ellipsize("hextris", 1), "…");
        assert_eq!(ellipsize("hextris", 0), "");
        assert_eq!(ellipsize("ééééé", 3).chars().count(), 3);
    }

    #[test]
    fn clipping_and_plain_output() {
        let mut c = Canvas::new(4, 2);
        assert_eq!(c.text(2, 0, "abcdef", Style::PLAIN), 8);
        c.put(-1, 1, 'x', Style::PLAIN);
        c.put(0, 5, 'x', Style::PLAIN);
        assert_eq!(c.to_text(false), "  ab\n\n");
        assert_eq!(c.row_text(0), "  ab");
    }

    #[test]
    fn colour_output_changes_style_only_where_needed() {
        let mut c = Canvas::new(5, 1);
        c.text(0, 0, "ab", Style::fg(196));
        c.put(2, 0, 'c', Style::PLAIN);
        let out = c.row_output(0, true);
        assert_eq!(out, "\x1b[0;38;5;196mab\x1b[0mc");
        assert_eq!(c.row_output(0, false), "abc");
        assert!(!c.to_text(false).contains('\x1b'));
    }

    #[test]
    fn printable_replaces_wide_and_control_characters() {
        assert_eq!(printable("ia! ia!\n\u{212A}é·"), "ia! ia!???·");
    }
}
