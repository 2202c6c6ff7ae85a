//! The interactive loops: [`Viewer`] (`hextris view`) steps through the frames of a replay, and
//! [`Player`] (`hextris play`) grows one by hand. Both are plain state machines driven by
//! actions, so the tests drive them headless; [`run`] connects one to a real terminal with
//! crossterm (raw mode, alternate screen, restored on every exit path by a drop guard).
//!
//! Keys are decoded by [`view_action`] and [`play_action`]. In play mode every printable key
//! that spells a command is that command (`q` is CW, not quit), so the keys that are not
//! commands are control keys: Esc, Ctrl-C or Ctrl-Q quit, Backspace or Ctrl-Z undo.

use super::ansi::{draw_screen, Chrome, Viewport};
use super::canvas::Canvas;
use super::replay::{command_name, Frame, Pushed, Replay};
use crate::engine::Command;
use crate::error::{Error, Result};
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::{cursor, queue, style, terminal};
use std::io::Write;
use std::time::{Duration, Instant};

/// Playback speeds, in commands per second.
pub const SPEEDS: [u32; 14] = [
    1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 50_000,
];

/// The index of the listed speed closest to `per_second` (from below).
pub fn speed_index(per_second: u32) -> usize {
    SPEEDS.iter().rposition(|&s| s <= per_second).unwrap_or(0)
}

/// How often the screen is redrawn while playing.
const FRAME_TIME: Duration = Duration::from_millis(33);

/// What a key asks of the viewer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewAction {
    Forward,
    Back,
    NextUnit,
    PreviousUnit,
    Start,
    End,
    TogglePlay,
    Faster,
    Slower,
    /// Scroll the board by (columns, rows); the view follows the unit again at the next step.
    Scroll(i64, i64),
    Quit,
}

/// The viewer's keys.
pub fn view_action(key: KeyEvent) -> Option<ViewAction> {
    use ViewAction::*;
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return matches!(key.code, KeyCode::Char('c') | KeyCode::Char('q')).then_some(Quit);
    }
    Some(match key.code {
        KeyCode::Right | KeyCode::Char('l') => Forward,
        KeyCode::Left | KeyCode::Char('h') => Back,
        KeyCode::Down | KeyCode::Char('j') => NextUnit,
        KeyCode::Up | KeyCode::Char('k') => PreviousUnit,
        KeyCode::Home | KeyCode::Char('g') => Start,
        KeyCode::End | KeyCode::Char('G') => End,
        KeyCode::Char(' ') | KeyCode::Char('p') => TogglePlay,
        KeyCode::Char('+') | KeyCode::Char('=') => Faster,
        KeyCode::Char('-') | KeyCode::Char('_') => Slower,
        KeyCode::Char('<') | KeyCode::Char(',') => Scroll(-16, 0),
        KeyCode::Char('>') | KeyCode::Char('.') => Scroll(16, 0),
        KeyCode::PageUp => Scroll(0, -8),
        KeyCode::PageDown => Scroll(0, 8),
        KeyCode::Esc | KeyCode::Char('q') => Quit,
        _ => return None,
    })
}

/// The keys of the viewer, for the bottom line.
pub const VIEW_HELP: &str =
    "→/← command · ↓/↑ unit · g/G start/end · space play · +/- speed · </> PgUp/PgDn scroll · q quit";

/// Steps through the frames of a replay.
pub struct Viewer<'r, 'p> {
    replay: &'r Replay<'p>,
    state: Frame<'p>,
    playing: bool,
    speed: usize,
    /// Commands owed to playback: elapsed time times speed, not yet played.
    owed: f64,
    last_tick: Instant,
    view: Viewport,
    /// Whether the view was scrolled by hand since the last step (then it does not follow).
    pinned: bool,
    color: bool,
    title: String,
}

impl<'r, 'p> Viewer<'r, 'p> {
    pub fn new(
        replay: &'r Replay<'p>,
        frame: usize,
        speed: u32,
        color: bool,
        title: String,
    ) -> Self {
        Viewer {
            replay,
            state: replay.state_at(frame),
            playing: false,
            speed: speed_index(speed),
            owed: 0.0,
            last_tick: Instant::now(),
            view: Viewport::whole(1, 1),
            pinned: false,
            color,
            title,
        }
    }

    /// The state at the current frame.
    pub fn state(&self) -> &Frame<'p> {
        &self.state
    }

    pub fn playing(&self) -> bool {
        self.playing
    }

    /// Playback speed in commands per second.
    pub fn speed(&self) -> u32 {
        SPEEDS[self.speed]
    }

    /// Moves to frame `i` (clamped to the last one).
    pub fn seek(&mut self, i: usize) {
        let i = i.min(self.replay.len());
        self.pinned = false;
        // Stepping forward is one engine step; anything else starts from a checkpoint.
        if i == self.state.frame() + 1 {
            self.replay.forward(&mut self.state);
        } else if i != self.state.frame() {
            self.state = self.replay.state_at(i);
        }
    }

    /// Applies an action; `false` means quit.
    pub fn apply(&mut self, action: ViewAction) -> bool {
        let i = self.state.frame();
        match action {
            ViewAction::Forward => self.seek(i + 1),
            ViewAction::Back => self.seek(i.saturating_sub(1)),
            ViewAction::NextUnit => self.seek(self.replay.next_unit(i)),
            ViewAction::PreviousUnit => self.seek(self.replay.previous_unit(i)),
            ViewAction::Start => self.seek(0),
            ViewAction::End => self.seek(self.replay.len()),
            ViewAction::TogglePlay => {
                self.playing = !self.playing;
                if self.playing && i == self.replay.len() {
                    self.seek(0);
                }
                self.owed = 0.0;
                self.last_tick = Instant::now();
            }
            ViewAction::Faster => self.speed = (self.speed + 1).min(SPEEDS.len() - 1),
            ViewAction::Slower => self.speed = self.speed.saturating_sub(1),
            ViewAction::Scroll(dx, dy) => {
                self.view.scroll_x += dx;
                self.view.scroll_y += dy;
                let p = self.replay.problem();
                self.view.clamp(p.width, p.height);
                self.pinned = true;
            }
            ViewAction::Quit => return false,
        }
        true
    }

    /// Plays on by the commands due since the last tick; returns whether the frame changed.
    pub fn tick(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last_tick);
        self.last_tick = now;
        if !self.playing {
            return false;
        }
        self.owed += elapsed.as_secs_f64() * self.speed() as f64;
        let n = self.owed.floor() as usize;
        self.owed -= n as f64;
        let before = self.state.frame();
        self.seek_by(n);
        if self.state.frame() == self.replay.len() {
            self.playing = false;
        }
        self.state.frame() != before
    }

    fn seek_by(&mut self, n: usize) {
        let target = (self.state.frame() + n).min(self.replay.len());
        while self.state.frame() < target && target - self.state.frame() <= 256 {
            self.replay.forward(&mut self.state);
        }
        self.seek(target);
    }

    /// Draws the current frame on a canvas the size of the screen.
    pub fn draw(&mut self, canvas: &mut Canvas) {
        // Speed first: a long title is cut at the right edge.
        let title = format!(
            "hextris view · {} {}/s · {}",
            if self.playing { "playing" } else { "paused" },
            self.speed(),
            self.title
        );
        let chrome = Chrome {
            title,
            help: VIEW_HELP.into(),
            legend: None,
            message: None,
        };
        draw_screen(
            canvas,
            self.replay,
            &self.state,
            &chrome,
            &mut self.view,
            !self.pinned,
            self.color,
        );
    }
}

/// What a key asks of the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayAction {
    /// A character to add to the solution (a command character, or one that will be refused).
    Type(char),
    Undo,
    Quit,
}

/// The player's keys: arrows and the End / PgDn pair for the six commands, any printable
/// character typed as itself, and control keys for the rest.
pub fn play_action(key: KeyEvent) -> Option<PlayAction> {
    use PlayAction::*;
    let m = key.modifiers;
    if m.contains(KeyModifiers::CONTROL) {
        return match key.code {
            KeyCode::Char('c') | KeyCode::Char('q') => Some(Quit),
            KeyCode::Char('z') => Some(Undo),
            _ => None,
        };
    }
    let shift = m.contains(KeyModifiers::SHIFT);
    Some(match key.code {
        KeyCode::Left if shift => Type(Command::SW.char()),
        KeyCode::Right if shift => Type(Command::SE.char()),
        KeyCode::Left => Type(Command::W.char()),
        KeyCode::Right => Type(Command::E.char()),
        KeyCode::End => Type(Command::SW.char()),
        KeyCode::PageDown => Type(Command::SE.char()),
        KeyCode::Up => Type(Command::CW.char()),
        KeyCode::Down => Type(Command::CCW.char()),
        KeyCode::Backspace => Undo,
        KeyCode::Esc => Quit,
        KeyCode::Char(c) if !m.contains(KeyModifiers::ALT) => Type(c),
        _ => return None,
    })
}

/// The keys of the player, for the bottom line.
pub const PLAY_HELP: &str =
    "←/→ W/E · Shift+←/→ or End/PgDn SW/SE · ↑/↓ CW/CCW · or type commands · Bksp undo · Esc quit";

/// Plays a game by hand.
pub struct Player<'p> {
    replay: Replay<'p>,
    message: Option<(String, bool)>,
    view: Viewport,
    color: bool,
    title: String,
}

impl<'p> Player<'p> {
    pub fn new(replay: Replay<'p>, color: bool, title: String) -> Self {
        Player {
            replay,
            message: None,
            view: Viewport::whole(1, 1),
            color,
            title,
        }
    }

    pub fn replay(&self) -> &Replay<'p> {
        &self.replay
    }

    pub fn into_replay(self) -> Replay<'p> {
        self.replay
    }

    /// The message shown instead of the last command's note (a refusal, say).
    pub fn message(&self) -> Option<&(String, bool)> {
        self.message.as_ref()
    }

    /// Applies an action; `false` means quit.
    pub fn apply(&mut self, action: PlayAction) -> bool {
        self.message = None;
        match action {
            PlayAction::Type(c) => match self.replay.try_push(c) {
                Ok(Pushed::Played(..)) | Ok(Pushed::Ignored) => {}
                Err(refused) => {
                    self.message = Some((format!("refused: {}", refused.reason()), true))
                }
            },
            PlayAction::Undo => {
                let what = match self.replay.undo() {
                    Some(cmd) => format!("undid {}", command_name(cmd)),
                    None => "nothing to undo".into(),
                };
                self.message = Some((what, false));
            }
            PlayAction::Quit => return false,
        }
        true
    }

    /// What each command would do now: move, lock the unit, or be refused.
    pub fn legend(&self) -> String {
        let game = self.replay.tail().game();
        if game.piece().is_none() {
            // The engine decides: a game over before any command takes one more, ignored.
            return if game.accepts_command() {
                "the game is over: one more command is accepted and ignored, any after it would \
                 be an error (refused) · Backspace undoes"
            } else {
                "the game is over: any further command would be an error (refused) · \
                 Backspace undoes"
            }
            .into();
        }
        let parts: Vec<String> = Command::ALL
            .iter()
            .map(|&cmd| {
                let what = if game.would_repeat(cmd) {
                    "repeats (refused)"
                } else if game.would_lock(cmd) {
                    "locks"
                } else {
                    "ok"
                };
                format!("{} {what}", command_name(cmd))
            })
            .collect();
        format!("next: {}", parts.join(" · "))
    }

    /// Draws the game on a canvas the size of the screen.
    pub fn draw(&mut self, canvas: &mut Canvas) {
        let chrome = Chrome {
            title: self.title.clone(),
            help: PLAY_HELP.into(),
            legend: Some(self.legend()),
            message: self.message.clone(),
        };
        let state = self.replay.tail().clone();
        draw_screen(
            canvas,
            &self.replay,
            &state,
            &chrome,
            &mut self.view,
            true,
            self.color,
        );
    }
}

/// An interactive screen: drawn, fed keys, and ticked while it animates.
pub trait Screen {
    fn draw(&mut self, canvas: &mut Canvas);
    /// Handles a key; `false` means quit.
    fn key(&mut self, key: KeyEvent) -> bool;
    /// Advances an animation; returns whether to redraw.
    fn tick(&mut self, _now: Instant) -> bool {
        false
    }
    /// Whether it animates (then the loop wakes up every frame).
    fn animating(&self) -> bool {
        false
    }
}

impl Screen for Viewer<'_, '_> {
    fn draw(&mut self, canvas: &mut Canvas) {
        Viewer::draw(self, canvas)
    }
    fn key(&mut self, key: KeyEvent) -> bool {
        view_action(key).is_none_or(|a| self.apply(a))
    }
    fn tick(&mut self, now: Instant) -> bool {
        Viewer::tick(self, now)
    }
    fn animating(&self) -> bool {
        self.playing
    }
}

impl Screen for Player<'_> {
    fn draw(&mut self, canvas: &mut Canvas) {
        Player::draw(self, canvas)
    }
    fn key(&mut self, key: KeyEvent) -> bool {
        play_action(key).is_none_or(|a| self.apply(a))
    }
}

fn term_error(source: std::io::Error) -> Error {
    Error::Io {
        path: "terminal".into(),
        source,
    }
}

/// The terminal in raw mode on the alternate screen, restored when dropped (also when a panic
/// unwinds through [`run`]).
struct Session;

impl Session {
    fn start() -> std::io::Result<Session> {
        terminal::enable_raw_mode()?;
        let session = Session;
        crossterm::execute!(
            std::io::stdout(),
            terminal::EnterAlternateScreen,
            terminal::DisableLineWrap,
            cursor::Hide
        )?;
        Ok(session)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = crossterm::execute!(
            std::io::stdout(),
            style::ResetColor,
            cursor::Show,
            terminal::EnableLineWrap,
            terminal::LeaveAlternateScreen
        );
        let _ = terminal::disable_raw_mode();
    }
}

/// Runs a screen in the terminal until it quits.
pub fn run(screen: &mut impl Screen) -> Result<()> {
    let _session = Session::start().map_err(term_error)?;
    let mut out = std::io::stdout();
    let mut dirty = true;
    loop {
        if dirty {
            let (w, h) = terminal::size().map_err(term_error)?;
            let mut canvas = Canvas::new(w as usize, h as usize);
            screen.draw(&mut canvas);
            for y in 0..canvas.height() {
                queue!(
                    out,
                    cursor::MoveTo(0, y as u16),
                    style::Print(canvas.row_output(y, true)),
                    terminal::Clear(terminal::ClearType::UntilNewLine)
                )
                .map_err(term_error)?;
            }
            out.flush().map_err(term_error)?;
            dirty = false;
        }
        let wait = if screen.animating() {
            FRAME_TIME
        } else {
            Duration::from_secs(1)
        };
        if event::poll(wait).map_err(term_error)? {
            match event::read().map_err(term_error)? {
                Event::Key(k) if k.kind != KeyEventKind::Release => {
                    if !screen.key(k) {
                        return Ok(());
                    }
                    dirty = true;
                }
                Event::Resize(..) => dirty = true,
                _ => {}
            }
        }
        dirty |= screen.tick(Instant::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Game, Phrases, Problem};
    use std::path::Path;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn problem() -> Problem {
        Problem::from_json(
            r#"{"id":7,"width":5,"height":6,"sourceLength":4,"sourceSeeds":[0],
            "filled":[{"x":0,"y":5}],
            "units":[{"members":[{"x":0,"y":0},{"x":1,"y":0}],"pivot":{"x":0,"y":0}}]}"#,
            Path::new("t.json"),
        )
        .unwrap()
    }

    #[test]
    fn keys_of_the_viewer() {
        assert_eq!(view_action(key(KeyCode::Right)), Some(ViewAction::Forward));
        assert_eq!(view_action(key(KeyCode::Char('G'))), Some(ViewAction::End));
        assert_eq!(view_action(key(KeyCode::Char('q'))), Some(ViewAction::Quit));
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(view_action(ctrl_c), Some(ViewAction::Quit));
        assert_eq!(view_action(key(KeyCode::Char('z'))), None);
    }

    #[test]
    fn keys_of_the_player_type_commands_and_q_is_not_quit() {
        use PlayAction::*;
        assert_eq!(play_action(key(KeyCode::Char('q'))), Some(Type('q')));
        assert_eq!(play_action(key(KeyCode::Char(' '))), Some(Type(' ')));
        assert_eq!(play_action(key(KeyCode::Left)), Some(Type('p')));
        let shift_left = KeyEvent::new(KeyCode::Left, KeyModifiers::SHIFT);
        assert_eq!(play_action(shift_left), Some(Type('a')));
        assert_eq!(play_action(key(KeyCode::PageDown)), Some(Type('l')));
        assert_eq!(play_action(key(KeyCode::Up)), Some(Type('d')));
        assert_eq!(play_action(key(KeyCode::Down)), Some(Type('k')));
        assert_eq!(play_action(key(KeyCode::Backspace)), Some(Undo));
        assert_eq!(play_action(key(KeyCode::Esc)), Some(Quit));
        let ctrl_q = KeyEvent::new(KeyCode::Char('q'), KeyModifiers::CONTROL);
        assert_eq!(play_action(ctrl_q), Some(Quit));
        // Every arrow-key command character decodes to the command it stands for.
        for (code, mods, cmd) in [
            (KeyCode::Left, KeyModifiers::NONE, Command::W),
            (KeyCode::Right, KeyModifiers::NONE, Command::E),
            (KeyCode::Left, KeyModifiers::SHIFT, Command::SW),
            (KeyCode::Right, KeyModifiers::SHIFT, Command::SE),
            (KeyCode::Up, KeyModifiers::NONE, Command::CW),
            (KeyCode::Down, KeyModifiers::NONE, Command::CCW),
        ] {
            let Some(Type(c)) = play_action(KeyEvent::new(code, mods)) else {
                panic!("{code:?}")
            };
            assert_eq!(Command::decode(c), crate::engine::Decoded::Command(cmd));
        }
    }

    #[test]
    fn the_viewer_steps_by_command_and_unit_through_engine_states() {
        let p = problem();
        let text = "lalalaei!lalala";
        let r = Replay::load(&p, 0, text, Phrases::official());
        let mut v = Viewer::new(&r, 0, 20, false, "t".into());
        // Forward one by one, against the engine.
        let mut g = Game::new(&p, 0);
        for played in r.played() {
            v.apply(ViewAction::Forward);
            g.step(played.cmd).unwrap();
            assert_eq!(v.state().game().board(), g.board());
            assert_eq!(v.state().game().piece(), g.piece());
        }
        v.apply(ViewAction::Forward);
        assert_eq!(v.state().frame(), r.len(), "stays at the end");
        // Back by units: each stop is a frame where a new unit just came in (after a lock).
        let starts: Vec<usize> = (1..=r.len())
            .filter(|&f| r.played()[f - 1].locked)
            .collect();
        assert_eq!(starts.len(), 2, "the text locks two units");
        v.apply(ViewAction::PreviousUnit);
        assert_eq!(v.state().frame(), starts[1]);
        v.apply(ViewAction::PreviousUnit);
        assert_eq!(v.state().frame(), starts[0]);
        assert_eq!(v.state().game().locked(), 1);
        v.apply(ViewAction::PreviousUnit);
        assert_eq!(v.state().frame(), 0);
        v.apply(ViewAction::NextUnit);
        assert_eq!(v.state().frame(), starts[0]);
        v.apply(ViewAction::Back);
        assert_eq!(v.state().frame(), starts[0] - 1);
        assert_eq!(v.state().game().locked(), 0);
        v.apply(ViewAction::End);
        assert_eq!(v.state().frame(), r.len());
        v.apply(ViewAction::Start);
        assert_eq!(v.state().frame(), 0);
        assert!(!v.apply(ViewAction::Quit));
    }

    #[test]
    fn playback_advances_by_time_and_stops_at_the_end() {
        let p = problem();
        let r = Replay::load(&p, 0, "lalalaei!lalala", Phrases::official());
        let mut v = Viewer::new(&r, 0, 10, false, "t".into());
        v.apply(ViewAction::TogglePlay);
        let t0 = v.last_tick;
        assert!(v.tick(t0 + Duration::from_millis(350)));
        assert_eq!(v.state().frame(), 3, "10 commands a second for 0.35 s");
        v.apply(ViewAction::Faster);
        assert_eq!(v.speed(), 20);
        v.tick(t0 + Duration::from_secs(100));
        assert_eq!(v.state().frame(), r.len());
        assert!(!v.playing());
    }

    /// Regression: on a game over before any command (a blocked spawn) the legend said every
    /// command would be refused, but the engine accepts one more, ignored.
    #[test]
    fn the_legend_of_a_game_over_at_once_follows_the_engine() {
        let p = Problem::from_json(
            r#"{"id":8,"width":2,"height":2,"sourceLength":4,"sourceSeeds":[0],
            "filled":[{"x":0,"y":0},{"x":1,"y":0}],
            "units":[{"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}}]}"#,
            Path::new("t.json"),
        )
        .unwrap();
        let mut pl = Player::new(Replay::new(&p, 0, Phrases::official()), false, "t".into());
        assert!(
            pl.legend().contains("one more command is accepted"),
            "{}",
            pl.legend()
        );
        pl.apply(PlayAction::Type('p'));
        assert!(
            pl.legend()
                .contains("any further command would be an error"),
            "{}",
            pl.legend()
        );
    }

    #[test]
    fn the_player_refuses_repeats_notes_locks_and_undoes() {
        let p = problem();
        let mut pl = Player::new(Replay::new(&p, 0, Phrases::official()), false, "t".into());
        assert!(pl.legend().contains("W ok"), "{}", pl.legend());
        pl.apply(PlayAction::Type('b'));
        assert!(
            pl.legend().contains("W repeats (refused)"),
            "{}",
            pl.legend()
        );
        pl.apply(PlayAction::Type('p'));
        let (m, warn) = pl.message().unwrap().clone();
        assert!(warn && m.contains("repeated position"), "{m}");
        assert_eq!(pl.replay().text_string(), "b");
        // Down to the floor: the legend announces the lock before it happens.
        for c in "lalal".chars() {
            pl.apply(PlayAction::Type(c));
        }
        assert!(pl.legend().contains("SW locks"), "{}", pl.legend());
        pl.apply(PlayAction::Type('a'));
        assert_eq!(pl.replay().tail().game().locked(), 1);
        pl.apply(PlayAction::Undo);
        assert_eq!(pl.replay().tail().game().locked(), 0);
        assert_eq!(pl.replay().text_string(), "blalal");
        let mut g = Game::new(&p, 0);
        for c in "blalal".chars() {
            if let crate::engine::Decoded::Command(cmd) = Command::decode(c) {
                g.step(cmd).unwrap();
            }
        }
        assert_eq!(pl.replay().tail().game().piece(), g.piece());
        assert_eq!(pl.replay().tail().game().board(), g.board());
        pl.apply(PlayAction::Type('-'));
        assert!(pl.message().unwrap().0.contains("not a command character"));
        let mut canvas = Canvas::new(100, 30);
        pl.draw(&mut canvas);
        let screen: Vec<String> = (0..30).map(|y| canvas.row_text(y)).collect();
        assert!(
            screen.iter().any(|l| l.starts_with("refused:")),
            "{screen:#?}"
        );
        assert!(
            screen.iter().any(|l| l.starts_with("next: W")),
            "{screen:#?}"
        );
    }
}
