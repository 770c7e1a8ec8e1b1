//! What a person's open pages hear of their library: each task a submit
//! of theirs created (as pending) and each change a read or a callback
//! brought to one of their tasks, told on the relay's stream
//! (`GET /events?library=1`, [`crate::relay::events`]), so a second
//! device shows a task, its progress and its result as they happen. Told
//! on the person's own channel, which no page can name: a stream hears it
//! only when the call that opened it is that person's.

use std::sync::Arc;

use media_gen_api::AnyTask;

use crate::library::database::BoxFuture;
use crate::relay::log::Channel;
use crate::relay::Relay;
use crate::Gateway;

/// Tell `person`'s open pages of `task`, when the gateway relays. A store
/// that does not answer loses the news, never the call: the pages read
/// their library again every minute.
pub async fn tell(gateway: &Gateway, person: &str, task: AnyTask) {
    let Some(relay) = &gateway.relay else {
        return;
    };
    if let Err(error) = relay.store().tell(Channel::library(person), task).await {
        tracing::warn!(%error, "a library's news could not be told to its pages");
    }
}

/// The relay's stream as the way the library tells a person's pages of a
/// change to their requests (a star, a collection).
pub struct RelayedNews(pub Arc<Relay>);

impl crate::library::news::PagesNews for RelayedNews {
    fn tell<'a>(&'a self, person: &'a str, tasks: Vec<AnyTask>) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            for task in tasks {
                if let Err(error) = self.0.store().tell(Channel::library(person), task).await {
                    tracing::warn!(%error, "a library's news could not be told to its pages");
                    return;
                }
            }
        })
    }
}
