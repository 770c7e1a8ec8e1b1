//! The relay's one stream as the engine asks for it: opened on the
//! capabilities it names, each answer, announced end and loss told to the
//! engine (and the caller).

use std::rc::Rc;

use media_gen_api::relay::RelayInfo;
use media_gen_api::TaskKey;

use super::{now, report, tell, wake, Shared};
use crate::relay_stream::RelayStream;

/// Open the relay's stream on `capabilities`, telling the engine when the
/// gateway answers it, each end it announces, and when it is given up.
pub(super) fn open_stream(state: &Shared, relay: &RelayInfo, capabilities: &[String]) {
    let url = {
        let client = &state.borrow().client;
        let token = client.page_token();
        format!(
            "{}{}",
            client.base_url(),
            relay.stream_path(capabilities.iter().map(String::as_str), token.as_deref())
        )
    };
    let (on_open, on_task, on_closed) = (
        Rc::downgrade(state),
        Rc::downgrade(state),
        Rc::downgrade(state),
    );
    let stream = RelayStream::open(
        &url,
        move || {
            if let Some(state) = on_open.upgrade() {
                stream_news(&state, true);
            }
        },
        move |task| {
            let Some(state) = on_task.upgrade() else {
                return;
            };
            let key = TaskKey::new(task.kind(), task.task_id());
            let verdict = state
                .borrow_mut()
                .engine
                .stream_end(&key, task.status(), now());
            if let Some(verdict) = verdict {
                wake(&state);
                report(&state, key, Some(task), None, verdict);
            }
        },
        move || {
            if let Some(state) = on_closed.upgrade() {
                drop(state.borrow_mut().stream.take());
                stream_news(&state, false);
            }
        },
    );
    match stream {
        Some(stream) => state.borrow_mut().stream = Some(stream),
        None => stream_news(state, false),
    }
}

/// The gateway answered the stream (`true`), or the browser gave it up:
/// the engine hears it, then whoever listens ([`Poller::on_stream`]).
fn stream_news(state: &Shared, open: bool) {
    tell(state, |engine, now| {
        if open {
            engine.stream_opened(now);
        } else {
            engine.stream_lost(now, js_sys::Math::random());
        }
    });
    let on_stream = state.borrow().on_stream.clone();
    if let Some(on_stream) = on_stream {
        on_stream(open);
    }
}
