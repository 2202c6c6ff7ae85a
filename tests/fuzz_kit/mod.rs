//! The seeded generator of `tests/fuzz.rs`: mutations of JSON files, as text (cut short, bytes
//! flipped) or as values (a field dropped, a value of another type, a number out of range, an
//! entry duplicated, a store entry's score raised or its solution changed).
//!
//! Every mutation is drawn from the one `StdRng` it is given, so a case is reproduced from the
//! test's seed and its number alone.

pub mod store;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;
use serde_json::Value;

/// The kinds of mutation, each named in the test's report and in a failure's message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A field of an object, or an item of a list, removed.
    Drop,
    /// A value replaced by one of another type (a string, null, a float, a list, an object).
    WrongType,
    /// A number replaced by one at or past the ends of the ranges the files use.
    OutOfRange,
    /// The text cut short at a random byte.
    Cut,
    /// One to three bits flipped in random bytes of the text.
    Flip,
    /// An item of a list repeated.
    Duplicate,
    /// A store entry's recorded score raised.
    RaiseScore,
    /// A store entry's solution changed (a command replaced, cut, lengthened or emptied).
    ChangeSolution,
    /// An entry of another problem's store file copied into this one, half of the time with
    /// its score raised (done by the store's side, [`store::Bases::mutated_copy`], which knows
    /// the other file).
    Misfiled,
}

/// The kinds that apply to any JSON file.
pub const ANY: [Kind; 6] = [
    Kind::Drop,
    Kind::WrongType,
    Kind::OutOfRange,
    Kind::Cut,
    Kind::Flip,
    Kind::Duplicate,
];

/// The kinds of the store's own, which apply to a store file besides those of [`ANY`].
pub const STORE: [Kind; 3] = [Kind::RaiseScore, Kind::ChangeSolution, Kind::Misfiled];

/// Numbers at and past the ends of the ranges the files use (i32 coordinates, u32 seeds and
/// lengths, i64 ids, u64 scores, the board's side and cell limits), as JSON text.
const EDGES: &[&str] = &[
    "-1",
    "0",
    "1",
    "-2147483648",
    "2147483647",
    "-2147483649",
    "2147483648",
    "4294967295",
    "4294967296",
    "-9223372036854775808",
    "9223372036854775807",
    "18446744073709551615",
    "18446744073709551616",
    "1000000",
    "1000001",
    "100000000",
    "1e300",
    "-0.5",
];

/// The command characters, and a few that are not commands, to change solutions with.
const CHARS: &[char] = &[
    'p',
    '\'',
    '!',
    '.',
    '0',
    '3',
    'b',
    'c',
    'e',
    'f',
    'y',
    '2',
    'a',
    'g',
    'h',
    'i',
    'j',
    '4',
    'l',
    'm',
    'n',
    'o',
    ' ',
    '5',
    'd',
    'q',
    'r',
    'v',
    'z',
    '1',
    'k',
    's',
    't',
    'u',
    'w',
    'x',
    '\t',
    '\n',
    '\r',
    'A',
    'E',
    '#',
    '\u{e9}',
    '\u{1f600}',
];

/// One step of a path into a JSON value.
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

/// Every path into `v` (the root's empty path first), in document order.
fn paths(v: &Value, here: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(here.clone());
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                here.push(Step::Key(k.clone()));
                paths(c, here, out);
                here.pop();
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                here.push(Step::Index(i));
                paths(c, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn get<'v>(v: &'v Value, path: &[Step]) -> &'v Value {
    path.iter().fold(v, |v, s| match s {
        Step::Key(k) => &v[k.as_str()],
        Step::Index(i) => &v[*i],
    })
}

fn at<'v>(v: &'v mut Value, path: &[Step]) -> &'v mut Value {
    path.iter().fold(v, |v, s| match s {
        Step::Key(k) => &mut v[k.as_str()],
        Step::Index(i) => &mut v[*i],
    })
}

/// The paths of `v` whose value passes `keep`.
fn paths_where(v: &Value, keep: impl Fn(&Value, &[Step]) -> bool) -> Vec<Vec<Step>> {
    let mut all = Vec::new();
    paths(v, &mut Vec::new(), &mut all);
    all.into_iter().filter(|p| keep(get(v, p), p)).collect()
}

/// A random path to a field named `key`, if `v` has one.
fn field_path(rng: &mut StdRng, v: &Value, key: &str) -> Option<Vec<Step>> {
    paths_where(v, |_, p| matches!(p.last(), Some(Step::Key(k)) if k == key))
        .choose(rng)
        .cloned()
}

/// Applies one mutation of `kind` to the JSON `text`; returns the mutated bytes and a short
/// description of what changed (for the failure message). A kind that finds nothing to change
/// (no number in the file, say) falls back to cutting the text.
pub fn mutate(rng: &mut StdRng, text: &str, kind: Kind) -> (Vec<u8>, String) {
    let bytes = text.as_bytes();
    match kind {
        Kind::Cut => {
            let n = rng.gen_range(0..bytes.len());
            (bytes[..n].to_vec(), format!("cut at byte {n}"))
        }
        Kind::Flip => {
            let mut out = bytes.to_vec();
            let mut what = Vec::new();
            for _ in 0..rng.gen_range(1..=3) {
                let (i, bit) = (rng.gen_range(0..out.len()), rng.gen_range(0..8));
                out[i] ^= 1 << bit;
                what.push(format!("byte {i} bit {bit}"));
            }
            (out, format!("flipped {}", what.join(", ")))
        }
        _ => {
            let mut v: Value = serde_json::from_str(text).expect("the base files are JSON");
            match mutate_value(rng, &mut v, kind) {
                Some(what) => (v.to_string().into_bytes(), what),
                None => mutate(rng, text, Kind::Cut),
            }
        }
    }
}

fn describe(path: &[Step]) -> String {
    let parts: Vec<String> = path
        .iter()
        .map(|s| match s {
            Step::Key(k) => format!(".{k}"),
            Step::Index(i) => format!("[{i}]"),
        })
        .collect();
    format!("${}", parts.concat())
}

/// The value-level mutations; `None` when the value has nothing of the kind.
fn mutate_value(rng: &mut StdRng, v: &mut Value, kind: Kind) -> Option<String> {
    match kind {
        Kind::Drop => {
            let ps = paths_where(v, |_, p| !p.is_empty());
            let p = ps.choose(rng)?;
            let (last, parent) = p.split_last().expect("not the root");
            match (at(v, parent), last) {
                (Value::Object(m), Step::Key(k)) => {
                    m.remove(k);
                }
                (Value::Array(a), Step::Index(i)) => {
                    a.remove(*i);
                }
                _ => unreachable!("a path's parent holds its last step"),
            }
            Some(format!("dropped {}", describe(p)))
        }
        Kind::WrongType => {
            let p = paths_where(v, |_, _| true).choose(rng)?.clone();
            let other = [
                Value::Null,
                Value::Bool(true),
                Value::String("12".into()),
                serde_json::json!(1.5),
                serde_json::json!([]),
                serde_json::json!({}),
                serde_json::json!([1, 2]),
            ]
            .choose(rng)
            .expect("not empty")
            .clone();
            let what = format!("{} = {other}", describe(&p));
            *at(v, &p) = other;
            Some(what)
        }
        Kind::OutOfRange => {
            let p = paths_where(v, |n, _| n.is_number()).choose(rng)?.clone();
            let edge = *EDGES.choose(rng).expect("not empty");
            *at(v, &p) = serde_json::from_str(edge).expect("the edges are JSON numbers");
            Some(format!("{} = {edge}", describe(&p)))
        }
        Kind::Duplicate => {
            let p = paths_where(v, |a, _| a.as_array().is_some_and(|a| !a.is_empty()))
                .choose(rng)?
                .clone();
            let a = at(v, &p).as_array_mut().expect("chosen as a list");
            let i = rng.gen_range(0..a.len());
            let copy = a[i].clone();
            let to = rng.gen_range(0..=a.len());
            a.insert(to, copy);
            Some(format!("{}[{i}] repeated at {to}", describe(&p)))
        }
        Kind::RaiseScore => {
            let p = field_path(rng, v, "score")?;
            let s = at(v, &p);
            let old = s.as_u64()?;
            let new = match rng.gen_range(0..3) {
                0 => old + 1,
                1 => old + rng.gen_range(1..10_000),
                _ => u64::MAX,
            };
            *s = new.into();
            Some(format!("{} raised from {old} to {new}", describe(&p)))
        }
        Kind::ChangeSolution => {
            let p = field_path(rng, v, "solution")?;
            let s = at(v, &p);
            let old: Vec<char> = s.as_str()?.chars().collect();
            let new = change_solution(rng, &old);
            *s = Value::String(new.iter().collect());
            Some(format!(
                "{} changed ({} chars, was {})",
                describe(&p),
                new.len(),
                old.len()
            ))
        }
        Kind::Misfiled => None,
        Kind::Cut | Kind::Flip => unreachable!("text-level kinds"),
    }
}

/// A solution changed: a character replaced, the text cut, lengthened or emptied, or a phrase
/// of power inserted.
fn change_solution(rng: &mut StdRng, old: &[char]) -> Vec<char> {
    let mut new = old.to_vec();
    let pick = |rng: &mut StdRng| *CHARS.choose(rng).expect("not empty");
    match rng.gen_range(0..5) {
        0 if !new.is_empty() => {
            let i = rng.gen_range(0..new.len());
            new[i] = pick(rng);
        }
        1 => new.truncate(rng.gen_range(0..=new.len())),
        2 => {
            for _ in 0..rng.gen_range(1..20) {
                new.push(pick(rng));
            }
        }
        3 => {
            let i = rng.gen_range(0..=new.len());
            new.splice(i..i, "ei!".chars());
        }
        _ => new.clear(),
    }
    new
}
