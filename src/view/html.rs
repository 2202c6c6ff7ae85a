//! A replay as one self-contained HTML page (`hextris render --html`): the board drawn as SVG
//! hexagons, play/pause, speed, stepping by command and by unit in both directions, a seek slider,
//! a choice of seed, the ANSI viewer's keys and status, the command strip with the phrases of
//! power highlighted, and the error where the evaluator stops. Nothing is fetched: the script
//! ([`PAGE_JS`], `page.js` beside this file) and the data are inside the file.
//!
//! The page never applies the rules. Every frame comes from [`Replay`] (that is, from the
//! engine), written as per-command deltas the script only replays:
//! - `steps`: one character per command, a key into `codes`, a table of what the engine did with
//!   that command there: the command's name, and either the pivot's move and turn (`dx`, `dy`,
//!   `r` sixths of a turn clockwise), a lock, or an ignored command. The same command moves the
//!   pivot differently on even and odd rows; each case is its own code, measured, not derived.
//! - `locks`: per lock, the points and lines of the lock, the move score, lines and unit number
//!   after it, how the game stands, the board cells filled, the rows cleared (the rows above
//!   drop, as in the engine), the next unit in play (unit, pivot, orientation) or none, and the
//!   unit that locked (for its colour).
//! - `occ`: every occurrence of a phrase in the text, in the order they end: the phrase, where it
//!   ends and the power it adds (numbers in a compact form, [`push_number`]). An occurrence
//!   counts from the first frame whose spelt text reaches its end, as in [`Replay::counts_at`].
//! - `shapes`: per unit, orientation and pivot-row parity, the member cells relative to the pivot
//!   (the engine's [`crate::engine::Unit::shape`]), so the script places the unit in play by
//!   adding its pivot.
//!
//! The page stays small on the longest games (docs/viewing.md gives a size): one byte per
//! command, the text once, and a few numbers per lock and per phrase spelt.
//!
//! Coordinates follow [`crate::engine::hex`]: `(x, y)` = (column, row), row 0 on top, odd rows
//! shifted half a cell to the right; a cell is written as its index `y * width + x`.

use super::ansi::{last_note, status_text};
use super::replay::{command_name, Frame, Replay};
use super::svg::escape;
use super::{unit_colour, xterm_rgb, START_COLOUR};
use crate::engine::{Cell, End, Outcome, Status};
use serde_json::{json, Value};
use std::collections::HashMap;

/// The script of the page.
pub const PAGE_JS: &str = include_str!("page.js");

/// The characters of the `steps` string, one per distinct code. A game needs at most 20 codes
/// (6 commands locking, 6 ignored, W, E, CW, CCW, and SW and SE from even and odd rows).
const CODE_CHARS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// Playback speeds offered, in commands per second (those of the ANSI viewer).
const SPEEDS: [u32; 14] = super::term::SPEEDS;

/// One seed's game to put in the page, with the line that names it.
pub struct SeedReplay<'r, 'p> {
    pub replay: &'r Replay<'p>,
    pub heading: String,
}

fn rgb(c: u8) -> String {
    let (r, g, b) = xterm_rgb(c);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// How the game stands, as the ANSI viewer's status line says it; the index is the code the
/// page receives.
const STANDINGS: [&str; 3] = ["in progress", "out of units", "board full"];

fn standing(s: Status) -> usize {
    match s {
        Status::Playing => 0,
        Status::OutOfUnits => 1,
        Status::BoardFull => 2,
    }
}

/// The unit in play as `[unit, x, y, orientation]`, or `[]` when none is.
fn piece_json(state: &Frame) -> Value {
    match state.game().piece() {
        Some(p) => json!([p.unit, p.pivot.x, p.pivot.y, p.orient]),
        None => json!([]),
    }
}

/// The kind of a code: what the command did.
const MOVED: u8 = 0;
const LOCKED: u8 = 1;
const IGNORED: u8 = 2;

/// The codes of the commands of all the games in the page.
#[derive(Default)]
struct Codes {
    index: HashMap<(&'static str, u8, i64, i64, u8), u8>,
    table: Vec<Value>,
}

impl Codes {
    fn get(&mut self, name: &'static str, kind: u8, dx: i64, dy: i64, r: u8) -> char {
        let next = self.table.len();
        let k = *self
            .index
            .entry((name, kind, dx, dy, r))
            .or_insert_with(|| {
                self.table
                    .push(json!({"c": name, "k": kind, "dx": dx, "dy": dy, "r": r}));
                next as u8
            });
        // A command moves the pivot by at most one cell or turns it once, so the table stays
        // far below the alphabet; more codes would be an engine bug.
        CODE_CHARS[k as usize] as char
    }
}

/// The digits of [`push_number`]: 64 characters that JSON strings hold unescaped.
const DIGITS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Appends a number in a compact form: base-32 digits, lowest first, each written as one of
/// [`DIGITS`]; digits 32 and up mean that more digits follow (so 0..31 take one character).
fn push_number(out: &mut String, mut v: usize) {
    loop {
        let digit = v & 31;
        v >>= 5;
        if v == 0 {
            out.push(DIGITS[digit] as char);
            return;
        }
        out.push(DIGITS[digit | 32] as char);
    }
}

/// The data of one game: its frames as deltas, its text and phrases.
fn game_json(game: &SeedReplay, codes: &mut Codes) -> Value {
    let r = game.replay;
    let p = r.problem();
    let width = p.width as i64;
    let text = r.text();
    let mut steps = String::with_capacity(r.len());
    let mut locks = Vec::new();
    let mut s = r.state_at(0);
    let start = json!({
        "piece": piece_json(&s),
        "standing": standing(s.game().status()),
        "unit": s.unit_number(),
        "note": last_note(&s),
    });
    for _ in 0..r.len() {
        let before = s.game().piece();
        let owners = s.owners().clone();
        let lines_before = s.lines();
        r.forward(&mut s);
        let (cmd, out) = s.last().expect("a frame after a command has one");
        let name = command_name(cmd);
        let code = match out {
            Outcome::Moved => {
                let (a, b) = (
                    before.expect("a unit moved"),
                    s.game().piece().expect("a unit moved"),
                );
                let turn = (b.orient + 6 - a.orient) % 6;
                codes.get(
                    name,
                    MOVED,
                    b.pivot.x - a.pivot.x,
                    b.pivot.y - a.pivot.y,
                    turn,
                )
            }
            Outcome::Ignored => codes.get(name, IGNORED, 0, 0, 0),
            Outcome::Locked { lines, points } => {
                let piece = before.expect("only a unit in play locks");
                let cells: Vec<Cell> = p.units[piece.unit]
                    .cells(piece.pivot, piece.orient)
                    .collect();
                let filled: Vec<i64> = cells.iter().map(|c| c.y * width + c.x).collect();
                // The rows the lock fills up: every cell filled before or by the unit.
                let rows: Vec<i64> = (0..p.height as i64)
                    .filter(|&y| {
                        (0..width).all(|x| {
                            owners.get(x, y) != super::Owner::Empty
                                || cells.contains(&Cell::new(x, y))
                        })
                    })
                    .collect();
                debug_assert_eq!(rows.len(), lines);
                debug_assert_eq!(s.lines() - lines_before, lines as u64);
                locks.push(json!([
                    points,
                    lines,
                    s.game().move_score(),
                    s.lines(),
                    s.unit_number(),
                    standing(s.game().status()),
                    filled,
                    rows,
                    piece_json(&s),
                    piece.unit,
                ]));
                codes.get(name, LOCKED, 0, 0, 0)
            }
        };
        steps.push(code);
    }
    // Characters that are not commands (tab, newline, return): the script needs them to find
    // each command's character in the text.
    let mut skips = Vec::new();
    let mut next = 0;
    for played in r.played() {
        skips.extend(next..played.char_index);
        next = played.char_index + 1;
    }
    skips.extend(next..text.len());
    // Occurrences in the order they end, each as three numbers: the phrase, how far its end is
    // past the previous one's, and the power it adds (the engine's score of the counts with it
    // minus without it), so the power at a frame is the sum over the occurrences counted there.
    let mut occ = String::new();
    let mut counts = vec![0u32; r.phrases().len()];
    let (mut last_end, mut power) = (0, 0);
    for o in r.occurrences(r.len(), 0, text.len()) {
        counts[o.phrase] += 1;
        let now = r.phrases().score(&counts);
        for v in [o.phrase, o.end - last_end, (now - power) as usize] {
            push_number(&mut occ, v);
        }
        (last_end, power) = (o.end, now);
    }
    debug_assert_eq!(power, r.power_at(r.len()));
    let end = r.len();
    let last = r.state_at(end);
    let stop = r.stop().map(|_| {
        let st = status_text(r, &last);
        json!({"note": st.note, "char": r.stop().and_then(|(_, c)| c).map(|c| c.to_string())})
    });
    let end_word = match r.end() {
        End::Error { .. } => "error".to_string(),
        e => e.to_string(),
    };
    json!({
        "seed": r.seed(),
        "heading": game.heading,
        "text": text.iter().collect::<String>(),
        "skips": skips,
        "steps": steps,
        "locks": locks,
        "occ": occ,
        "start": start,
        "stop": stop,
        "end": end_word,
        "score": r.final_score(),
    })
}

/// The page for the games of one problem (one per seed); `first` is the index of the game shown
/// first and `step` its first frame.
pub fn render(games: &[SeedReplay], first: usize, step: usize, title: &str) -> String {
    let r = games[first].replay;
    let p = r.problem();
    let mut codes = Codes::default();
    let seeds: Vec<Value> = games.iter().map(|g| game_json(g, &mut codes)).collect();
    let units: Vec<Vec<Vec<Vec<Value>>>> = p
        .units
        .iter()
        .map(|u| {
            (0..6u8)
                .map(|o| {
                    [0, 1]
                        .iter()
                        .map(|&parity| {
                            u.shape(o, parity)
                                .cells
                                .iter()
                                .map(|&(dx, dy)| json!([dx, dy]))
                                .collect::<Vec<_>>()
                        })
                        .collect::<Vec<_>>()
                })
                .collect::<Vec<_>>()
        })
        .collect();
    let start_cells: Vec<i64> = p
        .board
        .filled_cells()
        .map(|c| c.y * p.width as i64 + c.x)
        .collect();
    let phrases: Vec<String> = r
        .phrases()
        .iter()
        .map(|ph| format!("{:?}", super::canvas::printable(ph)))
        .collect();
    let phrase_lengths: Vec<usize> = r.phrases().iter().map(|ph| ph.chars().count()).collect();
    let data = json!({
        "problem": {"id": p.id, "width": p.width, "height": p.height, "units": p.source_length},
        "shapes": units,
        "startCells": start_cells,
        "phrases": phrases,
        "phraseLengths": phrase_lengths,
        "codes": codes.table,
        "standings": STANDINGS,
        "colours": {
            "units": (0..super::UNIT_COLOURS.len()).map(|k| rgb(unit_colour(k))).collect::<Vec<_>>(),
            "start": rgb(START_COLOUR),
        },
        "speeds": SPEEDS,
        "first": first,
        "step": step,
        "games": seeds,
    });
    // The data sits in a script element: no "<" may appear in it, or "</script" could end it
    // early. JSON text has "<" only inside strings, where the escape means the same.
    let data = serde_json::to_string(&data)
        .expect("JSON values serialise")
        .replace('<', "\\u003c");
    let mut out = String::with_capacity(data.len() + PAGE_JS.len() + 4096);
    out.push_str(HEAD);
    out.push_str(&format!("<title>{}</title>\n", escape(title)));
    out.push_str(STYLE);
    out.push_str("</head>\n<body>\n");
    out.push_str(&format!("<h1 id=\"title\">{}</h1>\n", escape(title)));
    out.push_str(BODY);
    out.push_str("<script id=\"data\" type=\"application/json\">");
    out.push_str(&data);
    out.push_str("</script>\n<script>\n");
    out.push_str(PAGE_JS);
    out.push_str("</script>\n</body>\n</html>\n");
    out
}

/// The start of a page, up to its title (the report page shares it).
pub(crate) const HEAD: &str =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";

const STYLE: &str = r#"<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 12px 16px; color: #222; background: #fff; }
h1 { font-size: 16px; margin: 0 0 6px; }
#heading { color: #555; margin-bottom: 6px; }
#controls { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 6px 0; }
#controls button { font-size: 15px; min-width: 34px; padding: 2px 6px; }
#seek { flex: 1 1 260px; }
#board { display: block; width: 100%; max-width: 1100px; max-height: 68vh; }
#board polygon { stroke: #fff; stroke-width: 1; }
#outline { fill: none; stroke: #111; stroke-width: 2.5; stroke-linejoin: round; }
#pivot { fill: #fff; stroke: #111; stroke-width: 2; }
.mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 13px; }
#status { font-weight: bold; }
#note.error { color: #c00; font-weight: bold; }
#strip { white-space: pre; overflow: hidden; border: 1px solid #ddd; padding: 3px 4px; margin: 4px 0; }
#strip .ph { color: #b35c00; font-weight: bold; text-decoration: underline; }
#strip .todo { opacity: 0.45; }
#strip .cur { background: #222; color: #fff; }
#strip .err { background: #c00; color: #fff; font-weight: bold; }
#help { color: #666; font-size: 12px; margin-top: 6px; }
</style>
"#;

const BODY: &str = r#"<div id="heading" class="mono"></div>
<svg id="board" xmlns="http://www.w3.org/2000/svg"><g id="cells"></g><path id="outline" d=""/><circle id="pivot" r="0"/></svg>
<div id="controls">
<button id="start" title="start (g, Home)">|◀</button>
<button id="unitback" title="previous unit (k, ↑)">◀◀</button>
<button id="back" title="one command back (h, ←)">◀</button>
<button id="play" title="play / pause (space, p)">play</button>
<button id="fwd" title="one command on (l, →)">▶</button>
<button id="unitfwd" title="next unit (j, ↓)">▶▶</button>
<button id="end" title="end (G, End)">▶|</button>
<input id="seek" type="range" min="0" max="0" value="0" title="seek">
<label>speed <select id="speed" title="commands a second (+, -)"></select></label>
<label>seed <select id="seed"></select></label>
</div>
<div id="status" class="mono"></div>
<div id="phrases" class="mono"></div>
<div id="note" class="mono"></div>
<div id="strip" class="mono"></div>
<div id="help">Keys: → / l and ← / h one command, ↓ / j and ↑ / k one unit, g / G (Home / End) start and end, space / p play or pause, + / - speed. The address can say where to open: #seed=S&amp;step=N.</div>
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Phrases, Problem};

    fn problem() -> Problem {
        crate::testkit::two_unit_problem(6)
    }

    fn data_of(page: &str) -> Value {
        let from = page.find("application/json\">").unwrap() + "application/json\">".len();
        let to = from + page[from..].find("</script>").unwrap();
        serde_json::from_str(&page[from..to]).unwrap()
    }

    #[test]
    fn the_page_holds_one_code_per_command_and_one_record_per_lock() {
        let p = problem();
        let text = "lalalal\nalaei! ia! ia!ll";
        let r = Replay::load(&p, 0, text, Phrases::official());
        let games = [SeedReplay {
            replay: &r,
            heading: "a <heading>".into(),
        }];
        let page = render(&games, 0, 3, "t </script> & co");
        assert!(page.contains("t &lt;/script&gt; &amp; co"));
        assert_eq!(page.matches("</script>").count(), 2, "data and script only");
        let d = data_of(&page);
        let g = &d["games"][0];
        assert_eq!(g["steps"].as_str().unwrap().chars().count(), r.len());
        let locked = r.played().iter().filter(|pl| pl.locked).count();
        assert_eq!(g["locks"].as_array().unwrap().len(), locked);
        assert!(locked > 0);
        assert_eq!(
            g["skips"],
            json!([7]),
            "the newline is the only non-command"
        );
        assert_eq!(g["score"], r.final_score());
        assert_eq!(d["step"], 3);
        // Every code says what the engine did: a lock code exactly where a command locked.
        let codes = d["codes"].as_array().unwrap();
        for (k, c) in g["steps"].as_str().unwrap().bytes().enumerate() {
            let i = CODE_CHARS.iter().position(|&x| x == c).unwrap();
            assert_eq!(codes[i]["k"] == LOCKED, r.played()[k].locked, "command {k}");
        }
        // The power the occurrences add up to is the replay's power at the end.
        let occ = read_numbers(g["occ"].as_str().unwrap());
        assert!(!occ.is_empty() && occ.len().is_multiple_of(3));
        let power: usize = occ.chunks(3).map(|o| o[2]).sum();
        assert_eq!(power as u64, r.power_at(r.len()));
        assert!(power > 0);
    }

    /// The inverse of [`push_number`], as the page reads it.
    fn read_numbers(s: &str) -> Vec<usize> {
        let mut out = Vec::new();
        let (mut v, mut shift) = (0, 0);
        for c in s.bytes() {
            let d = DIGITS.iter().position(|&x| x == c).unwrap();
            v |= (d & 31) << shift;
            shift += 5;
            if d < 32 {
                out.push(v);
                (v, shift) = (0, 0);
            }
        }
        out
    }

    #[test]
    fn numbers_round_trip() {
        let values = [0, 1, 31, 32, 1023, 1024, 123_456_789];
        let mut s = String::new();
        for v in values {
            push_number(&mut s, v);
        }
        assert_eq!(read_numbers(&s), values);
        assert_eq!(s.len(), 1 + 1 + 1 + 2 + 2 + 3 + 6);
    }

    #[test]
    fn an_error_is_described_with_its_character() {
        let p = problem();
        let r = Replay::load(&p, 0, "bbp!", Phrases::official());
        let games = [SeedReplay {
            replay: &r,
            heading: String::new(),
        }];
        let d = data_of(&render(&games, 0, 0, "t"));
        let stop = &d["games"][0]["stop"];
        assert_eq!(stop["char"], "p");
        assert!(stop["note"].as_str().unwrap().starts_with("stopped:"));
        assert_eq!(d["games"][0]["end"], "error");
        assert_eq!(d["games"][0]["score"], 0);
    }
}
