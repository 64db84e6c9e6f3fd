//! Long work without the GIL that Ctrl-C stops.
//!
//! Python runs its signal handlers (`KeyboardInterrupt` for SIGINT) only on
//! the main thread and only when asked, so the thread that called into Rust
//! looks at them every [`POLL`] while the work runs: either between slices
//! of work it does itself ([`sliced`]), or while it waits for a thread of
//! its own doing work that only a stop flag can end, a search ([`beside`]).
//! The first exception a handler raises stops the work and is raised.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, Scope, ScopedJoinHandle};
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyMemoryError, PyRuntimeError};
use pyo3::prelude::*;

/// How often signals are looked at: Ctrl-C stops the work within this.
const POLL: Duration = Duration::from_millis(20);

/// Reading the clock costs a tenth of a random move: only every so often.
const CLOCK_PERIOD: u32 = 32;

/// Whether the work must stop: raised by a helper's caller, or by a signal
/// handler's exception (kept to be raised).
pub struct Stop<'a> {
    flag: &'a AtomicBool,
    /// Whether this thread looks at Python's signals (the calling thread).
    signals: bool,
    /// Calls of [`now`](Stop::now), which reads the clock every
    /// [`CLOCK_PERIOD`]th.
    calls: u32,
    next_poll: Instant,
    error: Option<PyErr>,
}

impl<'a> Stop<'a> {
    /// A stop for a helper thread: only `flag`.
    pub fn helper(flag: &'a AtomicBool) -> Self {
        Stop { flag, signals: false, calls: 0, next_poll: Instant::now(), error: None }
    }

    fn caller(flag: &'a AtomicBool) -> Self {
        Stop { flag, signals: true, calls: 0, next_poll: Instant::now() + POLL, error: None }
    }

    /// Whether to stop now. Cheap: call it between small pieces of work
    /// (a playout, a perft subtree); it takes the GIL at most every [`POLL`].
    pub fn now(&mut self) -> bool {
        if self.flag.load(Ordering::Relaxed) {
            return true;
        }
        self.calls = self.calls.wrapping_add(1);
        self.calls.is_multiple_of(CLOCK_PERIOD) && self.poll()
    }

    /// Whether to stop now, the clock read at once.
    fn poll(&mut self) -> bool {
        if self.flag.load(Ordering::Relaxed) {
            return true;
        }
        if self.signals && Instant::now() >= self.next_poll {
            if let Err(error) = Python::attach(|py| py.check_signals()) {
                self.error = Some(error);
                self.flag.store(true, Ordering::Relaxed);
                return true;
            }
            self.next_poll = Instant::now() + POLL;
        }
        false
    }

    /// Stops the work (and every helper sharing the flag).
    pub fn raise(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Spawns `work` on a thread of `scope` that stops with this one's flag
    /// and wakes this thread when done.
    ///
    /// # Errors
    /// `MemoryError` when no thread can be started (a memory limit).
    pub fn spawn<'scope, 'env, T: Send + 'scope>(
        &self,
        scope: &'scope Scope<'scope, 'env>,
        work: impl FnOnce(&mut Stop<'_>) -> T + Send + 'scope,
    ) -> PyResult<Worker<'scope, T>>
    where
        'a: 'scope,
    {
        let flag = self.flag;
        let done = Arc::new(AtomicBool::new(false));
        let (signal, caller) = (Arc::clone(&done), thread::current());
        let handle = thread::Builder::new()
            .spawn_scoped(scope, move || {
                let result = work(&mut Stop::helper(flag));
                signal.store(true, Ordering::Release);
                caller.unpark();
                result
            })
            .map_err(|e| PyMemoryError::new_err(format!("cannot start a thread: {e}")))?;
        Ok(Worker { handle, done })
    }

    /// Waits for `worker` to finish, looking at signals meanwhile (a signal
    /// raises the flag, and the wait goes on until the thread has stopped).
    ///
    /// # Errors
    /// `RuntimeError` if the thread panicked (a bug).
    pub fn join<T>(&mut self, worker: Worker<'_, T>) -> PyResult<T> {
        while !worker.done.load(Ordering::Acquire) && !worker.handle.is_finished() {
            if self.poll() {
                break;
            }
            thread::park_timeout(POLL);
        }
        worker.handle.join().map_err(|panic| {
            let text = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            PyRuntimeError::new_err(format!("a worker thread failed: {text}"))
        })
    }

    /// The signal handler's exception, if one stopped the work.
    fn into_error(self) -> Option<PyErr> {
        self.error
    }
}

/// A thread started by [`Stop::spawn`].
pub struct Worker<'scope, T> {
    handle: ScopedJoinHandle<'scope, T>,
    /// Raised when the work is done (before the thread has quite ended).
    done: Arc<AtomicBool>,
}

/// Runs `work` on this thread without the GIL; `work` asks `stop.now()`
/// between small pieces and returns early when it says so. A signal
/// handler's exception (`KeyboardInterrupt`) is then raised.
///
/// # Errors
/// The signal handler's exception, or `work`'s error.
pub fn sliced<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&mut Stop<'_>) -> PyResult<T> + Send,
) -> PyResult<T> {
    let flag = AtomicBool::new(false);
    let (result, error) = py.detach(|| {
        let mut stop = Stop::caller(&flag);
        let result = work(&mut stop);
        (result, stop.into_error())
    });
    match error {
        Some(error) => Err(error),
        None => result,
    }
}

/// Runs `work` on a thread of its own without the GIL, `work` stopping when
/// the flag it is given is raised, which a signal does: the calling thread
/// looks at signals while it waits. A signal handler's exception is raised
/// once `work` has stopped.
///
/// # Errors
/// The signal handler's exception; `MemoryError` when no thread can start.
pub fn beside<T: Send>(py: Python<'_>, work: impl FnOnce(&AtomicBool) -> T + Send) -> PyResult<T> {
    sliced(py, |stop| {
        thread::scope(|scope| {
            let worker = stop.spawn(scope, |helper| work(helper.flag))?;
            stop.join(worker)
        })
    })
}
