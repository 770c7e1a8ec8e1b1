//! Properties of the upload machine against a simulated gateway that keeps
//! an upload's bytes, answers `409` to a piece at the wrong offset, cuts
//! pieces part way, fails for a while, and sweeps uploads away: the
//! machine never sends past the file's length nor more than a piece at
//! once, loses at most the piece in flight to a cut, always finishes once
//! the failures stop, and gives up within the contract's bounds when they
//! do not.

use proptest::prelude::*;

use super::*;

/// What the simulated gateway does to the next request.
#[derive(Debug, Clone, Copy)]
enum Trouble {
    /// Nothing: it answers as it should.
    None,
    /// The connection is cut after this share (0..=100 %) of the bytes.
    Cut(u8),
    /// A passing failure (`503`).
    Busy,
    /// The upload was swept away (its time ran out).
    Swept,
}

fn trouble() -> impl Strategy<Value = Trouble> {
    prop_oneof![
        6 => Just(Trouble::None),
        2 => (0u8..=100).prop_map(Trouble::Cut),
        1 => Just(Trouble::Busy),
        1 => Just(Trouble::Swept),
    ]
}

/// The simulated gateway: its uploads' stored bytes, by address.
#[derive(Default)]
struct Gateway {
    uploads: Vec<(String, u64)>,
}

impl Gateway {
    fn stored(&mut self, url: &str) -> Option<&mut u64> {
        self.uploads
            .iter_mut()
            .find(|(at, _)| at == url)
            .map(|(_, stored)| stored)
    }
}

/// Drive an upload of `size` through `troubles` (then none): the steps
/// sent, the bytes lost to cuts, and how it ended.
fn drive(size: u64, troubles: &[Trouble]) -> (Vec<Step>, u64, Step) {
    let mut gateway = Gateway::default();
    let mut troubles = troubles.iter().copied();
    let (mut upload, mut step) = Upload::start(size, None);
    let (mut steps, mut lost) = (Vec::new(), 0);
    for _ in 0..10_000 {
        steps.push(step.clone());
        let trouble = troubles.next().unwrap_or(Trouble::None);
        let event = match &step {
            Step::Done { .. } | Step::Fail(_) => return (steps, lost, step),
            Step::Wait(_) => Event::Waited,
            Step::Create => match trouble {
                Trouble::Cut(_) => Event::NoAnswer,
                _ => {
                    let url = format!("/uploads/{}", gateway.uploads.len());
                    gateway.uploads.push((url.clone(), 0));
                    Event::Answered(Answer {
                        status: 201,
                        location: Some(url),
                        ..Answer::default()
                    })
                }
            },
            Step::Ask { url } => {
                if matches!(trouble, Trouble::Swept) {
                    gateway.uploads.retain(|(at, _)| at != url);
                }
                match (trouble, gateway.stored(url)) {
                    (Trouble::Cut(_), _) => Event::NoAnswer,
                    (Trouble::Busy, _) => answer(503, None),
                    (_, Some(stored)) => answer(200, Some(*stored)),
                    (_, None) => answer(410, None),
                }
            }
            Step::Send { url, from, to } => {
                if matches!(trouble, Trouble::Swept) {
                    gateway.uploads.retain(|(at, _)| at != url);
                }
                let (from, to) = (*from, *to);
                match gateway.stored(url) {
                    None => answer(404, None),
                    Some(stored) if *stored != from => answer(409, Some(*stored)),
                    Some(stored) => match trouble {
                        Trouble::Cut(share) => {
                            let kept = (to - from) * u64::from(share) / 100;
                            *stored = from + kept;
                            lost += to - from - kept;
                            Event::NoAnswer
                        }
                        Trouble::Busy => answer(503, None),
                        Trouble::None | Trouble::Swept => {
                            *stored = to;
                            answer(204, Some(to))
                        }
                    },
                }
            }
        };
        step = upload.on(event);
    }
    panic!("no end within 10,000 steps");
}

fn answer(status: u16, offset: Option<u64>) -> Event {
    Event::Answered(Answer {
        status,
        offset,
        ..Answer::default()
    })
}

proptest! {
    #[test]
    fn pieces_stay_within_the_file_and_a_cut_costs_at_most_the_piece(
        size in 0u64..40 * 1024 * 1024,
        troubles in proptest::collection::vec(trouble(), 0..40),
    ) {
        let (steps, _, _) = drive(size, &troubles);
        let mut cuts = 0;
        for (step, trouble) in steps.iter().zip(troubles.iter().chain(std::iter::repeat(&Trouble::None))) {
            if let Step::Send { from, to, .. } = step {
                prop_assert!(from < to && *to <= size, "{from}..{to} of {size}");
                prop_assert!(to - from <= CHUNK_BYTES);
                if matches!(trouble, Trouble::Cut(_)) {
                    cuts += 1;
                }
            }
        }
        let (_, lost, _) = drive(size, &troubles);
        prop_assert!(lost <= cuts * CHUNK_BYTES, "{lost} lost to {cuts} cuts");
    }

    #[test]
    fn it_finishes_once_the_failures_stop_short_of_giving_up(
        size in 0u64..40 * 1024 * 1024,
        troubles in proptest::collection::vec(trouble(), 0..12),
    ) {
        // Fewer failures in a row than the tries, after a first creation
        // that was answered (one that is not ends it at once): it must
        // finish.
        let troubles: Vec<Trouble> = std::iter::once(Trouble::None).chain(troubles).collect();
        let (_, _, end) = drive(size, &troubles);
        prop_assert!(matches!(end, Step::Done { .. }), "{end:?} after {troubles:?}");
    }

    #[test]
    fn a_network_down_for_good_is_given_up_within_the_bounds(
        size in 1u64..40 * 1024 * 1024,
        before in proptest::collection::vec(Just(Trouble::None), 0..=1),
    ) {
        let mut troubles = before;
        troubles.extend(std::iter::repeat_n(Trouble::Cut(0), 200));
        let (steps, _, end) = drive(size, &troubles);
        prop_assert_eq!(end, Step::Fail(UploadFailure::Network));
        let waited: Duration = steps
            .iter()
            .filter_map(|step| match step {
                Step::Wait(wait) => Some(*wait),
                _ => None,
            })
            .sum();
        let waits = steps.iter().filter(|step| matches!(step, Step::Wait(_))).count();
        prop_assert!(waits <= tus::NETWORK_TRIES as usize, "{waits} waits");
        prop_assert!(waited <= Duration::from_secs(6 * 60), "{waited:?}");
    }
}
