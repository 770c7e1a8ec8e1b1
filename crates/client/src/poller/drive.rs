//! The driver's loop: carry out the engine's commands (reads, the
//! stream), sleep until it wants to be asked again or news comes, and
//! tell the engine, then the caller, how each read went.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use futures::channel::mpsc;
use futures::future::{select, Either};
use futures::StreamExt;
use media_gen_api::follow::{Command, ReadOutcome};
use media_gen_api::TaskKey;
use wasm_bindgen_futures::spawn_local;

use super::stream::open_stream;
use super::{now, report, wake, State};
use crate::ClientError;

/// The driver: carry out what the engine asks, then sleep until it wants
/// to be asked again or something changes.
pub(super) async fn drive(
    state: Weak<RefCell<State>>,
    mut woken: mpsc::UnboundedReceiver<()>,
    signal: Option<web_sys::AbortSignal>,
) {
    loop {
        let Some(shared) = state.upgrade() else {
            return;
        };
        if shared.borrow().stopped {
            return;
        }
        let commands = shared.borrow_mut().engine.poll(now());
        for command in commands {
            match command {
                Command::Read(key) => {
                    spawn_local(read(Rc::downgrade(&shared), key, signal.clone()))
                }
                Command::OpenStream {
                    relay,
                    capabilities,
                } => open_stream(&shared, &relay, &capabilities),
                Command::CloseStream => drop(shared.borrow_mut().stream.take()),
            }
        }
        let wait = shared
            .borrow()
            .engine
            .next_wake()
            .map(|at| at.saturating_sub(now()));
        drop(shared);
        match wait {
            Some(0) => {}
            Some(wait) => {
                let timer =
                    gloo_timers::future::TimeoutFuture::new(wait.min(u64::from(u32::MAX)) as u32);
                if let Either::Right((None, _)) = select(timer, woken.next()).await {
                    return;
                }
            }
            None => {
                if woken.next().await.is_none() {
                    return;
                }
            }
        }
    }
}

/// Read one task and tell the engine, then the caller.
async fn read(state: Weak<RefCell<State>>, key: TaskKey, signal: Option<web_sys::AbortSignal>) {
    let Some(client) = state.upgrade().map(|state| state.borrow().client.clone()) else {
        return;
    };
    let result = client.task(key.kind, &key.id, signal.as_ref()).await;
    let Some(state) = state.upgrade() else {
        return;
    };
    let outcome = match &result {
        Ok(task) => ReadOutcome::Read(task.status().clone()),
        Err(ClientError::Aborted) => ReadOutcome::Aborted,
        Err(error) => ReadOutcome::Failed {
            retryable: error.retryable(),
            shape: matches!(error, ClientError::Shape { .. }),
        },
    };
    let verdict = state.borrow_mut().engine.read_done(&key, outcome, now());
    // Not borrowed while the caller hears: it may watch or stop in turn.
    let stopped = state.borrow().stopped;
    if let (Some(verdict), false) = (verdict, stopped) {
        let (task, error) = match result {
            Ok(task) => (Some(task), None),
            Err(error) => (None, Some(error)),
        };
        report(&state, key, task, error, verdict);
    }
    wake(&state);
}
