//! Sharing a run's wall time between its tasks (one per problem and seed) on a pool of workers.
//!
//! The tasks wait in a queue, heaviest first. A worker that is free takes the next task and
//! gives it its share of the capacity left: the worker-seconds until the end of the run that are
//! not yet promised to running tasks, times the task's weight over the weight of the tasks not
//! started, capped at the time left. A task that finishes early gives the rest of its promise
//! back, so that the tasks after it get more. When fewer tasks are left than workers, a task
//! gets several lanes (attempts run side by side), so that no worker idles.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What a worker is to do next.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Assignment {
    /// Index of the task in the order given to [`Scheduler::new`].
    pub task: usize,
    /// When the task must be done.
    pub deadline: Instant,
    /// Attempts it may run at a time.
    pub lanes: usize,
}

/// The time a running task was promised.
#[derive(Clone, Copy, Debug)]
struct Promise {
    until: Instant,
    lanes: usize,
}

#[derive(Debug)]
struct Queue {
    /// The next task to start.
    next: usize,
    /// The weight of the tasks not started.
    weight_left: f64,
    /// Per worker, the promise of its running task.
    running: Vec<Option<Promise>>,
}

/// The shared queue of a run.
#[derive(Debug)]
pub struct Scheduler {
    weights: Vec<f64>,
    end: Instant,
    queue: Mutex<Queue>,
}

impl Scheduler {
    /// A queue of tasks with these weights (in the order they will be started: the caller puts
    /// the heaviest first), for `workers` workers, all done by `end`.
    pub fn new(weights: Vec<f64>, end: Instant, workers: usize) -> Scheduler {
        let weight_left = weights.iter().sum();
        Scheduler {
            weights,
            end,
            queue: Mutex::new(Queue {
                next: 0,
                weight_left,
                running: vec![None; workers.max(1)],
            }),
        }
    }

    /// Worker `worker` is free (its last task, if any, is done): the next task and its share, or
    /// `None` when every task has started.
    pub fn next(&self, worker: usize) -> Option<Assignment> {
        let mut q = self
            .queue
            .lock()
            .expect("no worker panics holding the queue");
        q.running[worker] = None;
        let task = q.next;
        let &w = self.weights.get(task)?;
        let workers = q.running.len();
        let now = Instant::now();
        let left = self.end.saturating_duration_since(now).as_secs_f64();
        let promised: f64 = q
            .running
            .iter()
            .flatten()
            .map(|p| p.until.saturating_duration_since(now).as_secs_f64() * p.lanes as f64)
            .sum();
        let lanes = (workers / (self.weights.len() - task)).max(1);
        let capacity = (workers as f64 * left - promised).max(0.0);
        let share = (capacity * w / q.weight_left.max(w) / lanes as f64).min(left);
        let deadline = now + Duration::from_secs_f64(share);
        q.next += 1;
        q.weight_left -= w;
        q.running[worker] = Some(Promise {
            until: deadline,
            lanes,
        });
        Some(Assignment {
            task,
            deadline,
            lanes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_follow_the_weights_and_every_task_starts_once() {
        let end = Instant::now() + Duration::from_secs(100);
        let s = Scheduler::new(vec![3.0, 1.0], end, 1);
        let a = s.next(0).unwrap();
        assert_eq!((a.task, a.lanes), (0, 1));
        // Three quarters of the time for the first task.
        let share = a
            .deadline
            .saturating_duration_since(Instant::now())
            .as_secs_f64();
        assert!((70.0..=75.5).contains(&share), "{share}");
        let b = s.next(0).unwrap();
        assert_eq!(b.task, 1);
        assert!(s.next(0).is_none());
    }

    #[test]
    fn a_last_task_gets_every_worker() {
        let end = Instant::now() + Duration::from_secs(10);
        let s = Scheduler::new(vec![1.0], end, 4);
        let a = s.next(2).unwrap();
        assert_eq!(a.lanes, 4);
        assert!(a.deadline <= end);
    }
}
