//! Bounds on every number the command lines take, checked while parsing: a value out of range is
//! one clear line from clap (exit code 2), never a panic further on (`-t 1e19` used to overflow
//! the instant of the deadline).
//!
//! Numeric options also accept a leading minus sign as a value (`allow_negative_numbers`), so
//! that `-t -1` is told the range rather than clap's tip about an unexpected argument `-1`.

use crate::solve::budget::RunPlan;
use crate::solve::pool::Settings;
use crate::solve::SearchOptions;
use std::time::Instant;

/// The longest time budget accepted: 1,000,000 seconds (11.6 days), far beyond any run and far
/// below the point where an instant plus the budget overflows.
pub const MAX_SECONDS: f64 = 1e6;

/// The most worker threads accepted.
pub const MAX_THREADS: u64 = 1024;

/// The most attempts per seed accepted by `--attempts`.
pub const MAX_ATTEMPTS: u64 = 1_000_000;

/// The largest memory limit accepted by `-m`, in megabytes (16 TB).
pub const MAX_MEMORY_MB: u64 = 1 << 24;

/// Parses a time budget: a finite number of seconds in `(0, MAX_SECONDS]`.
pub fn seconds(s: &str) -> Result<f64, String> {
    let t: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("expected a number of seconds, not '{s}'"))?;
    if t.is_finite() && t > 0.0 && t <= MAX_SECONDS {
        Ok(t)
    } else {
        Err(format!(
            "the time must be a number of seconds above 0 and at most {MAX_SECONDS}, not {s}"
        ))
    }
}

/// A parser of whole numbers from `lo` to `hi` (both included), for clap's `value_parser`.
pub fn between<T: TryFrom<u64>>(
    lo: u64,
    hi: u64,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    move |s: &str| {
        let bad = || format!("expected a whole number from {lo} to {hi}, not '{s}'");
        let v: i128 = s.trim().parse().map_err(|_| bad())?;
        if v < lo as i128 || v > hi as i128 {
            return Err(bad());
        }
        T::try_from(v as u64).map_err(|_| bad())
    }
}

/// Parses the spread of the tuner's perturbations: a finite number in `(0, 10]`.
pub fn sigma(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("expected a number, not '{s}'"))?;
    if v.is_finite() && v > 0.0 && v <= 10.0 {
        Ok(v)
    } else {
        Err(format!("must be above 0 and at most 10, not {s}"))
    }
}

/// `start + seconds`, or a usage error when that instant cannot be represented (the parsers
/// above keep `seconds` far from it; this is the second guard).
pub fn deadline(start: Instant, seconds: f64) -> crate::error::Result<Instant> {
    crate::solve::budget::instant_after(start, seconds).ok_or_else(|| out_of_range(seconds))
}

/// The usage error of a time whose deadline cannot be represented.
fn out_of_range(seconds: f64) -> crate::Error {
    crate::Error::Usage(format!(
        "a time of {seconds} seconds is out of range (at most {MAX_SECONDS})"
    ))
}

/// The run plan of a run of `seconds` from `start`
/// ([`RunPlan::timed`](crate::solve::budget::RunPlan::timed)), or the usage error of
/// [`deadline`] when its deadline cannot be represented.
pub fn run_plan(
    start: Instant,
    seconds: f64,
    virtual_clock: bool,
    o: &SearchOptions,
) -> crate::error::Result<RunPlan> {
    RunPlan::timed(start, seconds, virtual_clock, o).ok_or_else(|| out_of_range(seconds))
}

/// The search's options from `file` (any of the fields of src/solve/search.json, each replacing
/// its default), or the compiled-in ones without a file: the one place a command reads them.
pub fn search_options(file: Option<&std::path::Path>) -> crate::error::Result<SearchOptions> {
    file.map_or_else(|| Ok(SearchOptions::default()), SearchOptions::load)
}

/// A batch's settings, resolved once and passed whole to the solving library
/// ([`solve_on_pool`](crate::solve::pool::solve_on_pool)): the run plan, the search options,
/// the scoring systems (the compiled-in ones when `None`), the phrases, the threads, and the
/// stored games to start from.
pub fn settings(
    plan: RunPlan,
    search: SearchOptions,
    systems: Option<Vec<(String, crate::eval::Weights)>>,
    phrases: crate::engine::Phrases,
    threads: Option<usize>,
) -> Settings {
    Settings {
        plan,
        search,
        systems: systems.unwrap_or_else(crate::eval::compiled_systems),
        phrases,
        threads,
        starts: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::contest;
    use crate::cli::{Cli, Command};
    use clap::Parser;
    use proptest::prelude::*;

    /// Numbers as a user might type them: ordinary, negative, huge, odd spellings.
    fn number() -> impl Strategy<Value = String> {
        prop_oneof![
            any::<f64>().prop_map(|v| v.to_string()),
            any::<i64>().prop_map(|v| v.to_string()),
            any::<u64>().prop_map(|v| v.to_string()),
            (0u32..40).prop_map(|e| format!("1e{e}")),
            (-40i32..40).prop_map(|e| format!("-1e{e}")),
            prop::sample::select(vec![
                "nan", "inf", "-inf", "0", "-0", "", " ", "1.", ".5", "0x10", "1e309", "abc",
            ])
            .prop_map(String::from),
        ]
    }

    proptest! {
        /// Any value of any numeric option either parses within its bounds or is a clap error;
        /// parsing never panics, and a parsed time always makes a deadline.
        #[test]
        fn numbers_parse_within_bounds_or_fail_cleanly(v in number(), which in 0usize..9) {
            let glued = format!("--time={v}");
            let argv: Vec<String> = match which {
                0 => vec!["hextris", "solve", "p.json", "-t", &v],
                1 => vec!["hextris", "solve", "p.json", "--attempts", &v],
                2 => vec!["hextris", "solve", "p.json", "-c", &v],
                3 => vec!["hextris", "bench", "dir", "--time", &v],
                4 => vec!["hextris", "tune", "dir", "--system", "low", "--width", &v],
                5 => vec!["hextris", "tune", "dir", "--system", "low", "--sigma", &v],
                6 => vec!["hextris", "view", "-f", "p.json", "s.json", "--speed", &v],
                7 => vec!["hextris", "tune", "dir", "--system", "low", "--repeats", &v],
                _ => vec!["hextris", "solve", "p.json", &glued],
            }
            .into_iter()
            .map(String::from)
            .collect();
            if let Ok(cli) = Cli::try_parse_from(&argv) {
                match cli.command {
                    Command::Solve(a) => {
                        prop_assert!(a.time > 0.0 && a.time <= MAX_SECONDS);
                        prop_assert!(deadline(Instant::now(), a.time).is_ok());
                        prop_assert!(a.attempts.is_none_or(|n| (1..=MAX_ATTEMPTS).contains(&(n as u64))));
                        prop_assert!(a.threads.is_none_or(|n| (1..=MAX_THREADS).contains(&(n as u64))));
                    }
                    Command::Bench(a) => prop_assert!(a.time.iter().all(|&t| t > 0.0 && t <= MAX_SECONDS)),
                    Command::Tune(a) => {
                        prop_assert!(a.width >= 1 && a.repeats >= 1);
                        prop_assert!(a.sigma > 0.0 && a.sigma <= 10.0);
                    }
                    Command::View(a) => prop_assert!((1..=50_000).contains(&a.speed)),
                    _ => prop_assert!(false, "parsed as another command"),
                }
            }
        }

        /// The contest's front end: `-t`, `-m` and `-c` are bounded the same way.
        #[test]
        fn contest_numbers_parse_within_bounds_or_fail_cleanly(v in number(), which in 0usize..3) {
            let flag = ["-t", "-m", "-c"][which];
            if let Ok(a) = contest::Args::try_parse_from(["play_icfp2015", "-f", "p.json", flag, &v]) {
                if let Some(t) = a.time {
                    prop_assert!(t > 0.0 && t <= MAX_SECONDS);
                    prop_assert!(deadline(Instant::now(), t).is_ok());
                    // The time kept back never exceeds the budget, so the end is never before the start.
                    let start = Instant::now();
                    let o = crate::solve::SearchOptions::default();
                    let end = deadline(start, t).unwrap() - crate::solve::budget::reserve(t, &o);
                    prop_assert!(end >= start);
                }
                prop_assert!(a.memory.is_none_or(|m| (1..=MAX_MEMORY_MB).contains(&m)));
                prop_assert!(a.cores.is_none_or(|c| (1..=MAX_THREADS).contains(&(c as u64))));
            }
        }

        /// Arbitrary words on the command line never make the parser panic.
        #[test]
        fn arbitrary_arguments_never_panic(words in prop::collection::vec("[-a-z0-9=.]{0,8}", 0..8)) {
            let mut argv = vec!["hextris".to_string()];
            argv.extend(words.iter().cloned());
            let _ = Cli::try_parse_from(&argv);
            let mut argv = vec!["play_icfp2015".to_string()];
            argv.extend(words);
            let _ = contest::Args::try_parse_from(&argv);
        }
    }

    #[test]
    fn out_of_range_times_say_the_range() {
        for t in ["1e19", "-1", "0", "nan", "inf"] {
            let e = seconds(t).unwrap_err();
            assert!(e.contains("at most 1000000"), "{t}: {e}");
        }
        assert_eq!(seconds("2.5"), Ok(2.5));
        // Regression: `-t -1` used to get clap's tip about an unexpected argument '-1'.
        let e = Cli::try_parse_from(["hextris", "solve", "p.json", "-t", "-1"]).unwrap_err();
        assert!(e.to_string().contains("above 0"), "{e}");
        let e =
            contest::Args::try_parse_from(["play_icfp2015", "-f", "p", "-t", "-1"]).unwrap_err();
        assert!(e.to_string().contains("above 0"), "{e}");
        // Regression: `-t 1e19` used to panic adding the budget to an instant.
        assert!(Cli::try_parse_from(["hextris", "solve", "p.json", "-t", "1e19"]).is_err());
        assert!(deadline(Instant::now(), 1e19).is_err());
    }
}
