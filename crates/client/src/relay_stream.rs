//! One `EventSource` on a gateway's relay: every ended task of the
//! submissions it names, as the gateway announces them.
//!
//! The browser reconnects a dropped stream by itself, with the last event
//! id, and the gateway replays what was missed. A stream the browser gives
//! up on (the gateway or its balancer answered an error, or no event
//! stream) is closed; the poller reads those tasks until it opens one again.

use std::rc::Rc;

use gloo_events::EventListener;
use media_gen_api::{AnyTask, TaskKind};
use wasm_bindgen::JsCast;
use web_sys::{EventSource, MessageEvent};

/// An open stream; closed when dropped.
pub struct RelayStream {
    source: EventSource,
    _listeners: Vec<EventListener>,
}

impl RelayStream {
    /// Open `url`: `on_open` hears each time the gateway answers with the
    /// stream (again after each reconnection), `on_task` each announced task
    /// (the browser keeps the last event id for a reconnection itself),
    /// `on_closed` once that the browser gave the stream up.
    pub fn open(
        url: &str,
        on_open: impl Fn() + 'static,
        on_task: impl Fn(AnyTask) + 'static,
        on_closed: impl Fn() + 'static,
    ) -> Option<RelayStream> {
        RelayStream::open_boxed(
            url,
            Box::new(on_open),
            Rc::new(on_task),
            Box::new(on_closed),
        )
    }

    /// [`RelayStream::open`] made once for every caller's closures.
    fn open_boxed(
        url: &str,
        on_open: Box<dyn Fn()>,
        on_task: Rc<dyn Fn(AnyTask)>,
        on_closed: Box<dyn Fn()>,
    ) -> Option<RelayStream> {
        let source = EventSource::new(url).ok()?;
        // One listener per kind: an event is named by its task's kind.
        let mut listeners: Vec<EventListener> = TaskKind::ALL
            .iter()
            .map(|&kind| {
                let on_task = Rc::clone(&on_task);
                EventListener::new(&source, kind.as_str(), move |event| {
                    let Some(message) = event.dyn_ref::<MessageEvent>() else {
                        return;
                    };
                    let task = message.data().as_string().and_then(|data| {
                        let data = crate::value_reader::parse(&data);
                        AnyTask::from_body(kind, &crate::value_reader::Parsed(&data)).ok()
                    });
                    if let Some(task) = task {
                        on_task(task);
                    }
                })
            })
            .collect();
        listeners.push(EventListener::new(&source, "open", move |_| on_open()));
        let closed = source.clone();
        listeners.push(EventListener::new(&source, "error", move |_| {
            if closed.ready_state() == EventSource::CLOSED {
                on_closed();
            }
        }));
        Some(RelayStream {
            source,
            _listeners: listeners,
        })
    }
}

impl Drop for RelayStream {
    fn drop(&mut self) {
        self.source.close();
    }
}
