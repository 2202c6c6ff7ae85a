//! The process-wide stop request: a long run stopped with Ctrl-C or SIGTERM ends its searches as
//! if their deadlines had passed, keeps what it found and exits cleanly.
//!
//! The planner and the encoders check [`requested`] wherever they check a deadline (unit by
//! unit), so a stop ends every search within about one unit's work. The flag is only ever set,
//! never cleared: once a stop is asked for, every later search in the process is cut short too.
//! Nothing but [`install`] (the `hextris solve` command line) and [`request`] sets it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::Instant;

/// The flag, shared with the signal handlers (which need an `Arc`).
static FLAG: LazyLock<Arc<AtomicBool>> = LazyLock::new(|| Arc::new(AtomicBool::new(false)));

thread_local! {
    /// Set on a thread that works on after a stop (see [`set_aside`]).
    static ASIDE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// When a search first saw the stop request (a signal handler can only set the flag).
static NOTICED: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();

/// Whether a stop has been asked for (and is not set aside on this thread).
pub fn requested() -> bool {
    let set = FLAG.load(Ordering::Relaxed);
    if set {
        NOTICED.get_or_init(Instant::now);
    }
    set && !ASIDE.with(|a| a.get())
}

/// When the stop request was first seen, if it was.
pub fn noticed() -> Option<Instant> {
    NOTICED.get().copied()
}

/// Runs `f` with the stop request set aside on this thread: its searches stop at their
/// deadlines only. For the little work that must follow a stop, such as the quick answer of a
/// seed that had none yet.
pub fn set_aside<T>(f: impl FnOnce() -> T) -> T {
    let before = ASIDE.with(|a| a.replace(true));
    let out = f();
    ASIDE.with(|a| a.set(before));
    out
}

/// Asks every search of the process to stop.
pub fn request() {
    FLAG.store(true, Ordering::Relaxed);
}

/// Makes SIGINT (Ctrl-C) and SIGTERM request a stop. A second signal while a stop is under way
/// ends the process at once (exit code 1): the store's files are written atomically, so even
/// that leaves every file whole.
pub fn install() -> std::io::Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    for sig in [SIGINT, SIGTERM] {
        // Registered first, so that it sees the flag as it was before this signal set it.
        signal_hook::flag::register_conditional_shutdown(sig, 1, Arc::clone(&FLAG))?;
        signal_hook::flag::register(sig, Arc::clone(&FLAG))?;
    }
    Ok(())
}

/// Whether a search with this deadline must stop now: the deadline has passed, or a stop is
/// requested (with or without a deadline).
pub fn passed(deadline: Option<Instant>) -> bool {
    requested() || deadline.is_some_and(|d| Instant::now() >= d)
}

/// The deadline as a search should see it: now once a stop is requested.
pub fn effective(deadline: Instant) -> Instant {
    if requested() {
        Instant::now().min(deadline)
    } else {
        deadline
    }
}
