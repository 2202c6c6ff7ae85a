//! The headless model of what the viewer and the manual player step through: the frames of one
//! game, where frame `i` is the state after the first `i` commands of a solution (frame 0 is the
//! start, with the first unit spawned).
//!
//! The rules are never re-derived here: every frame is produced by [`Game::step`]. The model only
//! adds what the engine does not keep because the game does not need it: which unit filled each
//! board cell (for colours), the lines cleared so far, the command that led to a frame, and where
//! the phrases of power occur in the text typed so far.
//!
//! Invariants:
//! - `played` holds the commands that the engine accepted, in order, each with its character's
//!   index in `text`; `text` never extends past a command that was refused or caused an error.
//! - `checkpoints[k]` is the state at frame `k * stride`, and the last checkpoint is at or before
//!   the last frame; any frame is one checkpoint clone plus fewer than `stride` engine steps away.
//!   When the checkpoints outgrow [`CHECKPOINT_BUDGET`], `stride` doubles and every other one is
//!   dropped, so memory stays bounded on huge boards and long solutions.
//! - The cells marked filled in an [`Owners`] grid are exactly the filled cells of the engine's
//!   board of the same frame (checked in debug builds and by the tests).
//!
//! Coordinates follow [`crate::engine::hex`]: `(x, y)` = (column, row), row 0 at the top, odd
//! rows drawn shifted half a cell to the right.

use crate::engine::command::simple_lower;
use crate::engine::{Cell, Status};
use crate::engine::{Command, Decoded, End, ErrorKind, Game, GameError, Outcome, Phrases, Problem};

/// Roughly how many bytes of checkpoints a replay may keep before it thins them out.
pub const CHECKPOINT_BUDGET: usize = 128 << 20;

/// The first checkpoint spacing, in commands.
const FIRST_STRIDE: usize = 64;

/// Who filled a board cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    Empty,
    /// Filled in the problem, before the first unit.
    Start,
    /// Filled by a unit with this index in the problem's unit list.
    Unit(usize),
}

/// Which unit filled each cell of the board; kept beside the engine's board, which knows only
/// filled or empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Owners {
    width: usize,
    height: usize,
    /// Row-major; 0 is empty, 1 is filled at the start, `k + 2` is unit `k`.
    cells: Vec<u32>,
}

impl Owners {
    /// The owners of a problem's starting board.
    pub fn new(problem: &Problem) -> Owners {
        let (width, height) = (problem.width, problem.height);
        let mut cells = vec![0; width * height];
        for c in problem.board.filled_cells() {
            cells[c.y as usize * width + c.x as usize] = 1;
        }
        Owners {
            width,
            height,
            cells,
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// The owner of a cell; cells off the board are empty here (the engine counts them as
    /// filled, but there is nothing to draw).
    pub fn get(&self, x: i64, y: i64) -> Owner {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return Owner::Empty;
        }
        match self.cells[y as usize * self.width + x as usize] {
            0 => Owner::Empty,
            1 => Owner::Start,
            k => Owner::Unit(k as usize - 2),
        }
    }

    /// Marks the cells of a locked unit, then removes the full rows the way the engine's board
    /// does (the rows above drop, empty rows come in at the top). Returns the rows removed.
    fn lock(&mut self, cells: impl Iterator<Item = Cell>, unit: usize) -> usize {
        // Unit indices past u32 cannot come from a real problem; they share the last colour.
        let mark = u32::try_from(unit)
            .unwrap_or(u32::MAX - 2)
            .saturating_add(2);
        for c in cells {
            self.cells[c.y as usize * self.width + c.x as usize] = mark;
        }
        let w = self.width;
        let mut write = self.height;
        for read in (0..self.height).rev() {
            if self.cells[read * w..(read + 1) * w].iter().all(|&o| o != 0) {
                continue;
            }
            write -= 1;
            if write != read {
                self.cells.copy_within(read * w..(read + 1) * w, write * w);
            }
        }
        self.cells[..write * w].fill(0);
        write
    }

    /// Whether the filled cells here are exactly the filled cells of `game`'s board.
    pub fn matches(&self, game: &Game) -> bool {
        let b = game.board();
        (0..self.height as i64).all(|y| {
            (0..self.width as i64).all(|x| (self.get(x, y) != Owner::Empty) == b.is_filled(x, y))
        })
    }
}

/// The game at one frame of a replay (the engine's game, with what the viewer adds to it: who
/// filled each cell, the frame's index, the lines cleared and the last command).
#[derive(Clone, Debug)]
pub struct Frame<'p> {
    game: Game<'p>,
    owners: Owners,
    frame: usize,
    lines: u64,
    last: Option<(Command, Outcome)>,
}

impl<'p> Frame<'p> {
    fn start(problem: &'p Problem, seed: u32) -> Frame<'p> {
        Frame {
            game: Game::new(problem, seed),
            owners: Owners::new(problem),
            frame: 0,
            lines: 0,
            last: None,
        }
    }

    /// The engine's game at this frame.
    pub fn game(&self) -> &Game<'p> {
        &self.game
    }

    /// Who filled each board cell.
    pub fn owners(&self) -> &Owners {
        &self.owners
    }

    /// Commands played to reach this frame.
    pub fn frame(&self) -> usize {
        self.frame
    }

    /// Lines cleared so far.
    pub fn lines(&self) -> u64 {
        self.lines
    }

    /// The command that led to this frame and what it did (none at frame 0).
    pub fn last(&self) -> Option<(Command, Outcome)> {
        self.last
    }

    /// The 1-based number of the unit in play, or of the last unit when none is in play.
    pub fn unit_number(&self) -> u64 {
        self.game.locked() as u64 + self.game.piece().is_some() as u64
    }

    /// Plays one command. On an error the state may be left inconsistent (the engine counts the
    /// offending command), so callers rebuild it (see [`Replay::try_push`]).
    fn advance(&mut self, cmd: Command) -> Result<Outcome, GameError> {
        let before = self.game.piece();
        let out = self.game.step(cmd)?;
        if let Outcome::Locked { lines, .. } = out {
            let piece = before.expect("only a unit in play can lock");
            let unit = &self.game.problem().units[piece.unit];
            let cleared = self
                .owners
                .lock(unit.cells(piece.pivot, piece.orient), piece.unit);
            debug_assert_eq!(cleared, lines, "owners cleared other rows than the engine");
            self.lines += lines as u64;
        }
        debug_assert!(self.owners.matches(&self.game));
        self.frame += 1;
        self.last = Some((cmd, out));
        Ok(out)
    }

    /// Rough heap size of a state, for the checkpoint budget.
    fn bytes(&self) -> usize {
        let b = self.game.board();
        self.owners.cells.len() * 4 + b.height() * (b.width() / 8 + 16) + 256
    }
}

/// A command the engine accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub cmd: Command,
    /// Index of its character in the text (in characters, not bytes).
    pub char_index: usize,
    /// Whether it locked the unit in play.
    pub locked: bool,
}

/// What [`Replay::try_push`] did with a character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pushed {
    /// `\t`, `\n` or `\r`: kept in the text, no command.
    Ignored,
    /// A command the engine accepted.
    Played(Command, Outcome),
}

/// Why a character was not accepted. The replay is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// Not a command character.
    InvalidCharacter(char),
    /// The engine's error for this command.
    Game(Command, GameError),
    /// The replay stopped at an error before; nothing more can be added.
    Stopped,
}

impl Refused {
    /// The evaluator's kind of error, if the character were sent anyway.
    pub fn kind(self) -> Option<ErrorKind> {
        match self {
            Refused::InvalidCharacter(c) => Some(ErrorKind::InvalidCharacter(c)),
            Refused::Game(_, e) => Some(e.into()),
            Refused::Stopped => None,
        }
    }

    /// One sentence for the player.
    pub fn reason(self) -> String {
        match self {
            Refused::InvalidCharacter(c) => {
                format!("{c:?} is not a command character: the solution would score 0")
            }
            Refused::Game(cmd, GameError::RepeatedPosition) => format!(
                "{} would return the unit to a position it has held (repeated position): the \
                 solution would score 0",
                command_name(cmd)
            ),
            Refused::Game(cmd, GameError::CommandAfterEnd) => format!(
                "the game is over: {} would be a command after the end, and the solution would \
                 score 0",
                command_name(cmd)
            ),
            Refused::Stopped => "the replay stopped at an error".into(),
        }
    }
}

/// The short name of a command: `W`, `E`, `SW`, `SE`, `CW`, `CCW`.
pub fn command_name(cmd: Command) -> &'static str {
    match cmd {
        Command::W => "W",
        Command::E => "E",
        Command::SW => "SW",
        Command::SE => "SE",
        Command::CW => "CW",
        Command::CCW => "CCW",
    }
}

/// One occurrence of a phrase of power: characters `start..end` of the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occurrence {
    /// Index in the phrase list.
    pub phrase: usize,
    pub start: usize,
    pub end: usize,
}

/// The occurrences of the phrases in a growing text, found as each character comes in. This is
/// the evaluator's matching (case-insensitive per character, every start position, overlaps
/// counted) done incrementally; the tests check it against [`Phrases::count`] on prefixes.
#[derive(Clone, Debug)]
struct Spelt {
    phrases: Vec<Vec<char>>,
    lowered: Vec<char>,
    /// Sorted by `end`, since occurrences are found when their last character arrives.
    found: Vec<Occurrence>,
    /// Per phrase, the `end` of each occurrence, sorted.
    ends: Vec<Vec<usize>>,
    longest: usize,
}

impl Spelt {
    fn new(phrases: &Phrases) -> Spelt {
        let list: Vec<Vec<char>> = phrases.iter().map(|p| p.chars().collect()).collect();
        Spelt {
            longest: list.iter().map(Vec::len).max().unwrap_or(0),
            ends: vec![Vec::new(); list.len()],
            phrases: list,
            lowered: Vec::new(),
            found: Vec::new(),
        }
    }

    fn push(&mut self, c: char) {
        self.lowered.push(simple_lower(c));
        let n = self.lowered.len();
        for (i, p) in self.phrases.iter().enumerate() {
            if p.len() <= n && self.lowered[n - p.len()..] == p[..] {
                self.found.push(Occurrence {
                    phrase: i,
                    start: n - p.len(),
                    end: n,
                });
                self.ends[i].push(n);
            }
        }
    }

    fn truncate(&mut self, n: usize) {
        self.lowered.truncate(n);
        while self.found.last().is_some_and(|o| o.end > n) {
            let o = self.found.pop().expect("checked");
            self.ends[o.phrase].pop();
        }
    }

    /// Occurrences of each phrase within the first `prefix` characters.
    fn counts(&self, prefix: usize) -> Vec<u32> {
        self.ends
            .iter()
            .map(|e| e.partition_point(|&end| end <= prefix) as u32)
            .collect()
    }

    /// Occurrences within the first `prefix` characters that overlap characters `from..to`.
    fn overlapping(
        &self,
        prefix: usize,
        from: usize,
        to: usize,
    ) -> impl Iterator<Item = &Occurrence> {
        let first = self.found.partition_point(|o| o.end <= from);
        let limit = to.saturating_add(self.longest);
        self.found[first..]
            .iter()
            .take_while(move |o| o.end < limit && o.end <= prefix)
            .filter(move |o| o.start < to)
    }
}

/// The frames of one game: built from a whole solution for the viewer ([`Replay::load`]) or grown
/// command by command, with undo, by the manual player ([`Replay::try_push`], [`Replay::undo`]).
#[derive(Clone, Debug)]
pub struct Replay<'p> {
    problem: &'p Problem,
    seed: u32,
    phrases: Phrases,
    text: Vec<char>,
    played: Vec<Played>,
    /// Frames right after a lock: where a new unit comes into play.
    lock_frames: Vec<usize>,
    checkpoints: Vec<Frame<'p>>,
    stride: usize,
    /// Bytes of checkpoints kept before thinning ([`CHECKPOINT_BUDGET`]; smaller in tests).
    budget: usize,
    tail: Frame<'p>,
    spelt: Spelt,
    /// The error that ended a loaded solution, and the character that caused it.
    stop: Option<(End, Option<char>)>,
}

impl<'p> Replay<'p> {
    /// An empty replay: frame 0 only, nothing typed.
    pub fn new(problem: &'p Problem, seed: u32, phrases: Phrases) -> Replay<'p> {
        let start = Frame::start(problem, seed);
        Replay {
            problem,
            seed,
            spelt: Spelt::new(&phrases),
            phrases,
            text: Vec::new(),
            played: Vec::new(),
            lock_frames: Vec::new(),
            checkpoints: vec![start.clone()],
            stride: FIRST_STRIDE,
            budget: CHECKPOINT_BUDGET,
            tail: start,
            stop: None,
        }
    }

    /// The replay of a whole solution, as far as the evaluator would play it: it stops at the
    /// first error, which [`Replay::stop`] then describes. A seed the problem does not list is
    /// such an error before the first command.
    pub fn load(problem: &'p Problem, seed: u32, text: &str, phrases: Phrases) -> Replay<'p> {
        let mut r = Replay::new(problem, seed, phrases);
        if !problem.seeds.contains(&seed) {
            let end = End::Error {
                kind: ErrorKind::SeedNotInProblem,
                command: 0,
                char_index: 0,
            };
            r.stop = Some((end, None));
            return r;
        }
        for (char_index, c) in text.chars().enumerate() {
            if let Err(refused) = r.try_push(c) {
                let kind = refused.kind().expect("a fresh replay has not stopped");
                let end = End::Error {
                    kind,
                    command: r.played.len() as u32,
                    char_index,
                };
                r.stop = Some((end, Some(c)));
                break;
            }
        }
        r
    }

    /// Adds one character: a command the engine accepts is played, an ignored character is
    /// kept in the text, anything else is refused and changes nothing.
    pub fn try_push(&mut self, c: char) -> Result<Pushed, Refused> {
        if self.stop.is_some() {
            return Err(Refused::Stopped);
        }
        let cmd = match Command::decode(c) {
            Decoded::Command(cmd) => cmd,
            Decoded::Ignored => {
                self.text.push(c);
                self.spelt.push(c);
                return Ok(Pushed::Ignored);
            }
            Decoded::Invalid => return Err(Refused::InvalidCharacter(c)),
        };
        let out = match self.tail.advance(cmd) {
            Ok(out) => out,
            Err(e) => {
                // The engine may have counted the refused command; rebuild the last frame.
                self.tail = self.replay_to(self.played.len());
                return Err(Refused::Game(cmd, e));
            }
        };
        let locked = matches!(out, Outcome::Locked { .. });
        self.played.push(Played {
            cmd,
            char_index: self.text.len(),
            locked,
        });
        self.text.push(c);
        self.spelt.push(c);
        if locked {
            self.lock_frames.push(self.played.len());
        }
        if self.played.len().is_multiple_of(self.stride) {
            self.checkpoints.push(self.tail.clone());
            self.thin_checkpoints();
        }
        Ok(Pushed::Played(cmd, out))
    }

    fn thin_checkpoints(&mut self) {
        let per = self.tail.bytes();
        while self.checkpoints.len() > 2 && self.checkpoints.len() * per > self.budget {
            self.stride *= 2;
            let mut i = 0;
            self.checkpoints.retain(|_| {
                i += 1;
                (i - 1) % 2 == 0
            });
        }
    }

    /// Removes the last command (and any ignored characters typed after it); returns it, or
    /// `None` when there is nothing to undo.
    pub fn undo(&mut self) -> Option<Command> {
        let last = self.played.pop()?;
        self.text.truncate(last.char_index);
        self.spelt.truncate(last.char_index);
        if self.lock_frames.last() == Some(&(self.played.len() + 1)) {
            self.lock_frames.pop();
        }
        let n = self.played.len();
        self.checkpoints.truncate(n / self.stride + 1);
        self.tail = self.replay_to(n);
        Some(last.cmd)
    }

    /// The state at frame `i` (clamped to the last frame).
    pub fn state_at(&self, i: usize) -> Frame<'p> {
        let i = i.min(self.played.len());
        if i == self.tail.frame {
            return self.tail.clone();
        }
        self.replay_to(i)
    }

    /// The state at frame `i`, from the checkpoint before it (never from the tail).
    fn replay_to(&self, i: usize) -> Frame<'p> {
        let k = (i / self.stride).min(self.checkpoints.len() - 1);
        let mut s = self.checkpoints[k].clone();
        while s.frame < i {
            self.forward(&mut s);
        }
        s
    }

    /// Moves a state of this replay one frame on; `false` at the last frame.
    pub fn forward(&self, s: &mut Frame<'p>) -> bool {
        let Some(p) = self.played.get(s.frame) else {
            return false;
        };
        s.advance(p.cmd)
            .expect("a recorded command replays as it played");
        true
    }

    /// The state at the last frame.
    pub fn tail(&self) -> &Frame<'p> {
        &self.tail
    }

    pub fn problem(&self) -> &'p Problem {
        self.problem
    }

    pub fn seed(&self) -> u32 {
        self.seed
    }

    pub fn phrases(&self) -> &Phrases {
        &self.phrases
    }

    /// The text accepted so far (ignored characters included), as characters.
    pub fn text(&self) -> &[char] {
        &self.text
    }

    /// The text accepted so far as a string.
    pub fn text_string(&self) -> String {
        self.text.iter().collect()
    }

    /// The commands accepted so far.
    pub fn played(&self) -> &[Played] {
        &self.played
    }

    /// Commands accepted: the last frame's index.
    pub fn len(&self) -> usize {
        self.played.len()
    }

    pub fn is_empty(&self) -> bool {
        self.played.is_empty()
    }

    /// The error a loaded solution stopped at, and the character that caused it (none for a
    /// seed the problem does not list).
    pub fn stop(&self) -> Option<(End, Option<char>)> {
        self.stop
    }

    /// How the game stands at the last frame, as the evaluator would report it.
    pub fn end(&self) -> End {
        if let Some((end, _)) = self.stop {
            return end;
        }
        match self.tail.game.status() {
            Status::Playing => End::InProgress,
            Status::OutOfUnits => End::OutOfUnits,
            Status::BoardFull => End::BoardFull,
        }
    }

    /// The characters spelt by frame `i`: up to the next command's character, or the whole
    /// text at the last frame (so that trailing ignored characters count, as in the evaluator).
    pub fn prefix_len(&self, i: usize) -> usize {
        match self.played.get(i) {
            Some(p) => p.char_index,
            None => self.text.len(),
        }
    }

    /// Occurrences of each phrase spelt by frame `i`, in the order of the phrase list.
    pub fn counts_at(&self, i: usize) -> Vec<u32> {
        self.spelt.counts(self.prefix_len(i))
    }

    /// The power score of the phrases spelt by frame `i`.
    pub fn power_at(&self, i: usize) -> u64 {
        self.phrases.score(&self.counts_at(i))
    }

    /// Occurrences spelt by frame `i` that overlap characters `from..to` of the text.
    pub fn occurrences(&self, i: usize, from: usize, to: usize) -> Vec<Occurrence> {
        self.spelt
            .overlapping(self.prefix_len(i), from, to)
            .copied()
            .collect()
    }

    /// The frame where the unit after the one in play at frame `i` comes in (the last frame when
    /// there is none).
    pub fn next_unit(&self, i: usize) -> usize {
        let k = self.lock_frames.partition_point(|&f| f <= i);
        self.lock_frames
            .get(k)
            .copied()
            .unwrap_or(self.played.len())
    }

    /// The frame where the unit in play at frame `i` came in, or, when `i` is that frame, where
    /// the unit before it came in.
    pub fn previous_unit(&self, i: usize) -> usize {
        let k = self.lock_frames.partition_point(|&f| f < i);
        if k == 0 {
            0
        } else {
            self.lock_frames[k - 1]
        }
    }

    /// The score the evaluator gives the text so far: move plus power at the last frame, or 0
    /// after an error.
    pub fn final_score(&self) -> u64 {
        if self.stop.is_some() {
            return 0;
        }
        self.tail.game.move_score() + self.power_at(self.played.len())
    }
}

#[cfg(test)]
mod tests;
