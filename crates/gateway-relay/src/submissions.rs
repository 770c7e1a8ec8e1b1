//! The submissions the relay follows: each capability with its kind, the
//! task ids its submit created (once the service has answered) and the
//! tasks already announced. Bounded in number and in age.

use std::collections::{HashMap, HashSet, VecDeque};
use std::time::{Duration, Instant};

use media_gen_api::TaskKind;

use crate::access::Who;

/// How long a submission's capability stays valid.
pub const LIFETIME: Duration = Duration::from_secs(24 * 60 * 60);
/// The most submissions followed at once; the oldest is forgotten first.
pub const MAX_OPEN: usize = 100_000;

/// One relayed submission.
#[derive(Debug)]
struct Submission {
    kind: TaskKind,
    /// Who submitted it: whose budgets its results count against.
    owner: Who,
    /// The ids the submit answered with; `None` until it has.
    created: Option<HashSet<String>>,
    announced: HashSet<String>,
    opened: Instant,
}

/// What to do with a callback for a task of a capability.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arrival {
    /// No such capability (never made, used up, expired).
    Unknown,
    /// The callback's task is not of the submission's kind, or not one of its tasks.
    Foreign,
    /// Already announced: acknowledge, announce nothing.
    Duplicate,
    /// New: confirm it if need be, then [`Submissions::announced`].
    New,
}

/// Every open submission, by capability.
#[derive(Debug, Default)]
pub struct Submissions {
    open: HashMap<String, Submission>,
    /// The capabilities in the order they were opened, some closed since:
    /// the oldest is found at the front, without a scan of them all.
    order: VecDeque<String>,
}

impl Submissions {
    /// Follow a submission of `kind` by `owner` under `capability`.
    pub fn open(&mut self, capability: &str, kind: TaskKind, owner: Who, now: Instant) {
        self.forget_expired(now);
        while self.open.len() >= MAX_OPEN {
            let Some(oldest) = self.order.pop_front() else {
                break;
            };
            self.open.remove(&oldest);
        }
        // Closed capabilities wait in `order` until they reach its front;
        // while an old one stays open, drop them before they pile up.
        if self.order.len() >= 2 * MAX_OPEN {
            let open = &self.open;
            self.order
                .retain(|capability| open.contains_key(capability));
        }
        self.order.push_back(capability.to_owned());
        self.open.insert(
            capability.to_owned(),
            Submission {
                kind,
                owner,
                created: None,
                announced: HashSet::new(),
                opened: now,
            },
        );
    }

    /// The submit answered with `ids`; a submit that created nothing
    /// (refused, failed) closes its capability.
    pub fn created(&mut self, capability: &str, ids: Vec<String>) {
        if ids.is_empty() {
            self.open.remove(capability);
            return;
        }
        if let Some(submission) = self.open.get_mut(capability) {
            submission.created = Some(ids.into_iter().collect());
        }
        self.close_if_done(capability);
    }

    /// The kind and submitter of the submission under `capability`, if
    /// it is open.
    pub fn opened(&self, capability: &str) -> Option<(TaskKind, Option<Who>)> {
        self.open
            .get(capability)
            .map(|submission| (submission.kind, Some(submission.owner.clone())))
    }

    /// What a callback about task `task_id` of `kind` to `capability` is.
    /// A callback may come before the submit's answer: its task is then
    /// taken on the submission's word (the confirming status read, unless
    /// callbacks are trusted, shows the task exists and has ended).
    pub fn arrival(&self, capability: &str, kind: TaskKind, task_id: &str) -> Arrival {
        let Some(submission) = self.open.get(capability) else {
            return Arrival::Unknown;
        };
        let ours = submission
            .created
            .as_ref()
            .is_none_or(|ids| ids.contains(task_id));
        if submission.kind != kind || !ours {
            Arrival::Foreign
        } else if submission.announced.contains(task_id) {
            Arrival::Duplicate
        } else {
            Arrival::New
        }
    }

    /// Task `task_id` of `capability` was announced; the capability is used
    /// up once every task it created has been. Returns whether this was the
    /// first announcement of the task (two callbacks confirmed at once
    /// announce it once).
    pub fn announced(&mut self, capability: &str, task_id: &str) -> bool {
        let first = self
            .open
            .get_mut(capability)
            .is_some_and(|submission| submission.announced.insert(task_id.to_owned()));
        self.close_if_done(capability);
        first
    }

    fn close_if_done(&mut self, capability: &str) {
        let done = self.open.get(capability).is_some_and(|submission| {
            submission
                .created
                .as_ref()
                .is_some_and(|ids| ids.is_subset(&submission.announced))
        });
        if done {
            self.open.remove(capability);
        }
    }

    /// Forget the submissions older than [`LIFETIME`]: those at the front
    /// of `order` (and the closed ones before them).
    fn forget_expired(&mut self, now: Instant) {
        while let Some(oldest) = self.order.front() {
            let live = self
                .open
                .get(oldest)
                .is_some_and(|submission| now.duration_since(submission.opened) < LIFETIME);
            if live {
                break;
            }
            if let Some(oldest) = self.order.pop_front() {
                self.open.remove(&oldest);
            }
        }
    }

    /// How many submissions are followed.
    pub fn len(&self) -> usize {
        self.open.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.open.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owner() -> Who {
        Who::Person("ada".into())
    }

    #[test]
    fn a_submission_remembers_who_submitted_it() {
        let mut open = Submissions::default();
        open.open("c", TaskKind::ImageGenerate, owner(), Instant::now());
        assert_eq!(
            open.opened("c"),
            Some((TaskKind::ImageGenerate, Some(owner())))
        );
        assert_eq!(open.opened("other"), None);
    }

    #[test]
    fn a_capability_is_used_up_once_every_task_is_announced() {
        let mut open = Submissions::default();
        let now = Instant::now();
        open.open("c", TaskKind::ImageGenerate, owner(), now);
        // A callback before the submit's answer is taken on the submission's word.
        assert_eq!(
            open.arrival("c", TaskKind::ImageGenerate, "a"),
            Arrival::New
        );
        assert!(open.announced("c", "a"));
        open.created("c", vec!["a".into(), "b".into()]);
        assert_eq!(
            open.arrival("c", TaskKind::ImageGenerate, "a"),
            Arrival::Duplicate
        );
        assert_eq!(
            open.arrival("c", TaskKind::ImageGenerate, "z"),
            Arrival::Foreign
        );
        assert_eq!(
            open.arrival("c", TaskKind::ImageToVideo, "b"),
            Arrival::Foreign
        );
        assert!(open.announced("c", "b"));
        assert_eq!(
            open.arrival("c", TaskKind::ImageGenerate, "b"),
            Arrival::Unknown
        );
        assert!(open.is_empty());
    }

    #[test]
    fn failed_submits_and_old_capabilities_are_forgotten() {
        let mut open = Submissions::default();
        let start = Instant::now();
        open.open("failed", TaskKind::ImageGenerate, owner(), start);
        open.created("failed", Vec::new());
        assert_eq!(open.opened("failed").map(|(kind, _)| kind), None);
        open.open("old", TaskKind::ImageGenerate, owner(), start);
        open.open("new", TaskKind::ImageGenerate, owner(), start + LIFETIME);
        assert_eq!(open.opened("old").map(|(kind, _)| kind), None);
        assert_eq!(
            open.opened("new").map(|(kind, _)| kind),
            Some(TaskKind::ImageGenerate)
        );
        assert_eq!(open.len(), 1);
    }

    #[test]
    fn at_the_bound_the_oldest_open_submission_goes_first() {
        let mut open = Submissions::default();
        let now = Instant::now();
        open.open("closed", TaskKind::ImageGenerate, owner(), now);
        open.created("closed", Vec::new());
        for n in 0..MAX_OPEN {
            open.open(&n.to_string(), TaskKind::ImageGenerate, owner(), now);
        }
        assert_eq!(open.len(), MAX_OPEN);
        open.open("one more", TaskKind::ImageGenerate, owner(), now);
        assert_eq!(open.len(), MAX_OPEN);
        assert_eq!(
            open.opened("0").map(|(kind, _)| kind),
            None,
            "the oldest open one went"
        );
        assert_eq!(
            open.opened("1").map(|(kind, _)| kind),
            Some(TaskKind::ImageGenerate)
        );
        assert_eq!(
            open.opened("one more").map(|(kind, _)| kind),
            Some(TaskKind::ImageGenerate)
        );
        assert!(open.order.len() <= 2 * MAX_OPEN);
    }
}
