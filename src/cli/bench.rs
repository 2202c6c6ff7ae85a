//! `hextris bench`: every problem with the same budget, one after the other, and the table of
//! per-problem scores (move, power, total, time) and their sum, so that each change can be
//! compared with the last. Given several budgets (`-t 1,10,60`), one table per budget, then the
//! curve: each problem's score at each budget, and optionally an SVG plot of the totals.

use crate::engine::Problem;
use crate::error::Result;
use crate::io::load_problems;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `hextris bench`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Problem files or folders of them.
    #[arg(required = true, value_name = "PROBLEM")]
    pub problems: Vec<PathBuf>,
    /// Seconds per problem, as `play_icfp2015 -t` would get for a run of that problem alone;
    /// several budgets separated by commas give the curve of score against time.
    #[arg(short = 't', long = "time", default_value = "10", value_delimiter = ',',
        allow_negative_numbers = true, value_parser = crate::cli::args::seconds)]
    pub time: Vec<f64>,
    /// With several budgets, also draw the total score against the budget as an SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// A total to draw as a dashed line on the SVG plot (e.g. the best 2015 scores' sum).
    #[arg(long, value_name = "SCORE", requires = "svg")]
    pub reference: Option<u64>,
    #[command(flatten)]
    pub phrases: crate::cli::PhraseArgs,
    #[command(flatten)]
    pub weights: crate::cli::WeightArgs,
    /// The search's options from a JSON file (see `hextris solve --search`); given twice or
    /// more, every budget runs with each file in turn, and the curve compares them.
    #[arg(long = "search", value_name = "FILE")]
    pub search: Vec<PathBuf>,
    /// Spell no phrase at all (the move score alone, as play_icfp2015 without -p).
    #[arg(long, conflicts_with = "phrases")]
    pub no_phrases: bool,
    /// Worker threads (default: all cores).
    #[arg(short = 'c', long = "threads", allow_negative_numbers = true,
        value_parser = crate::cli::args::between::<usize>(1, crate::cli::args::MAX_THREADS))]
    pub threads: Option<usize>,
    /// Also write the solutions found to this file (atomically).
    #[arg(short = 'o', long = "out")]
    pub out: Option<PathBuf>,
    /// Also offer them to this store of best solutions (see `hextris solve --store`).
    #[arg(long, value_name = "DIR")]
    pub store: Option<PathBuf>,
    /// Count the budgets in work seconds on a virtual clock (see `hextris solve --virtual`):
    /// the same table on any machine and under any load.
    #[arg(long = "virtual")]
    pub virtual_time: bool,
    /// Instead of solving, time the planner and the encoders on each problem and fit the
    /// weights of the solver's work counts (the table in src/work.rs).
    #[arg(long)]
    pub calibrate: bool,
    /// Instead of solving: each stage's cost per unit (greedy plan, beam, plain paths, greedy,
    /// DP and character encoders) on every problem's first seed, on one thread.
    #[arg(long)]
    pub stages: bool,
    /// With --stages, also an empty board of this size with this many units of the first problem
    /// (repeatable), e.g. 100x100:4000.
    #[arg(long, value_name = "WxH:N", requires = "stages",
        value_parser = crate::cli::stages::board_spec)]
    pub board: Vec<crate::cli::stages::BoardSpec>,
    /// With --stages, the most seconds a stage may run (past it, the units it reached count).
    #[arg(long, value_name = "S", default_value = "30", allow_negative_numbers = true,
        value_parser = crate::cli::args::seconds)]
    pub stage_time: f64,
    /// With --stages, the most runs of a stage shorter than 2 s (the fastest counts).
    #[arg(long, value_name = "N", default_value = "3", allow_negative_numbers = true,
        value_parser = crate::cli::args::between::<usize>(1, 100))]
    pub repeat: usize,
    /// With --stages, only these stages (comma-separated: plan, bare, beam16, survive16, plain,
    /// greedy, dp, chars); the greedy plan runs anyway, for the encoders.
    #[arg(long, value_name = "STAGE", requires = "stages", value_delimiter = ',')]
    pub only: Vec<String>,
    /// With --stages, the encoders spell the game this store holds for each problem's first
    /// seed instead of the greedy plan (the greedy plan where it holds none).
    #[arg(long, value_name = "DIR", requires = "stages")]
    pub game: Option<PathBuf>,
    /// Instead of solving: the share of the source that beams of each width (--widths) play,
    /// per problem, seed and scoring system (the compiled-in ones, or --weights), as the
    /// solver's fresh attempts plan them while the best game dies early (from width 16 on, a
    /// beam that revives where all its partial games die, within four times a straight game's
    /// work).
    #[arg(long, conflicts_with_all = ["stages", "calibrate"])]
    pub survival: bool,
    /// With --survival, the beam widths (comma-separated).
    #[arg(long, value_name = "W", requires = "survival", value_delimiter = ',',
        default_value = "1,4,16,64", allow_negative_numbers = true,
        value_parser = crate::cli::args::between::<usize>(1, 4096))]
    pub widths: Vec<usize>,
    /// With --survival, only these scoring systems (comma-separated names).
    #[arg(
        long,
        value_name = "NAME",
        requires = "survival",
        value_delimiter = ','
    )]
    pub systems: Vec<String>,
    /// With --survival, at most this many seeds per problem (its first ones).
    #[arg(long, value_name = "N", requires = "survival", default_value = "1000000",
        allow_negative_numbers = true,
        value_parser = crate::cli::args::between::<usize>(1, 1_000_000))]
    pub seeds: usize,
    /// With --survival, games per cell with tie-break seeds 0, 1, ... (their mean share shows).
    #[arg(long, value_name = "N", requires = "survival", default_value = "1",
        allow_negative_numbers = true,
        value_parser = crate::cli::args::between::<u64>(1, 1000))]
    pub repeats: u64,
}

/// Runs `hextris bench`.
pub fn run(args: Args) -> Result<()> {
    let loaded = load_problems(&args.problems)?;
    if args.calibrate {
        let prepared: Vec<crate::solve::Prepared> = loaded
            .iter()
            .map(|(_, p)| crate::solve::Prepared::new(p))
            .collect();
        print!(
            "{}",
            crate::solve::calibrate::calibrate(&prepared, &args.phrases.get()?)
        );
        return Ok(());
    }
    let phrases = if args.no_phrases {
        crate::engine::Phrases::new(Vec::<String>::new())
    } else {
        args.phrases.get()?
    };
    let store = args
        .store
        .as_deref()
        .map(crate::store::Store::open)
        .transpose()?;
    if args.stages {
        let opts = crate::cli::stages::StageOptions {
            limit: args.stage_time,
            repeat: args.repeat,
            only: args.only.clone(),
            games: args
                .game
                .as_deref()
                .map(crate::cli::store::existing)
                .transpose()?,
        };
        return crate::cli::stages::run(&loaded, &args.board, &phrases, &opts);
    }
    let systems = args.weights.get()?;
    if args.survival {
        return survival(&args, &loaded, &phrases, systems);
    }
    // Ctrl-C and SIGTERM end the problem in progress as at its deadline; it is answered, offered
    // to the store and printed, and the benchmark ends there with the table so far, as `solve`
    // ends (exit code 0).
    crate::stop::install()
        .map_err(|e| crate::Error::Usage(format!("cannot install the signal handlers: {e}")))?;
    // The variants of the search: the compiled-in options, or each file given.
    let variants: Vec<(String, crate::solve::SearchOptions)> = if args.search.is_empty() {
        vec![(String::new(), Default::default())]
    } else {
        args.search
            .iter()
            .map(|f| {
                Ok((
                    format!("{} ", f.display()),
                    crate::cli::args::search_options(Some(f))?,
                ))
            })
            .collect::<Result<_>>()?
    };
    let mut all = Vec::new();
    // Per (variant, budget): its label and each problem's (id, score).
    let mut labels: Vec<String> = Vec::new();
    let mut curve: Vec<Vec<(i64, u64)>> = Vec::new();
    let several = args.time.len() > 1 || variants.len() > 1;
    for (name, search) in &variants {
        for &time in &args.time {
            if several {
                println!(
                    "{}budget {time} s per problem{}",
                    if curve.is_empty() { "" } else { "\n" },
                    if name.is_empty() {
                        String::new()
                    } else {
                        format!(", search {}", name.trim_end())
                    }
                );
            }
            let run = Run {
                loaded: &loaded,
                phrases: &phrases,
                systems: &systems,
                search,
                store: &store,
            };
            let (total, scores) = bench_budget(&args, &run, time, &mut all)?;
            println!("total {total}");
            labels.push(format!("{name}{time} s"));
            curve.push(scores);
            if crate::stop::requested() {
                break;
            }
        }
        if crate::stop::requested() {
            crate::note!(
                "stopped: the problem in progress was answered; the table so far is above"
            );
            break;
        }
    }
    // A stopped benchmark's budgets are not all whole: its curve and plot would compare problems
    // that did not all run.
    let whole = !crate::stop::requested();
    if several && whole {
        print!("\n{}", curve_table(&labels, &curve));
        let names: Vec<&str> = variants.iter().map(|(name, _)| name.as_str()).collect();
        print!("{}", falls_lines(&args.time, &names, &curve));
    }
    if let Some(path) = args.svg.as_ref().filter(|_| whole) {
        let totals: Vec<(f64, u64)> = args
            .time
            .iter()
            .zip(&curve)
            .map(|(&t, c)| (t, c.iter().map(|&(_, s)| s).sum()))
            .collect();
        crate::io::write_atomic(path, curve_svg(&totals, args.reference).as_bytes())?;
    }
    if let Some(path) = &args.out {
        let json = crate::io::solutions_to_json(&crate::cli::batch::to_solutions(&all));
        crate::io::write_atomic(path, json.as_bytes())?;
    }
    Ok(())
}

/// `bench --survival`: how long beams keep each system's games alive.
fn survival(
    args: &Args,
    loaded: &[(PathBuf, Problem)],
    phrases: &crate::engine::Phrases,
    systems: Option<Vec<(String, crate::eval::Weights)>>,
) -> Result<()> {
    let all = systems.unwrap_or_else(crate::eval::compiled_systems);
    if let Some(bad) = args
        .systems
        .iter()
        .find(|n| !all.iter().any(|(name, _)| name == *n))
    {
        return Err(crate::Error::Usage(format!(
            "unknown scoring system {bad:?} (known: {})",
            all.iter()
                .map(|(n, _)| n.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let search = match args.search.as_slice() {
        [] => crate::cli::args::search_options(None)?,
        [file] => crate::cli::args::search_options(Some(file))?,
        _ => {
            return Err(crate::Error::Usage(
                "--survival takes at most one --search file".into(),
            ))
        }
    };
    // Which systems are survival systems is judged on the whole set, as a run of the solver
    // with these weights judges it, before --systems picks the rows.
    let flags = crate::solve::survival_flags(&all, &search);
    let picked = |name: &String| args.systems.is_empty() || args.systems.contains(name);
    let (systems, survival): (Vec<_>, Vec<bool>) = all
        .into_iter()
        .zip(flags)
        .filter(|((name, _), _)| picked(name))
        .unzip();
    let opts = crate::cli::survival::SurvivalOptions {
        search,
        widths: args.widths.clone(),
        systems,
        survival,
        seeds: args.seeds,
        repeats: args.repeats,
        threads: args.threads,
        out: args.out.clone(),
    };
    crate::cli::survival::run(loaded, phrases, &opts)
}

/// What every budget of a benchmark shares.
struct Run<'a> {
    loaded: &'a [(PathBuf, Problem)],
    phrases: &'a crate::engine::Phrases,
    systems: &'a Option<Vec<(String, crate::eval::Weights)>>,
    search: &'a crate::solve::SearchOptions,
    store: &'a Option<crate::store::Store>,
}

/// Runs every problem with `time` seconds and prints its table; returns the total and each
/// problem's score.
fn bench_budget(
    args: &Args,
    run: &Run,
    time: f64,
    all: &mut Vec<crate::solve::ProblemResult>,
) -> Result<(u64, Vec<(i64, u64)>)> {
    let Run {
        loaded,
        phrases,
        systems,
        search,
        store,
    } = run;
    // On the virtual clock, each problem's counted work beside the real seconds it took (one
    // thread runs the whole virtual run): where the two part, the work counts miss work.
    let virt = args.virtual_time;
    println!(
        "{:>7} {:>5} {:>9} {:>9} {:>9} {:>7}{}{}",
        "problem",
        "seeds",
        "move",
        "power",
        "score",
        "time",
        crate::cli::shape::GameShape::HEADER,
        if virt { "    work  real/work" } else { "" }
    );
    let (mut all_work, mut all_seconds) = (0.0, 0.0);
    let mut total = 0u64;
    let mut scores = Vec::new();
    for (_, problem) in loaded.iter() {
        let start = Instant::now();
        // The run plan play_icfp2015 -t would make: its reserve and checkpoints on a clock,
        // none on a virtual one.
        let plan = crate::cli::args::run_plan(start, time, args.virtual_time, search)?;
        let probs: Vec<&Problem> = vec![problem];
        let settings = crate::cli::args::settings(
            plan,
            (*search).clone(),
            (*systems).clone(),
            (*phrases).clone(),
            args.threads,
        );
        let results = crate::solve::pool::solve_on_pool(&probs, settings, &crate::solve::Silent)?;
        let r = &results[0];
        let (mv, pw) = (r.move_score, r.power_score());
        let seconds = start.elapsed().as_secs_f64();
        let work: f64 = r.seeds.iter().map(|s| s.work).sum();
        (all_work, all_seconds) = (all_work + work, all_seconds + seconds);
        let counted = if virt {
            format!(" {work:>6.2}w {:>10.2}", seconds / work.max(1e-9))
        } else {
            String::new()
        };
        let shape = crate::cli::shape::shape_of(
            problem,
            r.seeds
                .iter()
                .map(|s| (s.seed, s.solution.as_str(), s.power_score)),
        );
        println!(
            "{:>7} {:>5} {:>9} {:>9} {:>9} {seconds:>6.2}s{}{counted}",
            r.problem_id,
            r.seeds.len(),
            mv,
            pw,
            r.score,
            shape.columns(),
        );
        total += r.score;
        scores.push((r.problem_id, r.score));
        if let Some(store) = store {
            if crate::stop::requested() {
                let mut kept = results.clone();
                kept[0].seeds.retain(crate::cli::batch::worth_keeping);
                crate::cli::batch::offer_to_store(store, &probs, phrases, &kept)?;
            } else {
                crate::cli::batch::offer_to_store(store, &probs, phrases, &results)?;
            }
        }
        all.extend(results);
        if crate::stop::requested() {
            break;
        }
    }
    if virt {
        println!(
            "work counted {all_work:.2} work seconds, run in {all_seconds:.2} real seconds of one core ({:.2} real per work)",
            all_seconds / all_work.max(1e-9)
        );
    }
    Ok((total, scores))
}

/// The curve as a table: one row per problem, one column per run (`labels`: a budget, after the
/// search options' file when several are compared), and the totals.
fn curve_table(labels: &[String], curve: &[Vec<(i64, u64)>]) -> String {
    let width = labels.iter().map(|l| l.len()).max().unwrap_or(0).max(10);
    let mut out = format!("{:>7}", "curve");
    for l in labels {
        out += &format!(" {l:>width$}");
    }
    out += "\n";
    for (i, &(id, _)) in curve[0].iter().enumerate() {
        out += &format!("{id:>7}");
        for c in curve {
            out += &format!(" {:>width$}", c[i].1);
        }
        out += "\n";
    }
    out += &format!("{:>7}", "total");
    for c in curve {
        out += &format!(" {:>width$}", c.iter().map(|&(_, s)| s).sum::<u64>());
    }
    out + "\n"
}

/// A problem that scores less at a longer budget than at a shorter one: its largest such fall,
/// as (budget, score) before and after.
#[derive(Debug, PartialEq)]
struct Fall {
    id: i64,
    shorter: (f64, u64),
    longer: (f64, u64),
}

/// Each problem's largest fall from a shorter budget to a longer one, over `runs` (a budget and
/// each problem's (id, score) at it, in any order of budgets; every run lists the same problems
/// in the same order).
fn falls(runs: &[(f64, &[(i64, u64)])]) -> Vec<Fall> {
    let mut order: Vec<&(f64, &[(i64, u64)])> = runs.iter().collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0));
    let Some(first) = order.first() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, &(id, _)) in first.1.iter().enumerate() {
        let mut best: Option<(f64, u64)> = None;
        let mut worst: Option<Fall> = None;
        for &&(t, scores) in &order {
            let s = scores[i].1;
            if let Some((bt, bs)) = best.filter(|&(bt, bs)| bs > s && bt < t) {
                let fall = Fall {
                    id,
                    shorter: (bt, bs),
                    longer: (t, s),
                };
                if worst
                    .as_ref()
                    .is_none_or(|w| bs - s > w.shorter.1 - w.longer.1)
                {
                    worst = Some(fall);
                }
            }
            if best.is_none_or(|(_, bs)| s > bs) {
                best = Some((t, s));
            }
        }
        out.extend(worst);
    }
    out
}

/// Per search file (`names`, whose runs at each of the budgets `times` follow each other in
/// `curve`), the problems that score less at a longer budget than at a shorter one: where "more
/// time never gives less" fails. Nothing with one budget.
fn falls_lines(times: &[f64], names: &[&str], curve: &[Vec<(i64, u64)>]) -> String {
    let n = times.len();
    if n < 2 {
        return String::new();
    }
    let mut out = String::new();
    for (k, name) in names.iter().enumerate() {
        let runs: Vec<(f64, &[(i64, u64)])> = (times.iter().copied())
            .zip(curve[k * n..(k + 1) * n].iter().map(|c| c.as_slice()))
            .collect();
        out += &format!("{name}{}\n", falls_line(&falls(&runs)));
    }
    out
}

/// The falls as one line: how many problems fall, by how much in all, and each fall.
fn falls_line(falls: &[Fall]) -> String {
    if falls.is_empty() {
        return "falls: none (no problem scores less at a longer budget)".into();
    }
    let sum: u64 = falls.iter().map(|f| f.shorter.1 - f.longer.1).sum();
    let each: Vec<String> = falls
        .iter()
        .map(|f| {
            format!(
                "{} {} at {} s -> {} at {} s",
                f.id, f.shorter.1, f.shorter.0, f.longer.1, f.longer.0
            )
        })
        .collect();
    format!(
        "falls: {} problem(s) score less at a longer budget, by {sum} in all ({})",
        falls.len(),
        each.join("; ")
    )
}

/// An SVG plot of the total score against the budget (seconds on a log scale), with an optional
/// reference total as a dashed line.
fn curve_svg(totals: &[(f64, u64)], reference: Option<u64>) -> String {
    let (w, h, left, right, top, bottom) = (640.0, 400.0, 90.0, 20.0, 30.0, 50.0);
    let lx = |t: f64| t.max(1e-3).ln();
    let (t0, t1) = totals.iter().fold((f64::MAX, f64::MIN), |(a, b), &(t, _)| {
        (a.min(lx(t)), b.max(lx(t)))
    });
    let (t0, t1) = if t1 > t0 {
        (t0, t1)
    } else {
        (t0 - 1.0, t1 + 1.0)
    };
    let values = totals.iter().map(|&(_, s)| s).chain(reference);
    let (lo, hi) = values.fold((u64::MAX, 0), |(a, b), s| (a.min(s), b.max(s)));
    let pad = ((hi - lo) as f64 * 0.1).max(1.0);
    let (y0, y1) = (lo as f64 - pad, hi as f64 + pad);
    let x = |t: f64| left + (lx(t) - t0) / (t1 - t0) * (w - left - right);
    let y = |s: f64| top + (y1 - s) / (y1 - y0) * (h - top - bottom);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    svg += &format!(
        "<line x1=\"{left}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>\n<line x1=\"{left}\" y1=\"{top}\" x2=\"{left}\" y2=\"{}\" stroke=\"black\"/>\n",
        h - bottom,
        w - right,
        h - bottom,
        h - bottom
    );
    for &(t, s) in totals {
        svg += &format!(
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{t} s</text>\n<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{s}</text>\n",
            x(t),
            h - bottom + 18.0,
            x(t),
            y(s as f64) - 8.0
        );
    }
    let points: Vec<String> = totals
        .iter()
        .map(|&(t, s)| format!("{:.1},{:.1}", x(t), y(s as f64)))
        .collect();
    svg += &format!(
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\"/>\n",
        points.join(" ")
    );
    for p in &points {
        let (px, py) = p.split_once(',').expect("a point");
        svg += &format!("<circle cx=\"{px}\" cy=\"{py}\" r=\"4\" fill=\"#1f77b4\"/>\n");
    }
    if let Some(r) = reference {
        svg += &format!(
            "<line x1=\"{left}\" y1=\"{0:.1}\" x2=\"{1}\" y2=\"{0:.1}\" stroke=\"#d62728\" stroke-dasharray=\"6 4\"/>\n<text x=\"{1}\" y=\"{2:.1}\" text-anchor=\"end\" fill=\"#d62728\">reference {r}</text>\n",
            y(r as f64),
            w - right,
            y(r as f64) - 6.0
        );
    }
    svg += &format!(
        "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">seconds per problem (log scale)</text>\n<text x=\"{left}\" y=\"18\">total score</text>\n</svg>\n",
        (left + w - right) / 2.0,
        h - 10.0
    );
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_lists_every_problem_at_every_budget() {
        let curve = vec![vec![(0, 10), (1, 20)], vec![(0, 15), (1, 25)]];
        let t = curve_table(&["1 s".into(), "10 s".into()], &curve);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 4);
        assert!(lines[0].contains("1 s") && lines[0].contains("10 s"));
        assert_eq!(
            lines[1].split_whitespace().collect::<Vec<_>>(),
            ["0", "10", "15"]
        );
        assert_eq!(
            lines[3].split_whitespace().collect::<Vec<_>>(),
            ["total", "30", "40"]
        );
    }

    /// A fall is measured from the best score of any shorter budget, whatever order the
    /// budgets were given in; a problem that never falls is not listed.
    #[test]
    fn falls_are_measured_from_the_best_shorter_budget() {
        let (b1, b3, b2) = (
            [(7, 100), (8, 50), (9, 10)],
            [(7, 90), (8, 60), (9, 10)],
            [(7, 120), (8, 55), (9, 10)],
        );
        let runs = [(1.0, &b1[..]), (3.0, &b3[..]), (2.0, &b2[..])];
        let f = falls(&runs);
        assert_eq!(
            f,
            vec![Fall {
                id: 7,
                shorter: (2.0, 120),
                longer: (3.0, 90),
            }]
        );
        assert!(falls_line(&f).starts_with("falls: 1 problem(s)"));
        assert!(falls_line(&f).contains("by 30 in all"));
        assert!(falls_line(&[]).starts_with("falls: none"));
        // Equal scores at a longer budget are no fall.
        assert!(falls(&[(1.0, &b1[..]), (2.0, &b1[..])]).is_empty());
        // One line per search file, each over its own runs; none with one budget.
        let curve: Vec<Vec<(i64, u64)>> = [b1, b2, b2, b1].iter().map(|b| b.to_vec()).collect();
        let lines = falls_lines(&[1.0, 2.0], &["a ", "b "], &curve);
        let lines: Vec<&str> = lines.lines().collect();
        assert!(lines[0].starts_with("a falls: none"));
        assert!(lines[1].starts_with("b falls: 2 problem(s)") && lines[1].contains("by 25 in all"));
        assert_eq!(falls_lines(&[1.0], &["a "], &curve[..1]), "");
    }

    #[test]
    fn the_plot_has_a_point_per_budget_and_the_reference() {
        let svg = curve_svg(&[(1.0, 100), (10.0, 150), (60.0, 160)], Some(155));
        assert_eq!(svg.matches("<circle").count(), 3);
        assert!(svg.contains("reference 155"));
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        // Higher scores are drawn higher (smaller y).
        let ys: Vec<f64> = svg
            .match_indices("cy=\"")
            .map(|(i, _)| {
                let rest = &svg[i + 4..];
                rest[..rest.find('"').unwrap()].parse().unwrap()
            })
            .collect();
        assert!(ys[0] > ys[1] && ys[1] > ys[2]);
    }
}
