//! Each transition of the upload machine, as a driver meets it.

use super::*;

const MB: u64 = 1024 * 1024;

fn answered(status: u16) -> Event {
    Event::Answered(Answer {
        status,
        ..Answer::default()
    })
}

fn kept(offset: u64) -> Event {
    Event::Answered(Answer {
        status: 204,
        offset: Some(offset),
        expires: Some("Tue, 01 Dec 2026 10:00:00 GMT".to_owned()),
        ..Answer::default()
    })
}

fn made(url: &str) -> Event {
    Event::Answered(Answer {
        status: 201,
        location: Some(url.to_owned()),
        ..Answer::default()
    })
}

fn stands(offset: u64) -> Event {
    Event::Answered(Answer {
        status: 200,
        offset: Some(offset),
        ..Answer::default()
    })
}

fn send(from: u64, to: u64) -> Step {
    Step::Send {
        url: "/uploads/a".to_owned(),
        from,
        to,
    }
}

#[test]
fn a_new_file_is_made_then_sent_in_pieces_then_done() {
    let (mut upload, step) = Upload::start(9 * MB, None);
    assert_eq!(step, Step::Create);
    assert_eq!(upload.on(made("/uploads/a")), send(0, 4 * MB));
    assert_eq!(
        upload.take_news(),
        [News::Created("/uploads/a".to_owned()), News::Progress(0)]
    );
    assert_eq!(upload.on(kept(4 * MB)), send(4 * MB, 8 * MB));
    assert_eq!(upload.on(kept(8 * MB)), send(8 * MB, 9 * MB));
    assert_eq!(
        upload.on(kept(9 * MB)),
        Step::Done {
            url: "/uploads/a".to_owned(),
            expires: Some("Tue, 01 Dec 2026 10:00:00 GMT".to_owned()),
        }
    );
    assert_eq!(upload.take_news(), [News::Waiting(false)]);
}

#[test]
fn an_empty_file_is_done_once_made() {
    let (mut upload, _) = Upload::start(0, None);
    assert!(matches!(upload.on(made("/uploads/a")), Step::Done { .. }));
}

#[test]
fn a_creation_refused_or_without_an_address_or_unanswered_ends_it() {
    let (mut upload, _) = Upload::start(MB, None);
    assert_eq!(upload.on(answered(413)), Step::Fail(UploadFailure::Refused));
    let (mut upload, _) = Upload::start(MB, None);
    assert_eq!(
        upload.on(answered(201)),
        Step::Fail(UploadFailure::NoAddress)
    );
    let (mut upload, _) = Upload::start(MB, None);
    assert_eq!(
        upload.on(Event::NoAnswer),
        Step::Fail(UploadFailure::Network)
    );
}

#[test]
fn a_resumed_upload_goes_on_from_where_the_gateway_stands() {
    let (mut upload, step) = Upload::start(9 * MB, Some("/uploads/a".to_owned()));
    assert_eq!(
        step,
        Step::Ask {
            url: "/uploads/a".to_owned()
        }
    );
    assert_eq!(upload.on(stands(5 * MB)), send(5 * MB, 9 * MB));
    assert_eq!(
        upload.take_news(),
        [
            News::Created("/uploads/a".to_owned()),
            News::Progress(5 * MB)
        ]
    );
}

#[test]
fn a_resumed_upload_that_is_gone_is_made_again() {
    let (mut upload, _) = Upload::start(MB, Some("/uploads/old".to_owned()));
    assert_eq!(upload.on(answered(410)), Step::Create);
    assert_eq!(upload.on(made("/uploads/a")), send(0, MB));
    let (mut upload, _) = Upload::start(MB, Some("/uploads/old".to_owned()));
    assert_eq!(upload.on(answered(503)), Step::Fail(UploadFailure::Network));
    let (mut upload, _) = Upload::start(MB, Some("/uploads/old".to_owned()));
    assert_eq!(upload.on(answered(403)), Step::Fail(UploadFailure::Refused));
}

#[test]
fn a_cut_waits_longer_each_time_then_asks_then_goes_on() {
    let (mut upload, _) = Upload::start(9 * MB, None);
    upload.on(made("/uploads/a"));
    upload.take_news();
    assert_eq!(
        upload.on(Event::NoAnswer),
        Step::Wait(Duration::from_secs(1))
    );
    assert_eq!(upload.take_news(), [News::Waiting(true)]);
    assert_eq!(
        upload.on(Event::Waited),
        Step::Ask {
            url: "/uploads/a".to_owned()
        }
    );
    // The gateway kept part of the piece: on from there.
    assert_eq!(upload.on(stands(3 * MB)), send(3 * MB, 7 * MB));
    assert_eq!(upload.on(answered(503)), Step::Wait(Duration::from_secs(2)));
    upload.on(Event::Waited);
    // It cannot say now: on from the last offset known.
    assert_eq!(upload.on(Event::NoAnswer), send(3 * MB, 7 * MB));
    upload.take_news();
    assert_eq!(upload.on(kept(7 * MB)), send(7 * MB, 9 * MB));
    assert_eq!(upload.take_news(), [News::Waiting(false)]);
}

#[test]
fn another_offset_or_a_swept_upload_is_asked_about_at_once() {
    let (mut upload, _) = Upload::start(9 * MB, None);
    upload.on(made("/uploads/a"));
    let ask = Step::Ask {
        url: "/uploads/a".to_owned(),
    };
    assert_eq!(upload.on(answered(409)), ask);
    assert_eq!(upload.on(stands(2 * MB)), send(2 * MB, 6 * MB));
    assert_eq!(upload.on(answered(404)), ask);
    // Gone from under it: a new one, from the start.
    assert_eq!(upload.on(answered(404)), Step::Create);
    upload.take_news();
    assert_eq!(
        upload.on(made("/uploads/b")),
        Step::Send {
            url: "/uploads/b".to_owned(),
            from: 0,
            to: 4 * MB,
        }
    );
    assert_eq!(
        upload.take_news(),
        [News::Created("/uploads/b".to_owned()), News::Progress(0)]
    );
}

#[test]
fn a_refused_piece_ends_it() {
    let (mut upload, _) = Upload::start(MB, None);
    upload.on(made("/uploads/a"));
    assert_eq!(upload.on(answered(415)), Step::Fail(UploadFailure::Refused));
}

#[test]
fn the_network_down_through_every_try_ends_it() {
    let (mut upload, _) = Upload::start(MB, None);
    upload.on(made("/uploads/a"));
    for _ in 0..tus::NETWORK_TRIES {
        assert!(matches!(upload.on(Event::NoAnswer), Step::Wait(_)));
        assert!(matches!(upload.on(Event::Waited), Step::Ask { .. }));
        assert!(matches!(upload.on(Event::NoAnswer), Step::Send { .. }));
    }
    assert_eq!(
        upload.on(Event::NoAnswer),
        Step::Fail(UploadFailure::Network)
    );
}

#[test]
fn an_offset_past_the_length_is_the_end_not_a_piece_past_it() {
    let (mut upload, _) = Upload::start(MB, None);
    upload.on(made("/uploads/a"));
    assert!(matches!(upload.on(kept(5 * MB)), Step::Done { .. }));
    assert_eq!(upload.offset(), MB);
}
