//! The replay page of `hextris render --html` in a real browser: headless Chromium driven through
//! chromedriver over WebDriver (plain HTTP and JSON; the few commands needed are a small client
//! here, which keeps the build free of an async runtime).
//!
//! For a solver solution (with several seeds), an erroring one, and the 1,620-unit game of
//! problem 24 when `../shared/icfp2015` is present, the page must open with no console error, and
//! at frames reached by the URL fragment, by keys, by the slider and by playing, its status lines,
//! command-strip marks and every board cell (state and colour) must equal what the engine's
//! replay says at that frame. The page of `hextris store report`, whose links open such pages, is
//! tested the same way (`browser/report.rs`). A screenshot of each page is written under the
//! target folder.
//!
//! Without Chromium and chromedriver (looked up on PATH, or `HEXTRIS_CHROMIUM` and
//! `HEXTRIS_CHROMEDRIVER`), the tests are ignored and their names say SKIPPED and why; `.ci/run`
//! installs both, so CI always runs them.

mod common;
#[path = "browser/report.rs"]
mod report;

use hextris::engine::Phrases;
use hextris::view::ansi::status_text;
use hextris::view::{unit_colour, xterm_rgb, Owner, Replay, START_COLOUR};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn main() {
    let args = Arguments::from_args();
    let names = [
        "page_of_a_solver_solution",
        "page_of_an_erroring_solution",
        "page_of_problem_24",
        "page_of_a_store_report",
    ];
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/icfp2015/RULES.md");
    let trials = match find_browser() {
        Ok((chromium, driver)) => {
            let driver = Arc::new(Mutex::new(Driver::new(driver)));
            let tests: [PageTest; 4] = [
                solver_solution,
                erroring_solution,
                problem_24,
                report::store_report,
            ];
            names
                .into_iter()
                .zip(tests)
                .map(|(name, test)| {
                    let needs_shared = ["page_of_problem_24", "page_of_a_store_report"];
                    if needs_shared.contains(&name) && !shared.exists() {
                        return skipped(name, "../shared/icfp2015 is missing".into());
                    }
                    let (driver, chromium) = (driver.clone(), chromium.clone());
                    Trial::test(name, move || {
                        let port = driver.lock().unwrap().port()?;
                        let session = Session::start(port, &chromium, name)?;
                        let result = test(&session);
                        let console = session.console_errors();
                        session.close();
                        result?;
                        let console = console?;
                        if console.is_empty() {
                            Ok(())
                        } else {
                            Err(format!("console errors: {console:?}").into())
                        }
                    })
                })
                .collect()
        }
        Err(reason) => {
            eprintln!("browser tests: SKIPPED, {reason}");
            names
                .iter()
                .map(|name| skipped(name, reason.clone()))
                .collect()
        }
    };
    let mut trials: Vec<Trial> = trials;
    trials.push(Trial::test(
        "render_html_refuses_bad_input_and_writes_nothing",
        bad_input,
    ));
    let conclusion = libtest_mimic::run(&args, trials);
    conclusion.exit();
}

/// A test of a page in a browser session.
type PageTest = fn(&Session) -> Result<(), Failed>;

/// A test that cannot run here: ignored, its name saying why (and failing with the reason if run
/// with `--ignored`, since it checked nothing).
fn skipped(name: &str, reason: String) -> Trial {
    Trial::test(format!("{name} (SKIPPED: {reason})"), move || {
        Err(reason.clone().into())
    })
    .with_ignored_flag(true)
}

/// Chromium and chromedriver: from the environment, or on PATH.
fn find_browser() -> Result<(PathBuf, PathBuf), String> {
    let find = |var: &str, names: &[&str]| -> Option<PathBuf> {
        if let Some(p) = std::env::var_os(var) {
            return Some(PathBuf::from(p)).filter(|p| p.is_file());
        }
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path)
            .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
            .find(|p| p.is_file())
    };
    let chromium = find(
        "HEXTRIS_CHROMIUM",
        &["chromium", "chromium-browser", "google-chrome"],
    );
    let driver = find("HEXTRIS_CHROMEDRIVER", &["chromedriver"]);
    match (chromium, driver) {
        (Some(c), Some(d)) => Ok((c, d)),
        (c, d) => Err(format!(
            "no {} found (apt-get install chromium chromium-driver)",
            [("chromium", c.is_none()), ("chromedriver", d.is_none())]
                .iter()
                .filter(|(_, missing)| *missing)
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
                .join(" and no ")
        )),
    }
}

/// One chromedriver for all the tests, started when the first one needs it and stopped when the
/// process ends.
struct Driver {
    exe: PathBuf,
    child: Option<(Child, u16)>,
}

impl Driver {
    fn new(exe: PathBuf) -> Driver {
        Driver { exe, child: None }
    }

    fn port(&mut self) -> Result<u16, String> {
        if let Some((_, port)) = &self.child {
            return Ok(*port);
        }
        // A free port: bind one, release it, and hand it to chromedriver.
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| format!("no free port: {e}"))?
            .port();
        let child = Command::new(&self.exe)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{}: {e}", self.exe.display()))?;
        self.child = Some((child, port));
        let t0 = Instant::now();
        loop {
            if let Ok(v) = http(port, "GET", "/status", None) {
                if v["ready"] == true {
                    return Ok(port);
                }
            }
            if t0.elapsed() > Duration::from_secs(20) {
                return Err("chromedriver did not become ready in 20 s".into());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if let Some((child, _)) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// One WebDriver request; the `value` of the answer, or the error it reports.
fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .map_err(|e| e.to_string())?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json; \
         charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream
        .write_all(request.as_bytes())
        .map_err(|e| e.to_string())?;
    // chromedriver keeps the connection open whatever the request says: read the header, then
    // exactly the body it announces.
    let mut raw = Vec::new();
    let mut buf = [0u8; 65536];
    let read_more =
        |stream: &mut TcpStream, raw: &mut Vec<u8>, buf: &mut [u8]| match stream.read(buf) {
            Ok(0) => Err(format!("{method} {path}: connection closed early")),
            Ok(n) => {
                raw.extend_from_slice(&buf[..n]);
                Ok(())
            }
            Err(e) => Err(format!("{method} {path}: {e}")),
        };
    let split = loop {
        if let Some(p) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            break p;
        }
        read_more(&mut stream, &mut raw, &mut buf)?;
    };
    let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
    let length = head.lines().find_map(|l| {
        l.strip_prefix("content-length:")
            .and_then(|v| v.trim().parse::<usize>().ok())
    });
    let body_start = split + 4;
    let payload = match length {
        Some(n) => {
            while raw.len() < body_start + n {
                read_more(&mut stream, &mut raw, &mut buf)?;
            }
            raw[body_start..body_start + n].to_vec()
        }
        None if head.contains("transfer-encoding: chunked") => {
            while !raw[body_start..].ends_with(b"0\r\n\r\n") {
                read_more(&mut stream, &mut raw, &mut buf)?;
            }
            dechunk(&raw[body_start..])?
        }
        None => {
            let _ = stream.read_to_end(&mut raw);
            raw[body_start..].to_vec()
        }
    };
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("{method} {path}: no status"))?;
    let v: Value = serde_json::from_slice(&payload)
        .map_err(|e| format!("{method} {path}: answer is not JSON: {e}"))?;
    if status != 200 {
        return Err(format!(
            "{method} {path}: HTTP {status}: {} {}",
            v["value"]["error"], v["value"]["message"]
        ));
    }
    Ok(v["value"].clone())
}

fn dechunk(mut data: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let line = data
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or("bad chunk")?;
        let size = usize::from_str_radix(
            String::from_utf8_lossy(&data[..line])
                .split(';')
                .next()
                .unwrap_or("")
                .trim(),
            16,
        )
        .map_err(|e| format!("bad chunk size: {e}"))?;
        if size == 0 {
            return Ok(out);
        }
        let start = line + 2;
        out.extend_from_slice(data.get(start..start + size).ok_or("short chunk")?);
        data = data.get(start + size + 2..).ok_or("short chunk")?;
    }
}

/// A browser session: one headless Chromium with a fresh profile.
struct Session {
    port: u16,
    id: String,
    profile: PathBuf,
}

impl Session {
    fn start(port: u16, chromium: &Path, name: &str) -> Result<Session, String> {
        let profile = tmp_dir(&format!("profile-{name}"));
        let args = [
            "--headless".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-dev-shm-usage".into(),
            "--window-size=1200,1000".into(),
            format!("--user-data-dir={}", profile.display()),
        ];
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium, "args": args},
            "goog:loggingPrefs": {"browser": "ALL"},
        }}});
        let v = http(port, "POST", "/session", Some(&caps))?;
        let id = v["sessionId"].as_str().ok_or("no session id")?.to_string();
        Ok(Session { port, id, profile })
    }

    fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        http(
            self.port,
            method,
            &format!("/session/{}{path}", self.id),
            body.as_ref(),
        )
    }

    fn open(&self, url: &str) -> Result<(), String> {
        self.cmd("POST", "/url", Some(json!({ "url": url })))
            .map(|_| ())
    }

    fn run(&self, script: &str) -> Result<Value, String> {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    /// Presses and releases a key (a character, or a WebDriver key code such as `\u{E014}`).
    fn key(&self, key: &str) -> Result<(), String> {
        let actions = json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]});
        self.cmd("POST", "/actions", Some(actions)).map(|_| ())
    }

    fn screenshot(&self, path: &Path) -> Result<(), String> {
        let v = self.cmd("GET", "/screenshot", None)?;
        let png = base64_decode(v.as_str().ok_or("no screenshot")?)?;
        std::fs::write(path, png).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The browser's log entries at level SEVERE since the last call (console errors and
    /// uncaught exceptions).
    fn console_errors(&self) -> Result<Vec<String>, String> {
        let v = self.cmd("POST", "/se/log", Some(json!({"type": "browser"})))?;
        Ok(v.as_array()
            .ok_or("the log is not a list")?
            .iter()
            .filter(|e| e["level"] == "SEVERE")
            .map(|e| e["message"].to_string())
            .collect())
    }

    fn close(self) {
        let _ = self.cmd("DELETE", "", None);
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn base64_decode(s: &str) -> Result<Vec<u8>, String> {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for c in s.bytes().filter(|&c| c != b'=' && !c.is_ascii_whitespace()) {
        let d = A.iter().position(|&a| a == c).ok_or("bad base64")? as u32;
        acc = (acc << 6) | d;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Ok(out)
}

fn tmp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("browser-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Writes the page with `hextris render --html`.
fn render(problem: &Path, solutions: &Path, out: &Path, extra: &[&str]) -> Result<(), String> {
    let o = Command::new(env!("CARGO_BIN_EXE_hextris"))
        .arg("render")
        .arg("-f")
        .arg(problem)
        .arg(solutions)
        .arg("--html")
        .arg(out)
        .args(extra)
        .output()
        .map_err(|e| e.to_string())?;
    if !o.status.success() {
        return Err(format!(
            "render --html failed: {}",
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    Ok(())
}

/// What the page shows, read from its document.
const READ_PAGE: &str = r#"
const t = (id) => document.getElementById(id).textContent;
const cells = Array.from(document.querySelectorAll('#cells polygon'))
  .map((p) => (p.getAttribute('class') || '') + (p.getAttribute('fill') || ''));
const pivot = document.getElementById('pivot');
return {
  frame: Number(document.getElementById('seek').value),
  max: Number(document.getElementById('seek').max),
  status: t('status'), phrases: t('phrases'), note: t('note'),
  error: document.getElementById('note').classList.contains('error'),
  current: Array.from(document.querySelectorAll('#strip .cur')).map((e) => e.textContent),
  spelt: document.querySelectorAll('#strip .ph').length,
  marker: document.querySelectorAll('#strip .err').length,
  heading: t('heading'), cells: cells, pivot: pivot.style.display !== 'none',
  hash: location.hash, playing: t('play'),
};
"#;

fn rgb(c: u8) -> String {
    let (r, g, b) = xterm_rgb(c);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// Checks what the page shows against the engine's replay at frame `i`.
fn check_frame(page: &Value, r: &Replay, i: usize, what: &str) -> Result<(), Failed> {
    let fail = |m: String| -> Result<(), Failed> { Err(format!("{what}: {m}").into()) };
    if page["frame"] != i {
        return fail(format!("the page is at frame {}, not {i}", page["frame"]));
    }
    if page["max"] != r.len() {
        return fail(format!(
            "the slider ends at {}, not {}",
            page["max"],
            r.len()
        ));
    }
    let state = r.state_at(i);
    let st = status_text(r, &state);
    for (key, want) in [
        ("status", &st.line),
        ("phrases", &st.phrases),
        ("note", &st.note),
    ] {
        if page[key] != want.as_str() {
            return fail(format!("{key} {:?}, the engine says {want:?}", page[key]));
        }
    }
    if page["error"] != st.error {
        return fail(format!("error mark {}, want {}", page["error"], st.error));
    }
    // Every cell: the unit in play in its unit's colour, filled cells in their owner's, empty.
    let p = r.problem();
    let piece = state.game().piece();
    let piece_cells = state.game().piece_cells();
    let cells = page["cells"].as_array().ok_or("no cells")?;
    if cells.len() != p.width * p.height {
        return fail(format!("{} cells drawn", cells.len()));
    }
    for y in 0..p.height as i64 {
        for x in 0..p.width as i64 {
            let want = match (piece, state.owners().get(x, y)) {
                (Some(pc), _) if piece_cells.contains(&hextris::engine::Cell::new(x, y)) => {
                    format!("p{}", rgb(unit_colour(pc.unit)))
                }
                (_, Owner::Empty) => "e#eeeeee".to_string(),
                (_, Owner::Start) => format!("f{}", rgb(START_COLOUR)),
                (_, Owner::Unit(k)) => format!("f{}", rgb(unit_colour(k))),
            };
            // The engine's board itself, not only the viewer's owners, decides filled or not.
            let filled = state.game().board().is_filled(x, y);
            let got = cells[y as usize * p.width + x as usize]
                .as_str()
                .unwrap_or("");
            if got != want || got.starts_with('f') != filled {
                return fail(format!("cell ({x}, {y}) is {got:?}, want {want:?}"));
            }
        }
    }
    if page["pivot"] != piece.is_some() {
        return fail(format!("pivot shown: {}", page["pivot"]));
    }
    // The strip marks the character of the command that led here.
    let current: Vec<String> = match i.checked_sub(1) {
        Some(k) => vec![r.text()[r.played()[k].char_index].to_string()],
        None => vec![],
    };
    if page["current"] != json!(current) {
        return fail(format!(
            "current command {} , want {current:?}",
            page["current"]
        ));
    }
    let at_error = i == r.len() && matches!(r.stop(), Some((_, Some(_))));
    if page["marker"] != at_error as u32 {
        return fail(format!("{} error markers", page["marker"]));
    }
    Ok(())
}

fn url(path: &Path, fragment: &str) -> String {
    format!("file://{}#{fragment}", path.display())
}

/// Presses `key`, then checks the page at frame `want`.
fn key_to(s: &Session, r: &Replay, key: &str, want: usize, what: &str) -> Result<(), Failed> {
    s.key(key)?;
    check_frame(&s.run(READ_PAGE)?, r, want, what)
}

const RIGHT: &str = "\u{E014}";
const LEFT: &str = "\u{E012}";
const DOWN: &str = "\u{E015}";
const HOME: &str = "\u{E011}";
const END: &str = "\u{E010}";

fn solver_solution(s: &Session) -> Result<(), Failed> {
    let dir = tmp_dir("solver");
    let problem_path = repo("problems/sample_hex.json");
    let solutions = repo("docs/sample_hex_solutions.json");
    let page = dir.join("sample.html");
    render(&problem_path, &solutions, &page, &[])?;
    let problem = hextris::io::read_problem(&problem_path).map_err(|e| e.to_string())?;
    let list: Value = serde_json::from_str(&std::fs::read_to_string(&solutions)?)?;
    let entries = list.as_array().ok_or("not a list")?;
    let text_of = |k: usize| entries[k]["solution"].as_str().unwrap_or("").to_string();
    let seed_of = |k: usize| entries[k]["seed"].as_u64().unwrap_or(0) as u32;
    let r = Replay::load(&problem, seed_of(0), &text_of(0), Phrases::official());
    assert!(r.stop().is_none() && r.len() > 2000, "a whole solver game");

    // The fragment opens the page at a frame; the first open has no console error to report.
    let at = 1500;
    s.open(&url(&page, &format!("seed={}&step={at}", seed_of(0))))?;
    let shown = s.run(READ_PAGE)?;
    check_frame(&shown, &r, at, "fragment step 1500")?;
    if shown["spelt"].as_u64().unwrap_or(0) == 0 {
        return Err("no phrase highlighted in the strip at frame 1500".into());
    }
    s.screenshot(&dir.join("replay.png"))?;

    // The viewer's keys, forwards and backwards, by command and by unit.
    key_to(s, &r, RIGHT, at + 1, "→")?;
    key_to(s, &r, "l", at + 2, "l")?;
    key_to(s, &r, "h", at + 1, "h")?;
    key_to(s, &r, LEFT, at, "←")?;
    let next = r.next_unit(at);
    key_to(s, &r, "j", next, "j")?;
    key_to(s, &r, DOWN, r.next_unit(next), "↓")?;
    key_to(s, &r, "k", r.previous_unit(r.next_unit(next)), "k")?;
    key_to(s, &r, "k", r.previous_unit(next), "k again")?;
    key_to(s, &r, END, r.len(), "End")?;
    key_to(s, &r, LEFT, r.len() - 1, "← from the end")?;
    key_to(s, &r, "G", r.len(), "G")?;
    key_to(s, &r, HOME, 0, "Home")?;
    key_to(s, &r, "h", 0, "h at the start")?;

    // The slider seeks.
    s.run(
        "const e = document.getElementById('seek'); e.value = 777; \
         e.dispatchEvent(new Event('input')); return 0;",
    )?;
    check_frame(&s.run(READ_PAGE)?, &r, 777, "slider")?;

    // Playing advances; space pauses, and the frame it stopped at is the engine's.
    s.key(" ")?;
    std::thread::sleep(Duration::from_millis(600));
    s.key(" ")?;
    let shown = s.run(READ_PAGE)?;
    let stopped = shown["frame"].as_u64().unwrap_or(0) as usize;
    if stopped <= 777 || shown["playing"] != "play" {
        return Err(format!(
            "playing did not advance: frame {stopped}, {}",
            shown["playing"]
        )
        .into());
    }
    check_frame(&shown, &r, stopped, "after playing")?;
    if shown["hash"] != format!("#seed={}&step={stopped}", seed_of(0)) {
        return Err(format!("the address says {}", shown["hash"]).into());
    }
    key_to(s, &r, LEFT, stopped - 1, "← after playing")?;

    // Another seed of the file, by the fragment (a hash change, no reload).
    let (k2, seed2) = (1..entries.len())
        .map(|k| (k, seed_of(k)))
        .find(|&(_, sd)| sd != seed_of(0))
        .ok_or("the sample has one seed")?;
    let r2 = Replay::load(&problem, seed2, &text_of(k2), Phrases::official());
    s.open(&url(&page, &format!("seed={seed2}&step=321")))?;
    let shown = s.run(READ_PAGE)?;
    check_frame(&shown, &r2, 321, "second seed")?;
    if !shown["heading"]
        .as_str()
        .unwrap_or("")
        .contains(&format!("seed {seed2}"))
    {
        return Err(format!("heading {}", shown["heading"]).into());
    }
    key_to(s, &r2, END, r2.len(), "second seed, End")?;

    // The console check must be able to fail: a logged error shows in the browser's log.
    let before = s.console_errors()?;
    if !before.is_empty() {
        return Err(format!("console errors: {before:?}").into());
    }
    s.run("console.error('hextris-probe'); return 0;")?;
    let probe = s.console_errors()?;
    if !probe.iter().any(|m| m.contains("hextris-probe")) {
        return Err(format!("the browser log misses a console error: {probe:?}").into());
    }
    Ok(())
}

fn erroring_solution(s: &Session) -> Result<(), Failed> {
    let dir = tmp_dir("error");
    let problem_path = repo("problems/sample_hex.json");
    let problem = hextris::io::read_problem(&problem_path).map_err(|e| e.to_string())?;
    let list: Value = serde_json::from_str(&std::fs::read_to_string(repo(
        "docs/sample_hex_solutions.json",
    ))?)?;
    let good = list[0]["solution"].as_str().ok_or("no solution")?;
    let seed = list[0]["seed"].as_u64().ok_or("no seed")? as u32;
    // A prefix of a good game, then E and W: W returns the unit to where it was (when E did not
    // lock it), which the evaluator refuses as a repeated position.
    let text = (400..good.len())
        .map(|cut| format!("{}bp", &good[..cut]))
        .find(|t| {
            let r = Replay::load(&problem, seed, t, Phrases::official());
            matches!(r.stop(), Some((e, Some('p'))) if e.is_error())
        })
        .ok_or("no erroring prefix found")?;
    let r = Replay::load(&problem, seed, &text, Phrases::official());
    let solutions = dir.join("erroring.json");
    let entry = json!([{"problemId": problem.id, "seed": seed, "solution": text}]);
    std::fs::write(&solutions, entry.to_string())?;
    let page = dir.join("erroring.html");
    render(&problem_path, &solutions, &page, &["--step", "5"])?;

    // --step chooses the first frame when the address does not.
    s.open(&url(&page, ""))?;
    check_frame(&s.run(READ_PAGE)?, &r, 5, "--step 5")?;
    key_to(s, &r, END, r.len(), "End: the error")?;
    let shown = s.run(READ_PAGE)?;
    if !shown["note"].as_str().unwrap_or("").contains("repeated") {
        return Err(format!("the note at the error: {}", shown["note"]).into());
    }
    s.screenshot(&dir.join("error.png"))?;
    key_to(s, &r, LEFT, r.len() - 1, "← from the error")?;
    s.open(&url(&page, &format!("seed={seed}&step={}", r.len())))?;
    check_frame(&s.run(READ_PAGE)?, &r, r.len(), "fragment at the error")?;
    // Playing from the error does nothing: there is no frame after it.
    s.key("p")?;
    check_frame(&s.run(READ_PAGE)?, &r, r.len(), "play at the end")?;
    Ok(())
}

fn problem_24(s: &Session) -> Result<(), Failed> {
    // The trial is skipped before it runs when the folder is missing (see `main`).
    let shared = common::icfp_dir();
    let dir = tmp_dir("p24");
    let problem_path = shared.join("problems/problem_24.json");
    let solutions = repo("solutions/problem_24.json");
    let page = dir.join("p24.html");
    let t0 = Instant::now();
    render(&problem_path, &solutions, &page, &[])?;
    let written = t0.elapsed();
    let size = std::fs::metadata(&page)?.len();
    let problem = hextris::io::read_problem(&problem_path).map_err(|e| e.to_string())?;
    let list: Value = serde_json::from_str(&std::fs::read_to_string(&solutions)?)?;
    let seed = list[0]["seed"].as_u64().ok_or("no seed")? as u32;
    let text = list[0]["solution"].as_str().ok_or("no solution")?;
    let r = Replay::load(&problem, seed, text, Phrases::official());
    let units = r.played().iter().filter(|p| p.locked).count();
    let t0 = Instant::now();
    s.open(&url(&page, &format!("seed={seed}&step=0")))?;
    let opened = t0.elapsed();
    eprintln!(
        "page_of_problem_24: {} commands, {units} units: {size} bytes, written in {:.0} ms, \
         opened in {:.0} ms",
        r.len(),
        written.as_secs_f64() * 1e3,
        opened.as_secs_f64() * 1e3
    );
    // "A few MB" at most; this is a size, not a timing.
    if size > 2 << 20 {
        return Err(format!("the page of problem 24 is {size} bytes").into());
    }
    check_frame(&s.run(READ_PAGE)?, &r, 0, "problem 24 start")?;
    let mid = r.len() / 2;
    s.open(&url(&page, &format!("seed={seed}&step={mid}")))?;
    check_frame(&s.run(READ_PAGE)?, &r, mid, "problem 24 middle")?;
    key_to(s, &r, "j", r.next_unit(mid), "problem 24 j")?;
    key_to(
        s,
        &r,
        "k",
        r.previous_unit(r.next_unit(mid)),
        "problem 24 k",
    )?;
    key_to(s, &r, END, r.len(), "problem 24 End")?;
    key_to(
        s,
        &r,
        "k",
        r.previous_unit(r.len()),
        "problem 24 k from the end",
    )?;
    s.screenshot(&dir.join("p24.png"))?;
    Ok(())
}

/// Needs no browser: a seed without an entry, a step past the end, or no output named are one
/// line and exit code 2, and no page is left behind.
fn bad_input() -> Result<(), Failed> {
    let dir = tmp_dir("bad");
    let out = dir.join("page.html");
    let problem = repo("problems/sample_hex.json");
    let solutions = repo("docs/sample_hex_solutions.json");
    for (extra, says) in [
        (
            vec!["--html", "OUT", "--seed", "4242"],
            "no entry for problem 1001 seed 4242",
        ),
        (vec!["--html", "OUT", "--step", "99999999"], "past the end"),
        (vec![], "--svg"),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_hextris"))
            .arg("render")
            .arg("-f")
            .arg(&problem)
            .arg(&solutions)
            .args(extra.iter().map(|a| {
                if *a == "OUT" {
                    out.as_os_str()
                } else {
                    std::ffi::OsStr::new(a)
                }
            }))
            .output()?;
        let err = String::from_utf8_lossy(&o.stderr);
        if o.status.code() != Some(2) || !err.contains(says) {
            return Err(format!("{extra:?}: exit {:?}, {err}", o.status.code()).into());
        }
        if std::fs::read_dir(&dir)?.next().is_some() {
            return Err(format!("{extra:?} left a file in {}", dir.display()).into());
        }
    }
    Ok(())
}
