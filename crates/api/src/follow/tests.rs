//! Each transition of the follow engine, with time as a value.

use super::*;
use crate::relay::MAX_RELAYS;

const CAP: &str = "0123456789abcdef0123456789abcdef";
const OTHER_CAP: &str = "fedcba9876543210fedcba9876543210";

fn key(id: &str) -> TaskKey {
    TaskKey::new(TaskKind::ImageGenerate, id)
}

fn engine() -> Follow {
    Follow::new(FollowOptions::default())
}

fn reads(commands: &[Command]) -> Vec<&str> {
    commands
        .iter()
        .filter_map(|command| match command {
            Command::Read(key) => Some(key.id.as_str()),
            _ => None,
        })
        .collect()
}

fn running() -> ReadOutcome {
    ReadOutcome::Read(TaskStatus::Generating)
}

/// An answer not in the documented shape.
fn garbled() -> ReadOutcome {
    ReadOutcome::Failed {
        retryable: false,
        shape: true,
    }
}

/// An engine on a site with no relay, following task `a` submitted at 0.
fn reading_a() -> Follow {
    let mut follow = engine();
    follow.set_relay(None, 0);
    follow.watch(key("a"), 0, None, 0);
    follow
}

#[test]
fn a_task_is_read_after_the_first_wait_and_again_on_the_schedule() {
    let mut follow = reading_a();
    assert!(reads(&follow.poll(999)).is_empty());
    assert_eq!(follow.next_wake(), Some(1_000));
    assert_eq!(reads(&follow.poll(1_000)), ["a"]);
    assert_eq!(
        follow.next_wake(),
        None,
        "nothing due while its read is out"
    );
    let verdict = follow.read_done(&key("a"), running(), 1_050).unwrap();
    assert!(verdict.changed && !verdict.done);
    // The second read: the schedule's next wait (1 s after one read).
    assert_eq!(follow.next_wake(), Some(2_050));
    assert!(reads(&follow.poll(2_049)).is_empty());
    assert_eq!(reads(&follow.poll(2_050)), ["a"]);
    let same = follow.read_done(&key("a"), running(), 2_100).unwrap();
    assert!(!same.changed, "the same status is no change");
    let ended = follow
        .read_done(&key("a"), ReadOutcome::Read(TaskStatus::Succeeded), 3_600)
        .expect("still followed");
    assert!(ended.done && ended.changed);
    assert_eq!(follow.watching(), 0);
    assert_eq!(
        follow.estimate(TaskKind::ImageGenerate),
        Some(Duration::from_millis(3_600))
    );
}

#[test]
fn reads_stay_within_the_cap_longest_waiting_first() {
    let mut follow = Follow::new(FollowOptions {
        max_in_flight: 2,
        ..FollowOptions::default()
    });
    follow.set_relay(None, 0);
    for (id, at) in [("late", 300), ("early", 0), ("middle", 100)] {
        follow.watch(key(id), at, None, at);
    }
    assert_eq!(reads(&follow.poll(5_000)), ["early", "middle"]);
    assert!(reads(&follow.poll(5_000)).is_empty(), "no room");
    follow.read_done(&key("early"), running(), 5_100);
    assert_eq!(reads(&follow.poll(5_100)), ["late"]);
    assert_eq!(follow.peak_in_flight(), 2);
}

#[test]
fn a_failure_retrying_cannot_fix_ends_the_watch_and_others_are_read_again() {
    let mut follow = engine();
    follow.set_relay(None, 0);
    follow.watch(key("gone"), 0, None, 0);
    follow.watch(key("flaky"), 0, None, 0);
    follow.poll(1_000);
    let gone = follow
        .read_done(
            &key("gone"),
            ReadOutcome::Failed {
                retryable: false,
                shape: false,
            },
            1_000,
        )
        .unwrap();
    assert!(gone.done && !gone.changed);
    let flaky = follow
        .read_done(
            &key("flaky"),
            ReadOutcome::Failed {
                retryable: true,
                shape: false,
            },
            1_000,
        )
        .unwrap();
    assert!(!flaky.done);
    assert_eq!(follow.watching(), 1);
}

/// Read `a` when it is next due and answer `outcome`: whether that ended it.
fn answer(follow: &mut Follow, outcome: ReadOutcome) -> bool {
    let now = follow.next_wake().expect("a read due");
    assert_eq!(reads(&follow.poll(now)), ["a"]);
    follow
        .read_done(&key("a"), outcome, now)
        .expect("followed")
        .done
}

#[test]
fn answers_in_the_wrong_shape_are_read_again_until_five_in_a_row() {
    let mut follow = reading_a();
    let ended: Vec<bool> = (0..MAX_SHAPE_ERRORS_IN_A_ROW)
        .map(|_| answer(&mut follow, garbled()))
        .collect();
    assert_eq!(ended, [false, false, false, false, true]);
}

#[test]
fn a_good_answer_between_wrong_shapes_starts_the_count_again() {
    let mut follow = reading_a();
    for _ in 0..MAX_SHAPE_ERRORS_IN_A_ROW - 1 {
        assert!(!answer(&mut follow, garbled()));
    }
    assert!(!answer(&mut follow, running()));
    for _ in 0..MAX_SHAPE_ERRORS_IN_A_ROW - 1 {
        assert!(!answer(&mut follow, garbled()));
    }
    assert_eq!(follow.watching(), 1);
}

#[test]
fn tasks_with_a_capability_wait_until_the_relay_is_known() {
    let mut follow = engine();
    follow.watch(key("relayed"), 0, Some(CAP.to_owned()), 0);
    follow.watch(key("plain"), 0, None, 0);
    assert_eq!(reads(&follow.poll(5_000)), ["plain"]);
    assert_eq!(follow.next_wake(), None);
    // The site relays: the task is heard of on one stream, not read.
    follow.set_relay(Some(RelayInfo::default()), 5_000);
    let commands = follow.poll(5_000);
    assert_eq!(
        commands,
        [Command::OpenStream {
            relay: RelayInfo::default(),
            capabilities: vec![CAP.to_owned()],
        }]
    );
    assert!(follow.is_relayed(&key("relayed")));
    // Its safety read: ten minutes after submit before any task ended.
    assert_eq!(
        follow.watched(&key("relayed")).unwrap().next,
        Next::At(millis(crate::poll::RELAYED_UNKNOWN_WAIT))
    );
}

#[test]
fn a_capability_of_another_shape_is_read_not_listened_for() {
    let mut follow = engine();
    follow.set_relay(Some(RelayInfo::default()), 0);
    follow.watch(key("a"), 0, Some("not-a-capability".to_owned()), 0);
    assert!(!follow.is_relayed(&key("a")));
    assert_eq!(reads(&follow.poll(1_000)), ["a"]);
}

#[test]
fn an_end_heard_on_the_stream_ends_the_watch_and_no_read_follows() {
    let mut follow = engine();
    follow.set_relay(Some(RelayInfo::default()), 0);
    follow.watch(key("a"), 0, Some(CAP.to_owned()), 0);
    follow.poll(0);
    assert_eq!(
        follow.stream_end(&key("a"), &TaskStatus::Generating, 2_000),
        None,
        "ends only"
    );
    let verdict = follow
        .stream_end(&key("a"), &TaskStatus::Succeeded, 4_000)
        .unwrap();
    assert!(verdict.done && verdict.changed);
    assert_eq!(verdict.elapsed, Duration::from_secs(4));
    // No read follows; the stream, wanted by none now, is closed.
    assert_eq!(follow.poll(10_000_000), [Command::CloseStream]);
    assert!(!follow.relay().stream_open());
}

#[test]
fn a_safety_read_finding_the_task_running_reads_it_from_then_on() {
    let mut follow = engine();
    follow.set_relay(Some(RelayInfo::default()), 0);
    follow.watch(key("a"), 0, Some(CAP.to_owned()), 0);
    follow.poll(0);
    let safety = millis(crate::poll::RELAYED_UNKNOWN_WAIT);
    assert_eq!(reads(&follow.poll(safety)), ["a"]);
    follow.read_done(&key("a"), running(), safety);
    assert!(!follow.is_relayed(&key("a")));
    // No longer wanted on the stream: it is closed at the next poll.
    assert_eq!(follow.poll(safety), [Command::CloseStream]);
}

#[test]
fn a_lost_stream_brings_reads_back_and_an_answered_one_takes_them_again() {
    let mut follow = engine();
    follow.set_relay(Some(RelayInfo::default()), 0);
    follow.watch(key("a"), 0, Some(CAP.to_owned()), 0);
    follow.poll(0);
    follow.stream_opened(100);
    follow.stream_lost(10_000, 0.0);
    assert!(!follow.is_relayed(&key("a")));
    // Read from RELAY_FAILED_WAIT on; the stream is tried again after half a second.
    assert_eq!(follow.next_wake(), Some(10_500));
    assert!(follow
        .poll(10_500)
        .iter()
        .any(|c| matches!(c, Command::OpenStream { .. })));
    assert!(reads(&follow.poll(12_999)).is_empty());
    assert_eq!(reads(&follow.poll(13_000)), ["a"]);
    follow.read_done(&key("a"), running(), 13_100);
    assert!(!follow.is_relayed(&key("a")), "not answered yet: read on");
    // A task watched now is read too until the stream is answered.
    follow.watch(key("b"), 13_200, Some(CAP.to_owned()), 13_200);
    assert!(!follow.is_relayed(&key("b")));
    follow.stream_opened(14_000);
    assert!(follow.is_relayed(&key("a")) && follow.is_relayed(&key("b")));
}

#[test]
fn a_stream_given_up_again_and_again_is_tried_less_often() {
    let mut follow = engine();
    follow.set_relay(Some(RelayInfo::default()), 0);
    follow.watch(key("a"), 0, Some(CAP.to_owned()), 0);
    let mut now = 0;
    let mut waits = Vec::new();
    for _ in 0..8 {
        follow.poll(now);
        follow.stream_lost(now, 0.999);
        let next = follow.next_wake().unwrap();
        let reopen = match follow.relay() {
            Relay::On {
                stream: Stream::Resting { until, .. },
                ..
            } => *until,
            other => panic!("{other:?}"),
        };
        waits.push(reopen - now);
        now = reopen.max(next);
        // Reads in between are answered at once.
        let due = reads(&follow.poll(now)).len();
        for _ in 0..due {
            follow.read_done(&key("a"), running(), now);
        }
    }
    assert!(waits.windows(2).all(|pair| pair[0] <= pair[1]), "{waits:?}");
    assert!(*waits.last().unwrap() <= 60_000, "{waits:?}");
}

#[test]
fn one_stream_names_every_relayed_capability_and_is_reopened_for_a_new_one() {
    let mut follow = engine();
    follow.set_relay(Some(RelayInfo::default()), 0);
    follow.watch(key("a"), 0, Some(CAP.to_owned()), 0);
    follow.watch(key("b"), 0, Some(CAP.to_owned()), 0);
    let first = follow.poll(0);
    assert_eq!(first.len(), 1, "{first:?}");
    follow.watch(key("c"), 0, Some(OTHER_CAP.to_owned()), 0);
    let again = follow.poll(0);
    assert_eq!(again[0], Command::CloseStream);
    match &again[1] {
        Command::OpenStream { capabilities, .. } => {
            assert_eq!(capabilities.len(), 2);
            assert!(
                capabilities.contains(&CAP.to_owned())
                    && capabilities.contains(&OTHER_CAP.to_owned())
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(follow.poll(0).is_empty(), "covered: left open");
}

#[test]
fn without_a_relay_relayed_tasks_are_read_at_once() {
    let mut follow = engine();
    follow.set_relay(Some(RelayInfo::default()), 0);
    follow.watch(key("a"), 0, Some(CAP.to_owned()), 0);
    follow.poll(0);
    follow.set_relay(None, 5_000);
    let commands = follow.poll(5_000);
    assert_eq!(commands[0], Command::CloseStream);
    assert_eq!(reads(&commands), ["a"]);
    // Saying it again changes nothing.
    follow.set_relay(None, 6_000);
    assert!(follow.poll(6_000).is_empty());
}

#[test]
fn a_shown_page_reads_every_task_not_on_the_stream_now() {
    let mut follow = reading_a();
    follow.poll(1_000);
    follow.read_done(&key("a"), running(), 1_000);
    follow.visibility(true, 1_200);
    follow.visibility(false, 1_300);
    assert_eq!(reads(&follow.poll(1_300)), ["a"]);
}

#[test]
fn a_paused_engine_reads_nothing_while_hidden() {
    let mut follow = Follow::new(FollowOptions {
        while_hidden: WhileHidden::Pause,
        ..FollowOptions::default()
    });
    follow.set_relay(None, 0);
    follow.watch(key("a"), 0, None, 0);
    follow.visibility(true, 0);
    assert!(reads(&follow.poll(60_000)).is_empty());
    assert_eq!(follow.next_wake(), None);
    follow.visibility(false, 60_000);
    assert_eq!(reads(&follow.poll(60_000)), ["a"]);
}

#[test]
fn a_task_unwatched_while_its_read_is_out_is_not_reported() {
    let mut follow = reading_a();
    follow.poll(1_000);
    follow.unwatch(&key("a"));
    assert_eq!(follow.read_done(&key("a"), running(), 1_100), None);
    assert_eq!(follow.poll(1_100), []);
}

#[test]
fn a_task_resumed_after_a_reload_is_read_at_once_when_long_overdue() {
    let mut follow = engine();
    follow.set_relay(None, 100_000);
    follow.watch(key("a"), 0, None, 100_000);
    assert_eq!(reads(&follow.poll(100_000)), ["a"]);
}

#[test]
fn a_task_whose_read_is_out_when_the_relay_comes_is_heard_of_after_it() {
    let mut follow = engine();
    follow.set_relay(None, 0);
    follow.watch(key("a"), 0, Some(CAP.to_owned()), 0);
    assert_eq!(reads(&follow.poll(1_000)), ["a"]);
    follow.set_relay(Some(RelayInfo::default()), 1_050);
    // The read comes back running: the task is heard of from now on.
    follow.read_done(&key("a"), running(), 1_100);
    assert!(follow.is_relayed(&key("a")));
    assert!(follow
        .poll(1_100)
        .iter()
        .any(|command| matches!(command, Command::OpenStream { .. })));
}

#[test]
fn a_task_the_stream_has_no_room_for_is_read_until_there_is() {
    let mut follow = engine();
    follow.set_relay(Some(RelayInfo::default()), 0);
    let capability = |n: usize| format!("{n:032x}");
    for n in 0..=MAX_RELAYS {
        follow.watch(key(&format!("t{n}")), 0, Some(capability(n)), 0);
    }
    let opened = follow.poll(0);
    let named = opened
        .iter()
        .find_map(|command| match command {
            Command::OpenStream { capabilities, .. } => Some(capabilities.len()),
            _ => None,
        })
        .unwrap();
    assert_eq!(named, MAX_RELAYS);
    let left_out: Vec<TaskKey> = (0..=MAX_RELAYS)
        .map(|n| key(&format!("t{n}")))
        .filter(|key| !follow.is_relayed(key))
        .collect();
    assert_eq!(left_out.len(), 1, "one waits for room, read meanwhile");
    assert_eq!(reads(&opened), [left_out[0].id.as_str()]);
    follow.read_done(&left_out[0], running(), 1_000);
    // A relayed task ends: its place goes to the one waiting.
    let ended = (0..=MAX_RELAYS)
        .map(|n| key(&format!("t{n}")))
        .find(|key| follow.is_relayed(key))
        .unwrap();
    follow.stream_end(&ended, &TaskStatus::Succeeded, 2_000);
    let reopened = follow.poll(2_000);
    assert!(reopened
        .iter()
        .any(|command| matches!(command, Command::OpenStream { .. })));
    assert!(follow.is_relayed(&left_out[0]));
}
