//! `hextris view`, `hextris play` and `hextris render`: the arguments of the three ways of
//! seeing a game, and the code that loads what they name and hands it to [`crate::view`].
//!
//! Bad input (a missing file, no entry for the problem or seed, a step past the end) is one
//! [`Error`] line and exit code 2, before the terminal is touched and before any file is written.

use crate::engine::{Phrases, Problem};
use crate::error::{Error, Result};
use crate::io::{read_solutions, solutions_to_json, write_atomic, Solution};
use crate::view::canvas::printable;
use crate::view::term::{self, Player, Viewer};
use crate::view::{ansi, html, svg, Replay};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// When to colour the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// In a terminal, unless NO_COLOR is set.
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    fn resolve(self, terminal: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        }
    }
}

/// What `hextris view` and `hextris render` replay: a problem, a solution list, the seed and
/// the step.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The problem file.
    #[arg(short = 'f', long = "file", value_name = "PROBLEM")]
    pub file: PathBuf,
    /// The solution list (the contest's JSON output format).
    #[arg(value_name = "SOLUTIONS")]
    pub solutions: PathBuf,
    /// The seed whose solution to show, or to show first in a page (default: the seed of the
    /// problem's first entry). When several entries have it, the last one counts, as on the
    /// server.
    #[arg(long, allow_negative_numbers = true)]
    pub seed: Option<u32>,
    /// The frame after this many commands: where the viewer or a page starts (default: the
    /// start), what a pipe prints or an SVG picture draws (default: the end).
    #[arg(long, allow_negative_numbers = true)]
    pub step: Option<usize>,
}

/// Arguments of `hextris view`.
#[derive(Debug, clap::Args)]
pub struct ViewArgs {
    #[command(flatten)]
    pub replay: ReplayArgs,
    /// Colour: auto (in a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Playback speed, in commands per second (+ and - change it while viewing).
    #[arg(long, default_value_t = 20, allow_negative_numbers = true, value_parser = crate::cli::args::between::<u32>(1, 50_000))]
    pub speed: u32,
    #[command(flatten)]
    pub phrases: crate::cli::PhraseArgs,
}

/// Arguments of `hextris render`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("output").required(true).args(["svg", "html"])))]
pub struct RenderArgs {
    #[command(flatten)]
    pub replay: ReplayArgs,
    /// The SVG file to write (atomically): one picture of the board.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// The HTML file to write (atomically): a self-contained page that replays the solutions of
    /// the problem, one per seed in the list, in a browser.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    #[command(flatten)]
    pub phrases: crate::cli::PhraseArgs,
}

/// Arguments of `hextris play`.
#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    /// The problem file.
    #[arg(short = 'f', long = "file", value_name = "PROBLEM")]
    pub file: PathBuf,
    /// The seed to play (default: the problem's first seed).
    #[arg(long, allow_negative_numbers = true)]
    pub seed: Option<u32>,
    /// Write the solution list here (atomically) on quit, instead of printing it.
    #[arg(short = 'o', long = "out", value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Colour: auto (unless NO_COLOR is set), always, never.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    #[command(flatten)]
    pub phrases: crate::cli::PhraseArgs,
}

/// The entry of a solution list to show: the last one for the problem and the seed (by default
/// the seed of the problem's first entry). Returns its index too.
pub fn pick_entry<'s>(
    solutions: &'s [Solution],
    path: &Path,
    problem: &Problem,
    seed: Option<u32>,
) -> Result<(usize, &'s Solution)> {
    let for_problem: Vec<(usize, &Solution)> = solutions
        .iter()
        .enumerate()
        .filter(|(_, s)| s.problem_id == problem.id)
        .collect();
    let Some(&(_, first)) = for_problem.first() else {
        return Err(Error::invalid(
            path,
            format!("no entry for problem {}", problem.id),
        ));
    };
    let seed = seed.unwrap_or(first.seed);
    for_problem
        .iter()
        .rev()
        .find(|(_, s)| s.seed == seed)
        .copied()
        .ok_or_else(|| {
            let mut seeds: Vec<String> = for_problem
                .iter()
                .map(|(_, s)| s.seed.to_string())
                .collect();
            seeds.dedup();
            Error::invalid(
                path,
                format!(
                    "no entry for problem {} seed {seed} (its entries have seeds {})",
                    problem.id,
                    seeds.join(", ")
                ),
            )
        })
}

/// The largest board drawn, in cells. The viewer keeps per-cell colours for every checkpoint
/// and an SVG holds a polygon per cell, so absurd boards (the engine accepts up to 10^8 cells)
/// are refused up front rather than exhausting memory; every 2015 board has at most 4000.
pub const MAX_VIEW_CELLS: usize = 1 << 20;

/// Loads a problem and refuses one too large to draw.
fn load_problem(path: &Path) -> Result<Problem> {
    let problem = crate::io::read_problem(path)?;
    let cells = problem.width * problem.height;
    if cells > MAX_VIEW_CELLS {
        return Err(Error::invalid(
            path,
            format!(
                "the {}x{} board is too large to draw ({cells} cells, at most {MAX_VIEW_CELLS})",
                problem.width, problem.height
            ),
        ));
    }
    Ok(problem)
}

/// A problem, the entry chosen from a solution list, and a description of it.
struct Loaded {
    problem: Problem,
    entry: Solution,
    heading: String,
}

/// The line that names entry `index` of a solution list.
fn entry_heading(problem: &Problem, solutions: &Path, list: &[Solution], index: usize) -> String {
    let entry = &list[index];
    let tag = entry
        .tag
        .as_deref()
        .map(|t| format!(" ({})", printable(t)))
        .unwrap_or_default();
    format!(
        "problem {} seed {} · {} entry {} of {}{tag}",
        problem.id,
        entry.seed,
        solutions.display(),
        index + 1,
        list.len()
    )
}

impl ReplayArgs {
    /// The problem and the entry chosen, loaded.
    fn load(&self) -> Result<Loaded> {
        let problem = load_problem(&self.file)?;
        let list = read_solutions(&self.solutions)?;
        let (index, entry) = pick_entry(&list, &self.solutions, &problem, self.seed)?;
        let heading = entry_heading(&problem, &self.solutions, &list, index);
        let entry = entry.clone();
        Ok(Loaded {
            problem,
            entry,
            heading,
        })
    }

    /// Runs `f` on the replay of the entry chosen, counting `phrases`, and its heading, once
    /// `--step` is checked against it.
    fn with_replay<T>(
        &self,
        phrases: Phrases,
        f: impl FnOnce(&Replay, String) -> Result<T>,
    ) -> Result<T> {
        let loaded = self.load()?;
        let replay = Replay::load(
            &loaded.problem,
            loaded.entry.seed,
            &loaded.entry.solution,
            phrases,
        );
        check_step(self.step, &replay)?;
        f(&replay, loaded.heading)
    }
}

fn check_step(step: Option<usize>, replay: &Replay) -> Result<()> {
    match step {
        Some(n) if n > replay.len() => Err(Error::Usage(format!(
            "--step {n} is past the end: the replay of problem {} seed {} has {} commands{}",
            replay.problem().id,
            replay.seed(),
            replay.len(),
            if replay.stop().is_some() {
                " before its error"
            } else {
                ""
            }
        ))),
        _ => Ok(()),
    }
}

/// Runs `hextris view`.
pub fn run_view(args: ViewArgs) -> Result<()> {
    let step = args.replay.step;
    args.replay
        .with_replay(args.phrases.get()?, |replay, heading| {
            let terminal = std::io::stdout().is_terminal() && std::io::stdin().is_terminal();
            if !terminal {
                let state = replay.state_at(step.unwrap_or(replay.len()));
                print!(
                    "{}",
                    ansi::frame_text(replay, &state, args.color.resolve(false))
                );
                return Ok(());
            }
            let mut viewer = Viewer::new(
                replay,
                step.unwrap_or(0),
                args.speed,
                args.color.resolve(true),
                heading,
            );
            term::run(&mut viewer)
        })
}

/// Runs `hextris render`.
pub fn run_render(args: RenderArgs) -> Result<()> {
    if let Some(html) = &args.html {
        return render_html(&args, html);
    }
    let svg_path = args.svg.as_ref().expect("clap requires --svg or --html");
    args.replay
        .with_replay(args.phrases.get()?, |replay, heading| {
            let state = replay.state_at(args.replay.step.unwrap_or(replay.len()));
            let picture = svg::render(replay, &state, &format!("hextris · {heading}"));
            write_atomic(svg_path, picture.as_bytes())
        })
}

/// `hextris render --html`: a page with the last entry of each seed of the problem, in the order
/// the seeds first appear in the list; `--seed` (checked like the other commands') and `--step`
/// choose where it opens.
fn render_html(args: &RenderArgs, out: &Path) -> Result<()> {
    let phrases = args.phrases.get()?;
    let problem = load_problem(&args.replay.file)?;
    let list = read_solutions(&args.replay.solutions)?;
    let (_, chosen) = pick_entry(&list, &args.replay.solutions, &problem, args.replay.seed)?;
    let mut seeds: Vec<u32> = Vec::new();
    for s in list.iter().filter(|s| s.problem_id == problem.id) {
        if !seeds.contains(&s.seed) {
            seeds.push(s.seed);
        }
    }
    let first = seeds
        .iter()
        .position(|&s| s == chosen.seed)
        .expect("the chosen entry's seed is listed");
    let mut replays = Vec::with_capacity(seeds.len());
    let mut headings = Vec::with_capacity(seeds.len());
    for &seed in &seeds {
        let (index, entry) = pick_entry(&list, &args.replay.solutions, &problem, Some(seed))?;
        headings.push(entry_heading(
            &problem,
            &args.replay.solutions,
            &list,
            index,
        ));
        replays.push(Replay::load(
            &problem,
            seed,
            &entry.solution,
            phrases.clone(),
        ));
    }
    check_step(args.replay.step, &replays[first])?;
    let games: Vec<html::SeedReplay> = replays
        .iter()
        .zip(headings)
        .map(|(replay, heading)| html::SeedReplay { replay, heading })
        .collect();
    let title = format!(
        "hextris · problem {} · {}",
        problem.id,
        args.replay.solutions.display()
    );
    let page = html::render(&games, first, args.replay.step.unwrap_or(0), &title);
    write_atomic(out, page.as_bytes())
}

/// Runs `hextris play`.
pub fn run_play(args: PlayArgs) -> Result<()> {
    let phrases: Phrases = args.phrases.get()?;
    let problem = load_problem(&args.file)?;
    let seed = match args.seed {
        Some(s) if !problem.seeds.contains(&s) => {
            return Err(Error::Usage(format!(
                "seed {s} is not one of the seeds of problem {} ({}): its solution would score 0",
                problem.id,
                problem
                    .seeds
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )))
        }
        Some(s) => s,
        None => *problem.seeds.first().ok_or_else(|| {
            Error::invalid(
                &args.file,
                "the problem lists no seeds: there is nothing to play",
            )
        })?,
    };
    if let Some(out) = &args.out {
        // Refuse a destination that cannot be written before the game, not after it.
        let dir = match out.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if !dir.is_dir() || out.is_dir() {
            return Err(Error::invalid(
                out,
                "cannot write the solution there (no such folder, or a folder)",
            ));
        }
    }
    if !(std::io::stdout().is_terminal() && std::io::stdin().is_terminal()) {
        return Err(Error::Usage(
            "hextris play needs a terminal (stdin and stdout); use --out FILE to save the \
             solution to a file"
                .into(),
        ));
    }
    let title = format!(
        "hextris play · problem {} seed {} · {}",
        problem.id,
        seed,
        match &args.out {
            Some(p) => format!("saves to {} on quit", p.display()),
            None => "prints the solution on quit".into(),
        }
    );
    let mut player = Player::new(
        Replay::new(&problem, seed, phrases.clone()),
        args.color.resolve(true),
        title,
    );
    term::run(&mut player)?;
    let replay = player.into_replay();
    let text = replay.text_string();
    let e = crate::engine::replay(&problem, seed, &text, &phrases);
    debug_assert_eq!(e.score, replay.final_score());
    let json = solutions_to_json(&[Solution {
        problem_id: problem.id,
        seed,
        tag: Some("hextris play".into()),
        solution: text,
    }]);
    crate::note!(
        "hextris play: problem {} seed {}: {} commands, score {} = {} move + {} power ({})",
        problem.id,
        seed,
        e.commands,
        e.score,
        e.move_score,
        e.power_score,
        e.end
    );
    match &args.out {
        Some(path) => write_atomic(path, json.as_bytes()).inspect_err(|_| {
            // The game would be lost otherwise: print it before reporting the error.
            print!("{json}");
        }),
        None => {
            print!("{json}");
            Ok(())
        }
    }
}
