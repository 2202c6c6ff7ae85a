//! The clocks the executor's one loop ([`Executor::work`]) runs by, behind one small trait:
//! the real clock, one per worker thread, whose tasks run at once on that thread and report as
//! they end; and the virtual clock, whose workers are simulated on one thread in work seconds
//! ([`super::Budget::Virtual`]), each task run to its end when it starts and its report filed
//! when the virtual clock reaches that end, in the order of those ends. The loop decides what
//! runs next; a clock says only whether a worker is free, how much time is left, and how a
//! task's report comes back.

use super::{seconds_to, Executor, Report, Shared};
use crate::solve::policy::Outcome;
use crate::solve::tasks::GameData;
use std::sync::MutexGuard;
use std::time::Instant;

/// The lock on what the workers share.
type Held<'e> = MutexGuard<'e, Shared>;

/// What the executor's loop asks of its clock.
pub(super) trait Clock {
    /// Whether a worker is free to take a task now.
    fn free(&self) -> bool;
    /// Whether a new round may be asked for (the run is not closed), before asking.
    fn open(&self, shared: &mut Shared) -> bool;
    /// Whether the round the policy proposed may start, after asking.
    fn admits(&self) -> bool;
    /// The time left before the run's end, in the clock's unit (seconds; work seconds on the
    /// virtual clock); `None` without an end.
    fn left(&self) -> Option<f64>;
    /// Runs task `index` of `seed`'s round, taken from the queue: its report is filed when it
    /// ends on this clock. Returns the lock, held again.
    fn run<'e>(
        &mut self,
        exec: &'e Executor,
        shared: Held<'e>,
        seed: usize,
        index: usize,
    ) -> Held<'e>;
    /// Nothing to take or start: waits for a report (or files the next one). `None` once the
    /// run is over.
    fn wait<'e>(&mut self, exec: &'e Executor, shared: Held<'e>) -> Option<Held<'e>>;
}

/// The real clock of one worker thread, to the run's deadline (none with a budget of
/// attempts).
pub(super) struct RealClock {
    pub deadline: Option<Instant>,
}

impl Clock for RealClock {
    fn free(&self) -> bool {
        // The thread that asks is the free worker.
        true
    }

    fn open(&self, shared: &mut Shared) -> bool {
        if crate::stop::passed(self.deadline) {
            shared.closed = true;
        }
        !shared.closed
    }

    fn admits(&self) -> bool {
        true
    }

    fn left(&self) -> Option<f64> {
        self.deadline.map(seconds_to)
    }

    fn run<'e>(
        &mut self,
        exec: &'e Executor,
        mut shared: Held<'e>,
        seed: usize,
        index: usize,
    ) -> Held<'e> {
        shared.running += 1;
        let q = shared.queued(seed, index);
        let unanswered = shared.policy.unanswered();
        drop(shared);
        let left = q.until.map(seconds_to);
        let (report, game) = exec.run_task(seed, &q, unanswered, left);
        let mut shared = exec.lock();
        shared.running -= 1;
        if let Some(r) = exec.take_report(&mut shared, seed, index, report, game) {
            drop(shared);
            exec.progress.improved(exec.seeds[seed].problem, &r);
            shared = exec.lock();
        }
        exec.wake.notify_all();
        shared
    }

    fn wait<'e>(&mut self, exec: &'e Executor, mut shared: Held<'e>) -> Option<Held<'e>> {
        if shared.running == 0 && shared.flights.iter().all(Option::is_none) {
            shared.closed = true;
            exec.wake.notify_all();
            return None;
        }
        if shared.closed && shared.queue.is_empty() && shared.running == 0 {
            return None;
        }
        Some(exec.wake.wait(shared).expect("no worker panics"))
    }
}

/// A task running on the virtual clock: its end, its seed and index, its report and game.
type Running = (f64, usize, usize, Report, Option<GameData>);

/// The virtual clock of work seconds: `workers` workers simulated on one thread. A task that
/// ends after the budget counts for nothing, as a deadline would have cut it. Nothing reads
/// the real clock, so the run is the same on any machine and under any load.
pub(super) struct VirtualClock {
    budget: f64,
    workers: usize,
    now: f64,
    /// The checkpoints announced to the progress so far.
    announced: usize,
    running: Vec<Running>,
}

impl VirtualClock {
    /// A virtual clock of `budget` work seconds, at 0, with `workers` workers.
    pub fn new(budget: f64, workers: usize) -> VirtualClock {
        VirtualClock {
            budget,
            workers,
            now: 0.0,
            announced: 0,
            running: Vec::new(),
        }
    }
}

impl Clock for VirtualClock {
    fn free(&self) -> bool {
        self.running.len() < self.workers && !crate::stop::requested()
    }

    fn open(&self, _: &mut Shared) -> bool {
        true
    }

    fn admits(&self) -> bool {
        self.now < self.budget
    }

    fn left(&self) -> Option<f64> {
        Some(self.budget - self.now)
    }

    fn run<'e>(
        &mut self,
        exec: &'e Executor,
        shared: Held<'e>,
        seed: usize,
        index: usize,
    ) -> Held<'e> {
        let q = shared.queued(seed, index);
        // The horizon falls this many work seconds of the virtual clock after now.
        let left = q
            .horizon
            .map(|before| (self.budget - before - self.now).max(0.0));
        let (mut report, game) = exec.run_task(seed, &q, 0, left);
        report.plan_seconds = report.plan_work * report.plans as f64;
        report.spell_seconds = report.spell_work;
        let end = self.now + report.work();
        self.running.push((end, seed, index, report, game));
        shared
    }

    fn wait<'e>(&mut self, exec: &'e Executor, mut shared: Held<'e>) -> Option<Held<'e>> {
        let running = &self.running;
        let Some(first) = (0..running.len()).min_by(|&a, &b| running[a].0.total_cmp(&running[b].0))
        else {
            exec.announce(&mut self.announced, self.budget, f64::INFINITY);
            if exec.debug {
                // What this thread counted, operation by operation, for calibrating the work
                // counts against the real seconds a virtual run takes.
                let c = crate::work::counts();
                for op in crate::work::ALL {
                    let (n, w) = (c.0[op as usize], c.seconds_of(op));
                    crate::note!("  counted {op:?}: {n} ({w:.3} work seconds)");
                }
            }
            return None;
        };
        let (end, seed, index, mut report, mut game) = self.running.swap_remove(first);
        exec.announce(&mut self.announced, self.budget, end);
        self.now = end;
        if end > self.budget {
            report.outcome = Outcome::Unfinished;
            game = None;
        }
        if let Some(r) = exec.take_report(&mut shared, seed, index, report, game) {
            drop(shared);
            exec.progress.improved(exec.seeds[seed].problem, &r);
            shared = exec.lock();
        }
        Some(shared)
    }
}
