//! A store's report as one self-contained web page (`hextris store report --html`): the table of
//! [`Report`] (sortable by any column, the problems below their reference marked), the total
//! against time and a small chart of each problem's score against time (inline SVG, drawn here),
//! the share of each problem's score that is power as bars, the entries that do not count, and a
//! link per problem to its replay page ([`super::html`], one per problem with all its seeds held).
//!
//! The replay pages are written beside the report, not inside it: together they weigh more than
//! the report should (the 25 problems of 2015 with every seed held make 5.4 MB of replays,
//! problem 4's 50 seeds alone 1.5 MB), while the report itself stays a few tens of kilobytes.
//! Nothing is fetched: the page's script ([`REPORT_JS`], `report.js` beside this file) only sorts
//! the table; the charts and rows are in the HTML.

use super::html::{self, SeedReplay};
use super::svg::escape;
use super::Replay;
use crate::engine::{Phrases, Problem};
use crate::store::report::{Point, ProblemRow, Report};
use std::fmt::Write;

/// The script of the page.
pub const REPORT_JS: &str = include_str!("report.js");

/// The file name of a problem's replay page, in the folder beside the report.
pub fn replay_file(problem_id: i64) -> String {
    format!("problem_{problem_id}.html")
}

/// The replay page of a problem's counted entries (one game per seed held, in the problem's
/// order of seeds), or `None` when it holds none.
pub fn replay_page(
    row: &ProblemRow,
    problem: &Problem,
    phrases: &Phrases,
    store: &str,
) -> Option<String> {
    let replays: Vec<Replay> = row
        .entries
        .iter()
        .map(|e| Replay::load(problem, e.seed, &e.solution, phrases.clone()))
        .collect();
    let games: Vec<SeedReplay> = replays
        .iter()
        .zip(&row.entries)
        .map(|(replay, e)| SeedReplay {
            replay,
            heading: format!(
                "problem {} seed {} · {} · found {} · score {}",
                problem.id, e.seed, e.tag, e.found, e.score
            ),
        })
        .collect();
    (!games.is_empty()).then(|| {
        html::render(
            &games,
            0,
            0,
            &format!("hextris · problem {} · {store}", problem.id),
        )
    })
}

/// A time as the page shows it: the date and the minute, UTC.
fn when(t: i64) -> String {
    let secs = std::time::Duration::from_secs(t.max(0) as u64);
    let iso = crate::store::timestamp(std::time::UNIX_EPOCH + secs);
    iso[..16].replace('T', " ")
}

/// A step chart of `points` as inline SVG, `w` by `h` pixels, over the times `span` (the whole
/// store's, so that the small charts of the problems line up with the total's): the score holds
/// from one point to the next and to the end. With `axes`, the first and last times and the
/// highest score are written on it.
pub fn chart(
    points: &[Point],
    span: (i64, i64),
    size: (u32, u32),
    axes: bool,
    class: &str,
) -> String {
    let (w, h) = size;
    let (left, bottom, top) = if axes {
        (64.0, 22.0, 8.0)
    } else {
        (2.0, 2.0, 2.0)
    };
    let (w_f, h_f) = (w as f64, h as f64);
    let mut out = format!(
        "<svg class=\"{class}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\">"
    );
    if points.is_empty() {
        out.push_str("</svg>");
        return out;
    }
    let top_score = points.iter().map(|p| p.1).max().unwrap_or(0).max(1) as f64;
    // A span of one time is drawn as a level line across the chart.
    let (start, end) = span;
    let length = (end - start).max(1) as f64;
    let x = |t: i64| left + (t - start) as f64 / length * (w_f - left - 4.0);
    let y = |s: u64| top + (1.0 - s as f64 / top_score) * (h_f - top - bottom);
    let mut path = format!("M{:.1},{:.1}", x(start), y(0));
    for &(t, s) in points {
        // The score holds until the time of the improvement, then rises.
        let _ = write!(path, "H{:.1}V{:.1}", x(t), y(s));
    }
    let _ = write!(path, "H{:.1}", w_f - 4.0);
    let _ = write!(out, "<path class=\"line\" d=\"{path}\"/>");
    if axes {
        let _ = write!(
            out,
            "<line class=\"axis\" x1=\"{left}\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\"/>\
             <line class=\"axis\" x1=\"{left}\" y1=\"{top}\" x2=\"{left}\" y2=\"{0}\"/>\
             <text x=\"{2}\" y=\"{3:.1}\" text-anchor=\"end\">{4}</text>\
             <text x=\"{2}\" y=\"{0}\" text-anchor=\"end\">0</text>\
             <text x=\"{left}\" y=\"{5}\">{6}</text>\
             <text x=\"{1}\" y=\"{5}\" text-anchor=\"end\">{7}</text>",
            h_f - bottom,
            w_f - 4.0,
            left - 4.0,
            top + 10.0,
            top_score,
            h_f - 4.0,
            when(start),
            when(end)
        );
        // Each improvement is a point that names its time and total when hovered.
        for &(t, s) in points {
            let _ = write!(
                out,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\"><title>{}: {s}</title></circle>",
                x(t),
                y(s),
                when(t)
            );
        }
    }
    out.push_str("</svg>");
    out
}

/// The cells of one row of the table, each with the value it sorts by.
fn row_cells(p: &ProblemRow, name: &str, against: bool, span: (i64, i64)) -> String {
    let mut out = String::new();
    let share = if p.score == 0 {
        0.0
    } else {
        p.power_score as f64 / p.score as f64
    };
    let latest = p.latest.as_deref().unwrap_or("-");
    let _ = write!(
        out,
        "<td data-v=\"{}\">{name}</td><td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td>\
         <td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td>\
         <td data-v=\"{share:.4}\"><span class=\"bar\"><span style=\"width:{:.1}%\"></span></span> \
         {:.0}%</td><td data-v=\"{}\">{}</td>",
        p.problem_id,
        p.seeds,
        p.seeds,
        p.held,
        p.held,
        p.score,
        p.score,
        p.move_score,
        p.move_score,
        p.power_score,
        p.power_score,
        share * 100.0,
        share * 100.0,
        escape(latest),
        escape(
            &latest
                .chars()
                .take(16)
                .collect::<String>()
                .replace('T', " ")
        ),
    );
    if against {
        let (r, d) = match (p.reference, p.difference) {
            (Some(r), Some(d)) => (r.to_string(), format!("{d:+}")),
            _ => ("-".into(), "-".into()),
        };
        let _ = write!(
            out,
            "<td data-v=\"{}\">{r}</td><td class=\"diff\" data-v=\"{}\">{d}</td>",
            p.reference.unwrap_or(0),
            p.difference.unwrap_or(0)
        );
    }
    let _ = write!(
        out,
        "<td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td>",
        p.unsound.len(),
        p.unsound.len(),
        p.history.len(),
        chart(&p.history, span, (160, 28), false, "spark")
    );
    out
}

/// The page of a report; `replays` is the folder of the replay pages, relative to the page.
pub fn render(r: &Report, title: &str, replays: Option<&str>) -> String {
    let against = r.reference.is_some();
    let mut out = String::from(html::HEAD);
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    out.push_str(STYLE);
    let _ = writeln!(out, "</head>\n<body>\n<h1>{}</h1>", escape(title));
    let total = r.total_row();
    let _ = write!(
        out,
        "<p id=\"summary\">Total <b id=\"total\">{}</b> = {} move + {} power, over {} problems \
         ({} of {} seeds held)",
        r.total,
        r.move_total,
        r.power_total,
        r.problems.len(),
        total.held,
        total.seeds
    );
    if let (Some(reference), Some(d)) = (r.reference, r.difference) {
        let _ = write!(out, "; the reference makes {reference} ({d:+})");
    }
    out.push_str(".</p>\n<h2>The total against time</h2>\n");
    let span = match (r.history.first(), r.history.last()) {
        (Some(a), Some(b)) => (a.0, b.0),
        _ => (0, 0),
    };
    out.push_str(&chart(&r.history, span, (900, 260), true, "total"));
    out.push_str(
        "\n<p class=\"note\">A seed counts from the time its present entry was found: the store \
         keeps only the best entry of each seed, so this is a lower bound of what it held.</p>\n",
    );
    out.push_str("<h2>Problems</h2>\n<table id=\"problems\">\n<thead><tr>");
    let mut heads = vec![
        "problem",
        "seeds",
        "held",
        "score",
        "move",
        "power",
        "power share",
        "latest",
    ];
    if against {
        heads.extend(["against", "difference"]);
    }
    heads.extend(["unsound", "score against time"]);
    for h in heads {
        let _ = write!(out, "<th title=\"sort\">{h}</th>");
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for p in &r.problems {
        let mut class = Vec::new();
        if p.difference.is_some_and(|d| d < 0) {
            class.push("below");
        }
        if !p.unsound.is_empty() {
            class.push("unsound");
        }
        // A problem links to its replay page when it holds a game to replay.
        let name = match replays {
            Some(dir) if !p.entries.is_empty() => format!(
                "<a class=\"replay\" href=\"{}/{}\">{}</a>",
                escape(dir),
                replay_file(p.problem_id),
                p.problem_id
            ),
            _ => p.problem_id.to_string(),
        };
        let _ = writeln!(
            out,
            "<tr id=\"p{}\" class=\"{}\">{}</tr>",
            p.problem_id,
            class.join(" "),
            row_cells(p, &name, against, span)
        );
    }
    out.push_str("</tbody>\n<tfoot>");
    let cells = row_cells(&total, "total", against, span);
    let _ = writeln!(out, "<tr id=\"total-row\">{cells}</tr></tfoot>\n</table>");
    unsound_list(&mut out, r);
    out.push_str("<script>\n");
    out.push_str(REPORT_JS);
    out.push_str("</script>\n</body>\n</html>\n");
    out
}

/// The entries that do not count, one line each.
fn unsound_list(out: &mut String, r: &Report) {
    let lines: Vec<String> = r
        .problems
        .iter()
        .flat_map(|p| {
            p.unsound.iter().map(move |u| {
                format!(
                    "<li>problem {} seed {} ({}, found {}): not counted: {}</li>",
                    p.problem_id,
                    u.seed,
                    escape(&u.tag),
                    escape(&u.found),
                    escape(&u.why)
                )
            })
        })
        .collect();
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "<h2>Entries not counted</h2>\n<ul id=\"unsound\">\n{}\n</ul>",
        lines.join("\n")
    );
}

const STYLE: &str = r#"<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 12px 16px; color: #222; background: #fff; }
h1 { font-size: 18px; margin: 0 0 6px; }
h2 { font-size: 15px; margin: 16px 0 6px; }
.note { color: #666; font-size: 12px; margin: 2px 0; }
svg.total { display: block; max-width: 100%; height: auto; }
svg .line { fill: none; stroke: #2a6fdb; stroke-width: 2; }
svg.spark .line { stroke-width: 1.5; }
svg .axis { stroke: #999; }
svg text { font-size: 11px; fill: #555; }
svg circle { fill: #2a6fdb; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 2px 8px; border-bottom: 1px solid #e4e4e4; text-align: right; white-space: nowrap; }
th { cursor: pointer; background: #f4f4f4; user-select: none; }
th.asc::after { content: " ▲"; } th.desc::after { content: " ▼"; }
tfoot td { font-weight: bold; border-top: 2px solid #999; }
tr.below td:nth-child(1), tr.below td.diff { color: #c00; font-weight: bold; }
tr.unsound { background: #fff3e0; }
.bar { display: inline-block; width: 80px; height: 10px; background: #e8e8e8; vertical-align: middle; }
.bar span { display: block; height: 100%; background: #b35c00; }
</style>
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::report::UnsoundEntry;

    fn row(id: i64, score: u64, reference: Option<u64>, unsound: Vec<UnsoundEntry>) -> ProblemRow {
        ProblemRow {
            problem_id: id,
            seeds: 2,
            held: 1,
            score,
            move_score: score / 4,
            power_score: score - score / 4,
            latest: Some("2026-11-27T00:14:05Z".into()),
            reference,
            difference: reference.map(|r| score as i64 - r as i64),
            unsound,
            history: vec![(100, score / 2), (200, score)],
            entries: Vec::new(),
        }
    }

    #[test]
    fn the_page_has_a_row_per_problem_marks_and_lists_what_does_not_count() {
        let bad = UnsoundEntry {
            seed: 3,
            tag: "<t>".into(),
            found: "x".into(),
            why: "the solution does not replay (error)".into(),
        };
        let r = Report {
            problems: vec![
                row(0, 100, Some(50), vec![]),
                row(1, 40, Some(80), vec![bad]),
            ],
            total: 140,
            move_total: 35,
            power_total: 105,
            reference: Some(130),
            difference: Some(10),
            history: vec![(100, 70), (200, 140)],
            skipped: 0,
        };
        let page = render(&r, "a <title>", Some("r_replays"));
        assert!(page.contains("<title>a &lt;title&gt;</title>"));
        assert_eq!(page.matches("<tr id=\"p").count(), 2);
        // Only problem 1 is below its reference, and it has an entry not counted.
        assert!(page.contains("<tr id=\"p1\" class=\"below unsound\">"));
        assert!(page.contains("<tr id=\"p0\" class=\"\">"));
        assert!(page.contains("problem 1 seed 3 (&lt;t&gt;, found x): not counted"));
        // No entries are held in this report: no problem links to a replay.
        assert!(!page.contains("r_replays/"));
        assert_eq!(page.matches("class=\"spark\"").count(), 3);
        assert!(page.contains("<svg class=\"total\""));
        assert!(page.contains("<tr id=\"total-row\"><td data-v=\"0\">total</td>"));
        assert!(page.contains("75%</td>"), "problem 0's power share");
        // Nothing is fetched: no address but the SVG namespace's, which names and fetches not.
        let rest = page.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
        assert!(!rest.contains("http") && !rest.contains("src="));
    }

    #[test]
    fn a_chart_steps_through_every_point_and_names_its_ends() {
        let points = [(0, 10), (3600, 40), (7200, 40), (86_400, 100)];
        let svg = chart(&points, (0, 86_400), (300, 100), true, "total");
        assert_eq!(svg.matches("<circle").count(), 4);
        assert!(svg.contains("1970-01-01 00:00") && svg.contains("1970-01-02 00:00"));
        assert!(svg.contains(">100</text>"));
        // The highest point is at the top, the last time at the right edge.
        assert!(svg.contains("H296.0V8.0H296.0\""), "{svg}");
        let empty = chart(&[], (0, 1), (100, 20), false, "spark");
        assert!(empty.ends_with("></svg>") && !empty.contains("path"));
        // A problem's chart on the store's times: it rises half-way and holds to the end.
        let one = chart(&[(50, 7)], (0, 100), (100, 20), false, "spark");
        assert!(one.contains("M2.0,18.0H49.0V2.0H96.0\""), "{one}");
    }
}
