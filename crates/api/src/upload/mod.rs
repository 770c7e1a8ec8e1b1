//! One file's upload to a gateway's tus 1.0 uploads, as a machine: the
//! driver tells it what happened ([`Event`]: an answer, no answer, a wait
//! over) and carries out the [`Step`] it gets back (create, ask where the
//! upload stands, send bytes `from..to`, wait, done, failed), then tells
//! the page the [`News`] it drains. No I/O and no clock: the app's uploader
//! (`media-gen-client`) and the npm client's JavaScript both drive it, so
//! a file goes up, resumes and gives up the same way from either.
//!
//! What each answer means, the piece size and the waits are [`crate::tus`]'s.

use std::time::Duration;

use crate::tus::{self, AfterHead, AfterPatch, CHUNK_BYTES};

#[cfg(test)]
mod properties;
#[cfg(test)]
mod tests;

/// What the driver does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// `POST` a new upload of the file's size to the gateway's tus path.
    Create,
    /// `HEAD` the upload at `url`: where does it stand?
    Ask {
        /// The upload's address.
        url: String,
    },
    /// `PATCH` the file's bytes `from..to` to `url`, at `Upload-Offset: from`.
    Send {
        /// The upload's address.
        url: String,
        /// The first byte sent.
        from: u64,
        /// One past the last byte sent (never past the file's length).
        to: u64,
    },
    /// Wait this long, then tell [`Event::Waited`].
    Wait(Duration),
    /// Every byte is at the gateway.
    Done {
        /// The upload's address, which the service fetches.
        url: String,
        /// The last `Upload-Expires` the gateway gave, if it gave one.
        expires: Option<String>,
    },
    /// The upload ended without its address.
    Fail(UploadFailure),
}

/// Why an upload ended without its address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UploadFailure {
    /// The gateway refused: the last answer's message names the rule.
    Refused,
    /// The gateway made an upload but named no address for it.
    NoAddress,
    /// The network stayed down through every try ([`tus::NETWORK_TRIES`]).
    Network,
}

/// What happened to the last step.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// Its `Upload-Offset`, read as a whole number.
    pub offset: Option<u64>,
    /// Its `Location` (a creating `POST`'s).
    pub location: Option<String>,
    /// Its `Upload-Expires`.
    pub expires: Option<String>,
}

/// What the driver tells the machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// The gateway answered the last step.
    Answered(Answer),
    /// The last step got no answer (the network failed).
    NoAnswer,
    /// The wait asked for is over.
    Waited,
}

/// What the page hears as the upload goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum News {
    /// The upload's address (again after a new one replaced one that was
    /// gone): keep it to resume after a reload.
    Created(String),
    /// Bytes the gateway has.
    Progress(u64),
    /// `true` while waiting for the network to come back, `false` once
    /// bytes flow again.
    Waiting(bool),
}

/// Where the machine is: what its last step was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Asked the gateway to make an upload.
    Creating,
    /// Asked where an upload made before (a reload) stands.
    Resuming,
    /// Asked where the upload stands, after a failure.
    Asking,
    /// Sent bytes up to this offset.
    Sending(u64),
    /// Waiting after a failure.
    Waiting,
    /// Done or failed: nothing more.
    Ended,
}

/// One file's upload.
#[derive(Debug, Clone)]
pub struct Upload {
    size: u64,
    url: Option<String>,
    offset: u64,
    failures: u32,
    expires: Option<String>,
    phase: Phase,
    news: Vec<News>,
    /// A piece was sent (a failure from then on is waited out).
    sent: bool,
}

impl Upload {
    /// An upload of `size` bytes: a new one, or the one at `resume` (made
    /// before a reload). The machine and its first step.
    pub fn start(size: u64, resume: Option<String>) -> (Upload, Step) {
        let mut upload = Upload {
            size,
            url: None,
            offset: 0,
            failures: 0,
            expires: None,
            phase: Phase::Creating,
            news: Vec::new(),
            sent: false,
        };
        let step = match resume {
            Some(url) => {
                upload.phase = Phase::Resuming;
                upload.url = Some(url.clone());
                Step::Ask { url }
            }
            None => Step::Create,
        };
        (upload, step)
    }

    /// What `event` means for the last step; the next step.
    pub fn on(&mut self, event: Event) -> Step {
        let step = match (self.phase, event) {
            // Nothing follows an end: a driver that goes on anyway is
            // told to stop.
            (Phase::Ended, _) => Step::Fail(UploadFailure::Network),
            (Phase::Creating, Event::Answered(answer)) => self.created(answer),
            (Phase::Resuming, Event::Answered(answer)) => match tus::after_head(answer.status) {
                AfterHead::Stands => {
                    self.offset = answer.offset.unwrap_or(0).min(self.size);
                    self.tell_address();
                    self.next_piece()
                }
                AfterHead::Gone => self.create(),
                AfterHead::Passing => Step::Fail(UploadFailure::Network),
                AfterHead::Refused => Step::Fail(UploadFailure::Refused),
            },
            (Phase::Asking, Event::Answered(answer)) => match tus::after_head(answer.status) {
                AfterHead::Stands => {
                    self.offset = answer.offset.unwrap_or(0).min(self.size);
                    self.news.push(News::Progress(self.offset));
                    self.next_piece()
                }
                AfterHead::Gone => self.create(),
                // The gateway cannot say now: go on from where it last did.
                AfterHead::Passing => self.go_on(),
                AfterHead::Refused => Step::Fail(UploadFailure::Refused),
            },
            (Phase::Asking, Event::NoAnswer) => self.go_on(),
            (Phase::Sending(to), Event::Answered(answer)) => {
                match tus::after_patch(answer.status) {
                    AfterPatch::Kept => {
                        self.offset = answer.offset.unwrap_or(to).min(self.size);
                        self.expires = answer.expires;
                        if self.failures > 0 {
                            self.news.push(News::Waiting(false));
                        }
                        self.failures = 0;
                        self.next_piece()
                    }
                    AfterPatch::AskNow => self.ask(),
                    AfterPatch::WaitThenAsk => self.wait(),
                    AfterPatch::Refused => Step::Fail(UploadFailure::Refused),
                }
            }
            (Phase::Sending(_), Event::NoAnswer) => self.wait(),
            (Phase::Waiting, Event::Waited) => self.ask(),
            // A new upload made again after the first was swept away:
            // waited out like a cut piece.
            (Phase::Creating, Event::NoAnswer) if self.sent => self.wait(),
            // The first creating `POST`, or the first ask of a resumed
            // upload, that got no answer ends it: nothing was sent yet.
            (Phase::Creating | Phase::Resuming, Event::NoAnswer) => {
                Step::Fail(UploadFailure::Network)
            }
            // An event the step did not ask for: ask where it stands.
            (
                Phase::Creating | Phase::Resuming | Phase::Asking | Phase::Sending(_),
                Event::Waited,
            )
            | (Phase::Waiting, Event::Answered(_) | Event::NoAnswer) => self.ask(),
        };
        if matches!(step, Step::Done { .. } | Step::Fail(_)) {
            self.phase = Phase::Ended;
        }
        step
    }

    /// The news since the last call, oldest first.
    pub fn take_news(&mut self) -> Vec<News> {
        std::mem::take(&mut self.news)
    }

    /// Bytes the gateway has, as far as the machine knows.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The file's length.
    pub fn size(&self) -> u64 {
        self.size
    }

    fn created(&mut self, answer: Answer) -> Step {
        if answer.status != tus::CREATED {
            return Step::Fail(UploadFailure::Refused);
        }
        let Some(url) = answer.location.filter(|url| !url.is_empty()) else {
            return Step::Fail(UploadFailure::NoAddress);
        };
        self.url = Some(url);
        self.offset = 0;
        self.tell_address();
        self.next_piece()
    }

    /// The address, and where the upload stands, told.
    fn tell_address(&mut self) {
        if let Some(url) = &self.url {
            self.news.push(News::Created(url.clone()));
        }
        self.news.push(News::Progress(self.offset));
    }

    fn create(&mut self) -> Step {
        self.phase = Phase::Creating;
        self.url = None;
        Step::Create
    }

    fn ask(&mut self) -> Step {
        let Some(url) = self.url.clone() else {
            return self.create();
        };
        self.phase = Phase::Asking;
        Step::Ask { url }
    }

    /// Where the gateway could not say: on from the last offset known.
    fn go_on(&mut self) -> Step {
        self.news.push(News::Progress(self.offset));
        self.next_piece()
    }

    /// A failure: wait longer each time, or give up.
    fn wait(&mut self) -> Step {
        self.failures += 1;
        match tus::wait_before(self.failures) {
            Some(wait) => {
                self.phase = Phase::Waiting;
                self.news.push(News::Waiting(true));
                Step::Wait(wait)
            }
            None => Step::Fail(UploadFailure::Network),
        }
    }

    /// The next piece from the offset, or done.
    fn next_piece(&mut self) -> Step {
        let Some(url) = self.url.clone() else {
            return self.create();
        };
        if self.offset >= self.size {
            self.news.push(News::Waiting(false));
            return Step::Done {
                url,
                expires: self.expires.clone(),
            };
        }
        let to = (self.offset + CHUNK_BYTES).min(self.size);
        self.phase = Phase::Sending(to);
        self.sent = true;
        Step::Send {
            url,
            from: self.offset,
            to,
        }
    }
}
