//! Plain paths: the shortest path to each lock in plain characters, which every encoder falls
//! back to, and which phrases a problem's units can spell at all ([`spellable`]).

use super::unit::Job;
use super::walk::Spelt;
use super::{Encoder, Mode, PhraseTable};
use crate::engine::{Command, Problem};
use crate::plan::{Bfs, LockKey, Plan, State, Tables, UnitSpace};

/// The shortest path to the unit's lock in plain characters.
pub(super) fn plain_unit(job: &Job, bfs: &mut Bfs) -> Spelt {
    Spelt {
        text: plain_text(job.space, job.free, job.start, job.target, bfs),
        words: Vec::new(),
    }
}

/// The shortest path from `start` to lock `key` on free map `free`, in plain characters, ended
/// by the first command that locks the unit there ([`Command::first_in`]): the text every
/// encoder falls back to.
pub(crate) fn plain_text(
    space: &UnitSpace,
    free: &[u64],
    start: State,
    key: LockKey,
    bfs: &mut Bfs,
) -> String {
    let (cmds, end) = space
        .path(free, start, key, bfs)
        .expect("a planned lock is reachable");
    let lock = Command::first_in(space.lock_cmds(free, end)).expect("a target state can lock");
    cmds.iter().chain([&lock]).map(|c| c.char()).collect()
}

/// The shortest path to each lock, in plain characters, each ended by a locking command.
pub fn plain(problem: &Problem, tables: &Tables, plan: &Plan) -> String {
    let table = PhraseTable::default();
    Encoder::new(problem, tables, &table).encode(plan, Mode::Plain, &crate::work::Limit::NONE)
}

/// Whether each phrase of `table` can be spelt on `problem` by a single unit: some unit reaches,
/// from its spawn on the initial board, a state from which the phrase plays through free
/// states without repeating a position. Returns, per phrase, the first such unit.
pub fn spellable(problem: &Problem, tables: &Tables, table: &PhraseTable) -> Vec<Option<usize>> {
    let encoder = Encoder::new(problem, tables, table);
    let mut scratch = crate::plan::Scratch::default();
    let mut out = vec![None; table.phrases.len()];
    for (u, space) in tables.spaces.iter().enumerate() {
        space.free_map(&problem.board, &mut scratch.free);
        if !space.reach(&scratch.free, &mut scratch.reach, &mut scratch.bufs) {
            continue;
        }
        let job = Job {
            space,
            geometry: &encoder.geometry[u],
            words: &encoder.words,
            free: &scratch.free,
            target: (u8::MAX, 0, 0),
            start: space.spawn_state(),
        };
        // The words that are single phrases come first in the table, in phrase order.
        for (p, slot) in out.iter_mut().enumerate() {
            if slot.is_some() || job.geometry[p].is_none() {
                continue;
            }
            let reachable = (0..space.states)
                .map(|i| space.state_of(i))
                .filter(|&s| space.is_free(&scratch.reach, s));
            if reachable.into_iter().any(|s| job.word_end(p, s).is_some()) {
                *slot = Some(u);
            }
        }
    }
    out
}
