//! What a person's open pages hear of their library: each task a submit
//! of theirs created (as pending) and each change a read or a callback
//! brought to one of their tasks, told on the relay's stream
//! (`GET /events?library=1`, [`crate::relay::events`]), so a second
//! device shows a task, its progress and its result as they happen. Told
//! on the person's own channel, which no page can name: a stream hears it
//! only when the call that opened it is that person's.

use media_gen_api::AnyTask;

use crate::relay::log::Channel;
use crate::Gateway;

/// The relay channel of `person`'s library: written so that it never has
/// a capability's shape, so no page can ask for it by name.
pub fn channel(person: &str) -> Channel {
    Channel::Library(person.to_owned())
}

/// Tell `person`'s open pages of `task`, when the gateway relays. A store
/// that does not answer loses the news, never the call: the pages read
/// their library again every minute.
pub async fn tell(gateway: &Gateway, person: &str, task: AnyTask) {
    let Some(relay) = &gateway.relay else {
        return;
    };
    if let Err(error) = relay.store().tell(channel(person), task).await {
        tracing::warn!(%error, "a library's news could not be told to its pages");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_channel_is_never_a_capability_and_reads_back() {
        let person = "0123456789abcdef0123456789abcdef";
        let written = channel(person).written();
        assert!(!media_gen_api::relay::is_capability(&written));
        assert_eq!(Channel::read(&written), Some(channel(person)));
        assert!(matches!(
            Channel::read(person),
            Some(Channel::Submission(capability)) if capability.as_str() == person
        ));
        assert_eq!(Channel::read("neither"), None);
    }
}
