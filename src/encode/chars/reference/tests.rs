//! The encoder against its slow twin, the reference encoder: the same plans spelt by both, the
//! texts and the engine's scores compared.

use crate::encode::test_util::Setup;
use crate::encode::{CharStats, CharTables, Encoder, Opening};
use crate::engine::{replay, Problem};
use crate::plan::{plan_greedy, Plan, PlanConfig};
use crate::work::Limit;
use rand::{Rng, SeedableRng};

/// How the encoder did against the reference on a set of plans.
#[derive(Debug, Default)]
struct Tally {
    cases: usize,
    same_text: usize,
    higher: usize,
    lower: usize,
    encoder: u64,
    reference: u64,
    /// The largest shortfall of one case, in points.
    worst: u64,
}

impl Tally {
    /// Spells `plan` of `seed` with both encoders and counts the outcome; both texts must lock
    /// every unit of the plan without an error.
    fn add(&mut self, problem: &Problem, setup: &Setup, plan: &Plan, seed: u32, what: &str) {
        let (encoder, ct): (Encoder, CharTables) = (setup.encoder(), setup.char_tables());
        let mut stats = CharStats::default();
        let new = encoder
            .encode_chars_after(&ct, plan, Opening::default(), &Limit::NONE, &mut stats)
            .expect("no deadline");
        let old = encoder
            .encode_chars_reference(&ct, plan, Opening::default(), &Limit::NONE, &mut stats)
            .expect("no deadline");
        let score = |text: &str| {
            let e = replay(problem, seed, text, &setup.phrases);
            assert!(!e.end.is_error(), "{what}: {}: {text:?}", e.end);
            assert_eq!(e.locked as usize, plan.placements.len(), "{what}: {text:?}");
            e.power_score
        };
        let (a, b) = (score(&new), score(&old));
        self.cases += 1;
        self.same_text += (new == old) as usize;
        self.higher += (a > b) as usize;
        self.lower += (a < b) as usize;
        self.encoder += a;
        self.reference += b;
        self.worst = self.worst.max(b.saturating_sub(a));
    }
}

/// A random problem: a board of 5 to 12 x 6 to 16, its lower half partly filled, 1 to 4 units
/// of 1 to 5 cells, a source of 4 to 24 units.
fn random_problem(rng: &mut impl Rng) -> String {
    crate::testkit::random_small_game(rng, 12, 24)
}

/// On random games (random boards, units and sources, greedy plans of random systems), the
/// encoder's texts score as the reference's or more in all. Per game, the texts differ (the
/// walks break ties between paths of equal value apart: the reference's A* takes the path its
/// global order reaches first, the encoder's depth-first search the best child at each step),
/// and so do the scores of one game in four, as often higher as lower, by a first use
/// (300 points or so) or by a few repetitions either way. Measured with the weights of
/// 2026-12-05 (`low` tuned for whole games): 1,499 games, 224 higher, 170 lower, the rest the
/// same score; 4,972,368 points against 4,969,048.
#[test]
fn the_encoder_scores_as_the_reference_on_random_games() {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(35);
    let mut tally = Tally::default();
    for case in 0..1500 {
        let json = random_problem(&mut rng);
        let Ok(problem) = Problem::from_json(&json, std::path::Path::new("t")) else {
            continue;
        };
        let setup = Setup::new(&json);
        let system = crate::testkit::random_system(&mut rng);
        let mut scorer = crate::testkit::lock_scorer(&setup.tables, system, rng.gen());
        let seed = problem.seeds[0];
        let cfg = PlanConfig::whole_game();
        let plan = plan_greedy(&problem, &setup.tables, seed, &cfg, &mut scorer);
        if plan.placements.is_empty() {
            continue;
        }
        tally.add(
            &problem,
            &setup,
            &plan,
            seed,
            &format!("case {case}: {json}"),
        );
    }
    eprintln!("{tally:?}");
    assert!(tally.cases > 1000, "{tally:?}");
    assert!(tally.encoder >= tally.reference, "{tally:?}");
    assert!(tally.lower <= tally.higher + tally.cases / 50, "{tally:?}");
    assert!(tally.lower + tally.higher < tally.cases / 3, "{tally:?}");
}

/// The official problems whose file is in `../shared` (none when it is missing), with their
/// names.
fn official() -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/icfp2015/problems");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipped: {} is missing", dir.display());
        return Vec::new();
    };
    let mut files: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            let name = f.file_stem().unwrap().to_string_lossy().to_string();
            (name, std::fs::read_to_string(f).unwrap())
        })
        .collect()
}

/// The entries of problem `id` in `solutions/` (`None` when it has no file there).
fn stored(id: i64) -> Option<Vec<serde_json::Value>> {
    let store = format!("{}/solutions/problem_{id}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&store).ok()?;
    Some(serde_json::from_str(&text).unwrap())
}

/// On the official problems (their first seed's greedy plans by `low`, `fill` and `balanced`,
/// the first 30 units of each), the encoder scores as the reference or more in all, and on no
/// game less by more than one first use of a phrase (300 points and twice its length). Per
/// game the walks break ties apart (see the random games' test), and a first use now and then
/// goes to one and not the other. Measured with the weights of 2026-12-05 (`low` tuned for
/// whole games): 460,042 against 459,708; 21 games higher, 4 lower, by 34 or less. Before the
/// begun phrase's rule was mended (`first::rest_fits`), problem 23's game of 10
/// units by `fill` and by `balanced` lost "ia! ia!" (290 points) to the reference, and the
/// tuned `low` put the encoder 206 points below it in all. With `balanced` alone and its
/// weights before, 152,482 against 152,238, none lower by more than 40.
#[test]
fn the_encoder_scores_as_the_reference_on_the_official_problems() {
    let mut tally = Tally::default();
    let mut one_first_use = 0;
    for (name, json) in official() {
        let setup = Setup::new(&json);
        let problem = &setup.problem;
        let seed = problem.seeds[0];
        let longest = setup.phrases.iter().map(|p| p.len()).max().unwrap_or(0);
        one_first_use = 300 + 2 * longest as u64;
        for system in ["low", "fill", "balanced"] {
            let mut plan = crate::testkit::greedy_plan_by(problem, &setup.tables, seed, system);
            plan.placements.truncate(30);
            let before = (tally.encoder, tally.reference);
            tally.add(problem, &setup, &plan, seed, &name);
            let (a, b) = (tally.encoder - before.0, tally.reference - before.1);
            eprintln!("{name} {system}: encoder {a}, reference {b}");
        }
    }
    eprintln!("{tally:?}");
    assert!(tally.encoder >= tally.reference, "{tally:?}");
    assert!(tally.worst <= one_first_use, "{tally:?}");
}

/// The stored games of `solutions/` re-spelt whole by both encoders, problem by problem (by
/// hand: `cargo test --release --lib chars::reference::tests::stored_games_spelt_by_both --
/// --ignored --nocapture`; minutes, most of them the reference's).
#[test]
#[ignore]
fn stored_games_spelt_by_both() {
    let mut tally = Tally::default();
    for (name, json) in official() {
        let setup = Setup::new(&json);
        let problem = &setup.problem;
        let Some(entries) = stored(problem.id) else {
            continue;
        };
        let seed = problem.seeds[0];
        let Some(entry) = entries.iter().find(|e| e["seed"] == seed) else {
            continue;
        };
        let solution = entry["solution"].as_str().unwrap();
        let plan = crate::plan::plan_of_text(problem, &setup.tables, seed, solution).unwrap();
        let before = (tally.encoder, tally.reference, std::time::Instant::now());
        tally.add(problem, &setup, &plan, seed, &name);
        eprintln!(
            "{name}: {} units, encoder {}, reference {} ({:.1} s both)",
            plan.placements.len(),
            tally.encoder - before.0,
            tally.reference - before.1,
            before.2.elapsed().as_secs_f64()
        );
    }
    eprintln!("{tally:?}");
}

/// The stored games of `solutions/` re-spelt whole by the encoder alone, every stored seed:
/// the score and time per game and in all (by hand: `cargo test --release --lib
/// chars::reference::tests::stored_games_respelt -- --ignored --nocapture`; about a minute),
/// to compare two versions of the encoder on the games the solver plays.
#[test]
#[ignore]
fn stored_games_respelt() {
    let (mut total, mut seconds) = (0u64, 0.0);
    for (name, json) in official() {
        let setup = Setup::new(&json);
        let problem = &setup.problem;
        let Some(entries) = stored(problem.id) else {
            continue;
        };
        let (encoder, ct) = (setup.encoder(), setup.char_tables());
        for entry in &entries {
            let seed = entry["seed"].as_u64().unwrap() as u32;
            let solution = entry["solution"].as_str().unwrap();
            let plan = crate::plan::plan_of_text(problem, &setup.tables, seed, solution).unwrap();
            let start = std::time::Instant::now();
            let mut stats = CharStats::default();
            let text = encoder
                .encode_chars(&ct, &plan, &Limit::NONE, &mut stats)
                .expect("no deadline");
            let secs = start.elapsed().as_secs_f64();
            let e = replay(problem, seed, &text, &setup.phrases);
            assert!(!e.end.is_error(), "{name} seed {seed}: {}", e.end);
            assert_eq!(e.locked as usize, plan.placements.len());
            eprintln!(
                "{name} seed {seed}: {} units, {} points, {secs:.2} s",
                plan.placements.len(),
                e.score
            );
            total += e.score;
            seconds += secs;
        }
    }
    eprintln!("in all: {total} points, {seconds:.1} s");
}
