//! People forgotten elsewhere (`keys revoke NAME --forget`, run beside a
//! running gateway, or on another gateway), dropped here: every second the
//! marks of the last day are read (the library's database, else the shared
//! Redis); a mark not seen before is matched against the people this
//! gateway holds something of (their use counted here, their sessions,
//! their uploads and kept copies), and what it holds of them goes: their
//! use and grants dropped, their files deleted (410 at once), and the
//! library's rows removed again, in case a write of theirs was in flight
//! when the command ran.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use crate::access::forgotten::mark;
use crate::access::now_seconds;
use crate::Gateway;

/// How often the marks are read.
const EVERY: Duration = Duration::from_secs(1);

/// While the gateway runs: drop the people forgotten elsewhere.
pub async fn watch(gateway: Gateway) {
    let mut seen: HashSet<String> = HashSet::new();
    let mut every = tokio::time::interval(EVERY);
    loop {
        every.tick().await;
        let Some(marks) = marks(&gateway).await else {
            continue;
        };
        let new: HashSet<String> = marks.difference(&seen).cloned().collect();
        if !new.is_empty() {
            drop_marked(&gateway, &new).await;
        }
        // Marks gone from the store (a day passed, a key given again) are
        // let go here too: the same person forgotten again is dropped again.
        seen = marks;
    }
}

/// The marks kept now, or none when neither store answers.
async fn marks(gateway: &Gateway) -> Option<HashSet<String>> {
    if let Some(library) = &gateway.library {
        return match library.forgotten().await {
            Ok(marks) => Some(marks.into_iter().collect()),
            Err(error) => {
                tracing::warn!(%error, "the people forgotten could not be read");
                None
            }
        };
    }
    let link = gateway.redis.as_ref()?;
    let mut connection = link.connection().ok()?;
    match crate::access::shared::usage::forgotten(&mut connection).await {
        Ok(marks) => Some(marks.into_iter().collect()),
        Err(error) => {
            tracing::warn!(%error, "the people forgotten could not be read from Redis");
            None
        }
    }
}

/// Drop what this gateway holds of the people `marks` name.
async fn drop_marked(gateway: &Gateway, marks: &HashSet<String>) {
    let now = now_seconds();
    let mut names: HashMap<String, String> = gateway
        .admission
        .access
        .people_held()
        .into_iter()
        .map(|name| (mark(&name), name))
        .collect();
    if let Some(uploads) = &gateway.uploads {
        match uploads.store.owners().await {
            Ok(owners) => names.extend(
                owners
                    .iter()
                    .filter_map(|owner| owner.strip_prefix("person:"))
                    .map(|name| (mark(name), name.to_owned())),
            ),
            Err(error) => {
                tracing::warn!(error = %crate::observe::Scrubbed(&error), "the uploads' owners could not be read")
            }
        }
    }
    for (_, name) in names.iter().filter(|(marked, _)| marks.contains(*marked)) {
        let grants = gateway.admission.access.drop_person(name);
        let (uploads, kept) = match &gateway.uploads {
            Some(store) => store
                .store
                .forget_owner(&format!("person:{name}"), now)
                .await
                .unwrap_or_else(|error| {
                    tracing::warn!(error = %crate::observe::Scrubbed(&error), "a forgotten person's files are deleted on the next pass");
                    (0, 0)
                }),
            None => (0, 0),
        };
        // Their use in Redis again, should this gateway have written it
        // back between the command and now.
        if let Some(link) = &gateway.redis {
            if let Ok(mut connection) = link.connection() {
                if let Err(error) =
                    crate::access::shared::usage::forget(&mut connection, name, now).await
                {
                    tracing::warn!(%error, "a forgotten person's use stays in Redis until the next pass");
                }
            }
        }
        let rows = match &gateway.library {
            Some(library) => match library.forget(name, now).await {
                Ok(removed) => removed.requests + removed.tasks + removed.use_records,
                Err(error) => {
                    tracing::warn!(%error, "a forgotten person's rows stay until the next pass");
                    0
                }
            },
            None => 0,
        };
        // Counts only: never the name.
        tracing::info!(
            grants,
            uploads,
            kept,
            rows,
            "a person forgotten elsewhere was dropped here"
        );
    }
}
