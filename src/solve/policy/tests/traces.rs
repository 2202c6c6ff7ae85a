//! The golden traces: the first rounds of simulated problems, pinned line by line.

use super::*;

#[test]
#[ignore]
fn show_traces() {
    for (name, world) in [
        ("24", problem_24_like()),
        ("18", survival_like()),
        ("small", small()),
    ] {
        for budget in [1.0, 10.0, 60.0] {
            let (trace, best) = simulate(std::slice::from_ref(&world), 2, Some(budget), None, 1.0);
            eprintln!(
                "== {name} at {budget} s: best {best:?}, {} rounds",
                trace.len()
            );
            for s in trace.iter().take(40) {
                eprintln!("  {:7.3} {}", s.at, describe(s));
            }
        }
    }
}

/// A round as one line: its seed, its kind and its tasks.
fn describe(s: &Step) -> String {
    let desc: Vec<String> = s
        .tasks
        .iter()
        .map(|t| match t {
            Task::Quick { .. } => "quick".to_string(),
            Task::SpellGreedy { .. } => "greedy".into(),
            Task::Polish {
                game,
                from: 0,
                to: None,
            } => format!("polish {game}"),
            Task::Polish { game, from, to } => match to {
                Some(to) => format!("polish {game} {from}..{to}"),
                None => format!("polish {game} {from}.."),
            },
            Task::Exhaust {
                id, part, parts, ..
            } => format!("every #{id} {part}/{parts}"),
            Task::Attempt(a) => format!(
                "#{} s{} w{} {:?}{} t{}",
                a.id,
                a.system,
                a.width,
                a.mode,
                a.base
                    .map_or(String::new(), |(b, c)| format!(" cut {b}@{c}")),
                a.screen.tries
            ),
        })
        .collect();
    format!("seed {} {:?}: {}", s.seed, s.kind, desc.join(" | "))
}

/// The golden traces: the first rounds of two simulated problems, one alone on two workers and
/// one of two seeds sharing them, pinned line by line. A change to the policy that moves them
/// must say so by updating the lines (the failure prints the whole trace).
#[test]
fn golden_traces_of_two_problems() {
    let cases: [(&str, Vec<World>, &[&str]); 2] = [
        ("problem 24 alone", vec![problem_24_like()], &GOLDEN_24),
        ("two small seeds", vec![small(), small()], &GOLDEN_SMALL),
    ];
    let mut wrong = Vec::new();
    for (name, worlds, golden) in cases {
        let (trace, _) = simulate(&worlds, 2, Some(10.0), None, 1.0);
        let got: Vec<String> = trace.iter().take(golden.len()).map(describe).collect();
        if got != golden {
            wrong.push(format!("{name}: the trace is\n{}", got.join("\n")));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

const GOLDEN_24: [&str; 4] = [
    "seed 0 Fresh: quick | greedy | #1 s1 w1 Dp t1",
    "seed 0 Fresh: #2 s2 w4 Dp t1 | #3 s3 w4 Dp t1",
    "seed 0 Fresh: #4 s4 w16 Dp t1 | #5 s1 w16 Dp t1",
    "seed 0 Tail: polish 5 0..810 | polish 5 810..1620",
];
const GOLDEN_SMALL: [&str; 14] = [
    "seed 0 Fresh: quick",
    "seed 1 Fresh: quick",
    "seed 0 Fresh: greedy",
    "seed 1 Fresh: greedy",
    "seed 0 Fresh: #1 s1 w4 Dp t1",
    "seed 1 Fresh: #1 s1 w4 Dp t1",
    "seed 0 Fresh: #2 s2 w16 Dp t1",
    "seed 1 Fresh: #2 s2 w16 Dp t1",
    "seed 0 Fresh: #3 s3 w64 Dp t1",
    "seed 1 Fresh: #3 s3 w64 Dp t1",
    "seed 0 Fresh: #4 s4 w256 Dp t1",
    "seed 1 Fresh: #4 s4 w256 Dp t1",
    "seed 0 Fresh: #5 s0 w1024 Dp t1",
    "seed 1 Fresh: #5 s0 w1024 Dp t1",
];
