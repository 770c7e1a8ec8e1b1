//! Waiting that a caller's `AbortSignal` can cut short, leaving nothing behind.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use futures::channel::oneshot;
use futures::future::{select, Either};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::AbortSignal;

/// Resolves when `signal` aborts. Dropping it removes its event listener.
pub struct Aborted {
    signal: AbortSignal,
    listener: Closure<dyn FnMut()>,
    fired: oneshot::Receiver<()>,
}

impl Aborted {
    /// Watch `signal`.
    pub fn new(signal: &AbortSignal) -> Self {
        let (sender, fired) = oneshot::channel();
        let mut sender = Some(sender);
        if signal.aborted() {
            if let Some(sender) = sender.take() {
                let _ = sender.send(());
            }
        }
        let listener = Closure::<dyn FnMut()>::new(move || {
            if let Some(sender) = sender.take() {
                let _ = sender.send(());
            }
        });
        let _ = signal.add_event_listener_with_callback("abort", listener.as_ref().unchecked_ref());
        Aborted {
            signal: signal.clone(),
            listener,
            fired,
        }
    }
}

impl Future for Aborted {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        Pin::new(&mut self.fired).poll(cx).map(|_| ())
    }
}

impl Drop for Aborted {
    fn drop(&mut self) {
        let _ = self
            .signal
            .remove_event_listener_with_callback("abort", self.listener.as_ref().unchecked_ref());
    }
}

/// Sleep for `duration`, unless `signal` aborts first (`Err(())`). Either way
/// the timer and the listener are gone when this returns.
pub async fn sleep(duration: Duration, signal: Option<&AbortSignal>) -> Result<(), ()> {
    let millis = u32::try_from(duration.as_millis()).unwrap_or(u32::MAX);
    let timer = gloo_timers::future::TimeoutFuture::new(millis);
    match signal {
        None => {
            timer.await;
            Ok(())
        }
        Some(signal) if signal.aborted() => Err(()),
        Some(signal) => match select(timer, Aborted::new(signal)).await {
            Either::Left(_) => Ok(()),
            Either::Right(_) => Err(()),
        },
    }
}
