//! The solver's log on stderr: lines that never stop a run ([`note!`](crate::note),
//! [`note_raw!`](crate::note_raw)), and whether the debugging log is asked for.

/// Writes a line to stderr, ignoring a stderr that is closed (a debugging log piped into `head`,
/// say): a log line must never stop a run, nor keep its answers from being written.
#[macro_export]
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// As [`note!`], without the line's end.
#[macro_export]
macro_rules! note_raw {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

/// Whether `HEXTRIS_DEBUG` asks for the solver's log on stderr (read once per run of a loop).
pub(super) fn debug_enabled() -> bool {
    std::env::var_os("HEXTRIS_DEBUG").is_some()
}
