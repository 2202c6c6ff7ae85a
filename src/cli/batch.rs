//! What the commands that run the solver (`hextris solve`, `hextris bench`, `play_icfp2015`)
//! do with a batch's answers: the contest's list of solutions, the results table, and the store
//! of best solutions (the stored games to start from, the answers offered to it). The solving
//! library itself ([`crate::solve`]) knows nothing of the store.

use crate::engine::{Phrases, Problem};
use crate::error::Result;
use crate::io::Solution;
use crate::solve::{ProblemResult, SeedResult};
use crate::store::{Offer, Store};

/// The contest's list of solutions.
pub fn to_solutions(results: &[ProblemResult]) -> Vec<Solution> {
    results
        .iter()
        .flat_map(|r| {
            r.seeds.iter().map(move |s| Solution {
                problem_id: r.problem_id,
                seed: s.seed,
                tag: Some(s.tag.clone()),
                solution: s.solution.clone(),
            })
        })
        .collect()
}

/// A table of the results: per problem, its score with its move and power parts (which add up
/// to it, [`ProblemResult::move_score`]), and the games planned.
pub fn summary(results: &[ProblemResult]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>7} {:>5} {:>9} {:>9} {:>9} {:>7}",
        "problem", "seeds", "move", "power", "score", "games"
    );
    let mut total = 0;
    for r in results {
        let (mv, pw) = (r.move_score, r.power_score());
        let games: u32 = r.seeds.iter().map(|s| s.attempts).sum();
        let _ = writeln!(
            out,
            "{:>7} {:>5} {:>9} {:>9} {:>9} {:>7}",
            r.problem_id,
            r.seeds.len(),
            mv,
            pw,
            r.score,
            games
        );
        total += r.score;
    }
    let _ = writeln!(out, "total {total}");
    out
}

/// The stored best game of every seed of `problems`, to start from: each run then adds to the
/// last instead of starting over.
pub fn store_starts(
    store: &Store,
    problems: &[&Problem],
) -> Result<std::collections::HashMap<(i64, u32), (String, String)>> {
    let mut starts = std::collections::HashMap::new();
    for p in problems {
        for e in store.entries(p.id)? {
            starts.insert((e.problem_id, e.seed), (e.tag, e.solution));
        }
    }
    Ok(starts)
}

/// Whether an answer is worth a store entry: after a stop, a seed that scores nothing was not
/// searched (`solve` and `bench` both leave such seeds out of their stores).
pub fn worth_keeping(r: &SeedResult) -> bool {
    r.score > 0 || !crate::stop::requested()
}

/// Offers the answers to the store of best solutions, saying on stderr what it kept.
pub fn offer_to_store(
    store: &Store,
    problems: &[&Problem],
    phrases: &Phrases,
    results: &[ProblemResult],
) -> Result<()> {
    for (p, r) in problems.iter().zip(results) {
        let answers = to_solutions(std::slice::from_ref(r));
        let offers = store.offer(p, phrases, &answers)?;
        let count = |f: fn(&Offer) -> bool| offers.iter().filter(|o| f(o)).count();
        crate::note!(
            "store: problem {}: {} new, {} better, {} kept",
            p.id,
            count(|o| matches!(o, Offer::New { .. })),
            count(|o| matches!(o, Offer::Better { .. })),
            count(|o| matches!(o, Offer::Kept { .. }))
        );
    }
    Ok(())
}
