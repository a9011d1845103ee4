//! A limit on the CPU time of a piece of work spread over threads (`dagaz evaluate --time-limit`: a rule
//! set's batches, their games each on a game thread, and the loading and reports between them).
//!
//! Each thread that works for it charges its own CPU time as it goes ([`Meter::charge`]): a game thread at
//! every ply, and the game's watcher every [`super::runner`] tick while the game thread is inside one ply
//! (a thread's CPU clock can be read from another thread), so that a ply or a bot's move that does not
//! return is cut as well. CPU time, not wall time: other processes on the machine do not change it, nor does
//! the number of games played at once. On a system without per-thread CPU clocks the meters count wall
//! time.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The CPU time allowed, and what has been spent.
#[derive(Debug)]
pub struct CpuBudget {
    limit_ns: u64,
    spent_ns: AtomicU64,
}

fn ns(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

impl CpuBudget {
    /// A budget of `limit`, of which `spent` is spent already (by an earlier invocation).
    pub fn new(limit: Duration, spent: Duration) -> CpuBudget {
        CpuBudget {
            limit_ns: ns(limit),
            spent_ns: AtomicU64::new(ns(spent)),
        }
    }

    pub fn limit(&self) -> Duration {
        Duration::from_nanos(self.limit_ns)
    }

    pub fn spent(&self) -> Duration {
        Duration::from_nanos(self.spent_ns.load(Ordering::SeqCst))
    }

    pub fn charge(&self, d: Duration) {
        let _ = self
            .spent_ns
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |s| {
                Some(s.saturating_add(ns(d)))
            });
    }

    /// Whether the spent time has reached the limit.
    pub fn exhausted(&self) -> bool {
        self.spent_ns.load(Ordering::SeqCst) >= self.limit_ns
    }
}

/// A thread's CPU clock, which any thread can read while that thread lives.
#[derive(Clone, Copy, Debug)]
struct ThreadClock(#[cfg(target_os = "linux")] libc::clockid_t);

impl ThreadClock {
    /// The calling thread's.
    #[cfg(target_os = "linux")]
    fn current() -> Option<ThreadClock> {
        let mut id: libc::clockid_t = 0;
        // SAFETY: `pthread_self()` is a live thread (the caller) and `id` a place for the answer.
        let r = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut id) };
        (r == 0).then_some(ThreadClock(id))
    }

    #[cfg(not(target_os = "linux"))]
    fn current() -> Option<ThreadClock> {
        None
    }

    /// The thread's CPU time so far (`None` once the thread has ended).
    #[cfg(target_os = "linux")]
    fn read(&self) -> Option<Duration> {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid timespec to write; a clock id of an ended thread is refused, not undefined.
        let r = unsafe { libc::clock_gettime(self.0, &mut t) };
        (r == 0).then(|| Duration::new(t.tv_sec as u64, t.tv_nsec as u32))
    }

    #[cfg(not(target_os = "linux"))]
    fn read(&self) -> Option<Duration> {
        None
    }
}

/// Charges one thread's time to a budget, a piece at a time: each charge adds what the thread used since
/// the previous one (since [`Meter::start`] for the first). It can be charged from any thread.
#[derive(Debug)]
pub struct Meter {
    clock: Option<ThreadClock>,
    /// The thread's CPU time at the last charge (with a CPU clock).
    last: Duration,
    /// The wall time at the last charge (without one).
    last_wall: std::time::Instant,
}

impl Meter {
    /// A meter of the calling thread, from now.
    pub fn start() -> Meter {
        let clock = ThreadClock::current();
        Meter {
            clock,
            last: clock.and_then(|c| c.read()).unwrap_or_default(),
            last_wall: std::time::Instant::now(),
        }
    }

    /// Adds the thread's time since the last charge to `budget`; whether the budget is used up.
    pub fn charge(&mut self, budget: &CpuBudget) -> bool {
        match self.clock {
            Some(c) => {
                if let Some(now) = c.read() {
                    budget.charge(now.saturating_sub(self.last));
                    self.last = now;
                }
            }
            None => {
                let now = std::time::Instant::now();
                budget.charge(now - self.last_wall);
                self.last_wall = now;
            }
        }
        budget.exhausted()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spins until the calling thread has used `d` of CPU time.
    fn spin(d: Duration) {
        let c = ThreadClock::current();
        let start = c.and_then(|c| c.read());
        let t0 = std::time::Instant::now();
        let mut x = 0u64;
        loop {
            for _ in 0..10_000 {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            }
            std::hint::black_box(x);
            let used = match (c.and_then(|c| c.read()), start) {
                (Some(now), Some(s)) => now.saturating_sub(s),
                _ => t0.elapsed(),
            };
            if used >= d {
                return;
            }
        }
    }

    /// A thread's work is charged, by the thread itself and by another one while it lives; a budget is used
    /// up at its limit.
    #[test]
    fn a_threads_work_is_charged_from_any_thread() {
        let b = std::sync::Arc::new(CpuBudget::new(
            Duration::from_secs(3600),
            Duration::from_secs(1),
        ));
        assert_eq!(b.spent(), Duration::from_secs(1));
        let mut m = Meter::start();
        spin(Duration::from_millis(20));
        assert!(!m.charge(&b));
        assert!(b.spent() >= Duration::from_millis(1020), "{:?}", b.spent());
        let (spun_tx, spun) = std::sync::mpsc::channel();
        let (charged, charged_rx) = std::sync::mpsc::channel::<()>();
        let h = std::thread::spawn(move || {
            let m = Meter::start();
            spin(Duration::from_millis(30));
            spun_tx.send(m).unwrap();
            // Alive until the other thread has read this one's clock.
            let _ = charged_rx.recv();
        });
        let mut other = spun.recv().unwrap();
        let before = b.spent();
        other.charge(&b);
        charged.send(()).unwrap();
        h.join().unwrap();
        assert!(
            b.spent() >= before + Duration::from_millis(30),
            "{:?} then {:?}",
            before,
            b.spent()
        );
        let small = CpuBudget::new(Duration::from_millis(1), Duration::ZERO);
        assert!(!small.exhausted());
        small.charge(Duration::from_millis(1));
        assert!(small.exhausted());
    }
}
