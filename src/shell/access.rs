//! Who the app is signed in as, on a gateway that asks for a person
//! (`--access keys`, or `proxy` behind an auth proxy): learnt from
//! `/capabilities` as the app starts and after each submit, set by signing
//! in or out, and lost when a call is refused for want of a person (a
//! revoked key, an ended session), which brings the sign-in page back with
//! every stored task kept. The same answer says whether the gateway takes
//! uploads, which gives the forms' media fields their file controls.

use leptos::prelude::*;
use leptos::task::spawn_local;
use media_gen_api::relay::{AccessMode, PersonInfo, RelayInfo, UploadsInfo};
use media_gen_ui::forms::file_target::UploadsOffered;

use crate::settings::Settings;

/// Where the app stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignedIn {
    /// Nobody needs to sign in (an open gateway, a service), or it is not
    /// known yet.
    Anyone,
    /// The gateway asks for a person and has none.
    Out,
    /// Signed in as this person; `keys`: with an access key (so signing out
    /// is the app's to do, not an auth proxy's).
    As {
        /// The person and their day.
        person: PersonInfo,
        /// Signed in with a key (`--access keys`).
        keys: bool,
        /// The gateway keeps the person's library (`/library`): the
        /// board is theirs on every device.
        library: bool,
    },
}

/// The app's sign-in state, as context; where its gateway takes uploads,
/// if it does; and where it relays, if it does.
#[derive(Debug, Clone, Copy)]
pub struct Access(
    RwSignal<SignedIn>,
    RwSignal<Option<UploadsInfo>>,
    RwSignal<Option<RelayInfo>>,
);

/// Provide the state and ask the gateway where the app stands.
pub fn provide_access(settings: Settings) -> Access {
    let access = Access(
        RwSignal::new(SignedIn::Anyone),
        RwSignal::new(None),
        RwSignal::new(None),
    );
    provide_context(access);
    provide_context(UploadsOffered(access.1.into()));
    access.refresh(settings);
    access
}

impl Access {
    /// The state provided by the app.
    pub fn expect() -> Access {
        expect_context()
    }

    /// Where the app stands (tracked).
    pub fn get(self) -> SignedIn {
        self.0.get()
    }

    /// Whether the site's gateway keeps a copy of every result (tracked).
    pub fn keeps_results(self) -> bool {
        self.1.with(|uploads| {
            uploads
                .as_ref()
                .is_some_and(|uploads| uploads.keeps_results)
        })
    }

    /// Where the site takes uploads (its tus path), when it does (tracked).
    pub fn uploads_path(self) -> Option<String> {
        self.1
            .with(|uploads| uploads.as_ref().map(|uploads| uploads.path.clone()))
    }

    /// What is left of the signed-in person's day, where the site counts
    /// it (tracked).
    pub fn allowance(self) -> Option<media_gen_api::cost::Allowance> {
        self.0.with(|state| match state {
            SignedIn::As { person, .. } if person.tasks_per_day > 0 => {
                Some(media_gen_api::cost::Allowance {
                    left: person.tasks_left_today,
                    per_day: person.tasks_per_day,
                })
            }
            _ => None,
        })
    }

    /// The signed-in person's name when the gateway keeps their library
    /// (tracked).
    pub fn library_of(self) -> Option<String> {
        self.0.with(|state| match state {
            SignedIn::As {
                person,
                library: true,
                ..
            } => Some(person.name.clone()),
            _ => None,
        })
    }

    /// Where the site's relay tells the signed-in person's library news,
    /// when it keeps their library and relays (tracked).
    pub fn library_news(self) -> Option<RelayInfo> {
        self.library_of()?;
        self.2.get()
    }

    /// Whether the sign-in page is due (tracked).
    pub fn is_out(self) -> bool {
        self.0.with(|state| *state == SignedIn::Out)
    }

    /// Ask the gateway where the app stands (as the app starts, once signed
    /// in, after a submit). An unreachable site changes nothing.
    pub fn refresh(self, settings: Settings) {
        let client = settings.client();
        spawn_local(async move {
            let Ok(capabilities) = client.capabilities(None).await else {
                return;
            };
            self.1.try_set(capabilities.uploads);
            self.2.try_set(capabilities.relay);
            let state = match capabilities.access {
                None => SignedIn::Anyone,
                Some(info) => match info.person {
                    Some(person) => SignedIn::As {
                        person,
                        keys: info.mode == AccessMode::Keys,
                        library: info.library,
                    },
                    None if info.mode == AccessMode::Open => SignedIn::Anyone,
                    None => SignedIn::Out,
                },
            };
            self.0.try_set(state);
        });
    }

    /// After a submit: what is left of the signed-in person's day (nothing
    /// to ask when nobody needs to sign in), or back to signing in when it
    /// was refused for want of a person.
    pub fn after_submit(self, settings: Settings, refused: bool) {
        if refused {
            self.refused();
        } else if matches!(self.0.get_untracked(), SignedIn::As { .. }) {
            self.refresh(settings);
        }
    }

    /// A call was refused for want of a person: back to the sign-in page.
    pub fn refused(self) {
        self.0.try_set(SignedIn::Out);
    }

    /// Sign out, then show the sign-in page whatever the gateway said (the
    /// call is a chunk, fetched when a person signs out).
    pub fn sign_out(self, settings: Settings) {
        spawn_local(async move {
            if let Ok(signing_out) = crate::chunks::drawn!(crate::chunks::sign_out(settings)) {
                signing_out.await;
            }
            self.0.try_set(SignedIn::Out);
        });
    }
}
