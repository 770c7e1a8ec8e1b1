//! Sending a batch: the contract's [`Run`] says which row goes next; this
//! carries it out through the board (each row's tasks stored and followed
//! as a form's are), each request put in the batch's collection where the
//! site keeps a library.

use leptos::prelude::*;
use leptos::task::spawn_local;
use media_gen_api::batch_run::{Next, Outcome, Run};
use media_gen_api::library::RequestId;
use media_gen_api::Request;

use crate::board::Board;
use crate::settings::Settings;

/// A batch being sent, as the page shows it.
#[derive(Debug, Clone, Copy)]
pub struct Sending {
    /// The run.
    pub run: RwSignal<Option<Run>>,
    /// The collection it lands in, by name, once made.
    pub collection: RwSignal<Option<String>>,
    /// Why the collection could not be made, when it could not.
    pub problem: RwSignal<Option<String>>,
}

impl Sending {
    /// Nothing sent yet.
    pub fn new() -> Sending {
        Sending {
            run: RwSignal::new(None),
            collection: RwSignal::new(None),
            problem: RwSignal::new(None),
        }
    }

    /// Whether rows are still going out (tracked).
    pub fn is_sending(self) -> bool {
        self.run
            .with(|run| run.as_ref().is_some_and(|run| !run.is_over()))
    }

    /// Stop: the row in flight ends, no other is sent.
    pub fn stop(self) {
        self.run.update(|run| {
            if let Some(run) = run {
                run.stop();
            }
        });
    }

    /// Send `requests`, one at a time; where `collection` names one, they
    /// land in a new collection of that name.
    pub fn start(self, requests: Vec<Request>, collection: Option<String>) {
        let (board, settings) = (Board::expect(), Settings::expect());
        self.run.set(Some(Run::new(requests.len())));
        self.problem.set(None);
        spawn_local(async move {
            let client = settings.client();
            let mut made = None;
            if let Some(name) = collection {
                match client.add_collection(&name, &[]).await {
                    Ok(id) => {
                        made = Some(id);
                        self.collection.try_set(Some(name));
                    }
                    Err(error) => {
                        self.problem.try_set(Some(format!(
                            "The batch's collection could not be made ({error}): its tasks are on the board all the same."
                        )));
                    }
                }
            }
            loop {
                let next = self
                    .run
                    .try_update(|run| run.as_mut().map(Run::step))
                    .flatten();
                let Some(Next::Send(row)) = next else {
                    break;
                };
                let request = &requests[row];
                let outcome = match board.submit(request).await {
                    Ok(submitted) => {
                        let library = submitted.library.as_deref().and_then(RequestId::parse);
                        if let (Some(id), Some(library)) = (&made, library) {
                            let _ = client.collect(id, &[library]).await;
                        }
                        Outcome::Sent
                    }
                    Err(error) => Outcome::Refused(error.status(), error.to_string()),
                };
                if self
                    .run
                    .try_update(|run| {
                        if let Some(run) = run {
                            run.took(row, outcome);
                        }
                    })
                    .is_none()
                {
                    break;
                }
            }
        });
    }
}
