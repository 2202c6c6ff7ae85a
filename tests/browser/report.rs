//! The page of `hextris store report --html` on this repository's store and the 2015 problems:
//! under 5 MB, a row per problem and the total, the total's chart and a chart per problem, the
//! problem below its reference marked, sorting by a column's heading, and a problem's link opening
//! its replay page, which shows what the engine's replay says.

use super::{check_frame, common, repo, tmp_dir, url, Session, READ_PAGE};
use hextris::engine::Phrases;
use hextris::view::Replay;
use libtest_mimic::Failed;
use serde_json::Value;
use std::process::Command;
use std::time::{Duration, Instant};

/// What the report page shows, read from its document.
const READ_REPORT: &str = r#"
const rows = Array.from(document.querySelectorAll('#problems tbody tr'));
const total = document.querySelector('svg.total');
return {
  ids: rows.map((r) => r.id),
  scores: rows.map((r) => Number(r.cells[3].dataset.v)),
  below: rows.filter((r) => r.classList.contains('below')).map((r) => r.id),
  links: document.querySelectorAll('#problems tbody a.replay').length,
  total: document.getElementById('total').textContent,
  totalPath: total ? total.querySelector('path').getAttribute('d').length : 0,
  points: total ? total.querySelectorAll('circle').length : 0,
  sparks: Array.from(document.querySelectorAll('svg.spark'))
    .filter((s) => s.querySelector('path')).length,
  bars: document.querySelectorAll('#problems tbody .bar span').length,
};
"#;

pub fn store_report(s: &Session) -> Result<(), Failed> {
    let shared = common::icfp_dir();
    let dir = tmp_dir("report");
    let page = dir.join("report.html");
    // Problem 5's reference is out of reach, problem 0's is not: only problem 5 is below.
    let against = dir.join("against.json");
    std::fs::write(&against, r#"{"5": 99999999, "0": 1}"#)?;
    let o = Command::new(env!("CARGO_BIN_EXE_hextris"))
        .args(["store", "report", "--json", "--html"])
        .arg(&page)
        .arg(repo("solutions"))
        .arg("-f")
        .arg(shared.join("problems"))
        .arg("--against")
        .arg(&against)
        .output()?;
    if !o.status.success() {
        return Err(format!("store report: {}", String::from_utf8_lossy(&o.stderr)).into());
    }
    let report: Value = serde_json::from_slice(&o.stdout)?;
    let size = std::fs::metadata(&page)?.len();
    eprintln!("page_of_a_store_report: {size} bytes");
    if size >= 5 << 20 {
        return Err(format!("the report is {size} bytes").into());
    }
    s.open(&url(&page, ""))?;
    let shown = s.run(READ_REPORT)?;
    let want_ids: Vec<String> = (0..25).map(|k| format!("p{k}")).collect();
    let history = report["history"].as_array().map_or(0, |h| h.len());
    let checks = [
        ("rows", shown["ids"] == serde_json::json!(want_ids)),
        (
            "total",
            shown["total"].as_str().and_then(|t| t.parse().ok()) == report["total"].as_u64(),
        ),
        ("below", shown["below"] == serde_json::json!(["p5"])),
        ("links", shown["links"] == 25),
        ("total chart", shown["totalPath"].as_u64().unwrap_or(0) > 20),
        ("chart points", shown["points"] == history && history > 1),
        ("problem charts", shown["sparks"] == 26),
        ("power bars", shown["bars"] == 25),
    ];
    if let Some((what, _)) = checks.iter().find(|(_, ok)| !ok) {
        return Err(format!("{what}: the page shows {shown}").into());
    }
    s.screenshot(&dir.join("report.png"))?;

    // A click on the score's heading sorts the problems up, a second one down.
    let sort = "document.querySelectorAll('#problems th')[3].click(); return 0;";
    for (what, up) in [("ascending", true), ("descending", false)] {
        s.run(sort)?;
        let scores: Vec<u64> = s.run(READ_REPORT)?["scores"]
            .as_array()
            .ok_or("no scores")?
            .iter()
            .filter_map(Value::as_u64)
            .collect();
        let ordered = scores
            .windows(2)
            .all(|w| if up { w[0] <= w[1] } else { w[0] >= w[1] });
        if scores.len() != 25 || !ordered {
            return Err(format!("sorted {what}: {scores:?}").into());
        }
    }

    // Problem 24's link opens its replay page, at the start of the game the store holds.
    s.run("document.querySelector('#p24 a.replay').click(); return 0;")?;
    let t0 = Instant::now();
    loop {
        let at = s.run("return location.href;").unwrap_or_default();
        if at
            .as_str()
            .is_some_and(|u| u.contains("report_replays/problem_24.html"))
        {
            break;
        }
        if t0.elapsed() > Duration::from_secs(20) {
            return Err(format!("the link did not open the replay: at {at}").into());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let problem = common::official_problem(&shared, 24);
    let entries: Value =
        serde_json::from_str(&std::fs::read_to_string(repo("solutions/problem_24.json"))?)?;
    let seed = entries[0]["seed"].as_u64().ok_or("no seed")? as u32;
    let text = entries[0]["solution"].as_str().ok_or("no solution")?;
    let r = Replay::load(&problem, seed, text, Phrases::official());
    check_frame(&s.run(READ_PAGE)?, &r, 0, "the replay of problem 24")?;
    Ok(())
}
