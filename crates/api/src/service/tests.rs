//! The model's own tests: a submit's tasks through their life, refusals
//! that make nothing, callbacks falling due once, faults, and properties
//! over arbitrary timings, requests and seeds.

use proptest::prelude::*;

use super::*;
use crate::{ImageGenerateRequest, TaskStatus};

fn settings(seed: u64) -> Settings {
    Settings {
        timing: Timing {
            typical_ms: 1_000,
            spread: 0.5,
        },
        max_tasks: 1_000,
        base_url: "http://127.0.0.1:9".to_owned(),
        callbacks_to_any_host: false,
        media_ttl_secs: None,
        faults: Faults::default(),
        seed,
    }
}

fn images(prompt: &str, count: i64, callback: Option<&str>) -> Request {
    Request::ImageGenerate(ImageGenerateRequest {
        prompt: prompt.to_owned(),
        generate_count: Some(count),
        callback_url: callback.map(str::to_owned),
        ..ImageGenerateRequest::default()
    })
}

fn submit(model: &mut ServiceModel, request: Request, now: u64) -> Result<Created, Refusal> {
    let accepted = model.accept(request, now)?;
    Ok(model.create(accepted, now))
}

fn ids(created: &Created) -> Vec<String> {
    match created {
        Created::Tasks(ids) => ids.task_ids.clone(),
        Created::Translations(refs) => refs.iter().map(|r| r.task_id.clone()).collect(),
    }
}

#[test]
fn a_submit_makes_its_tasks_which_run_and_end_with_their_files() {
    let mut model = ServiceModel::new(settings(1));
    let created = submit(&mut model, images("a fox", 2, None), 10_000).unwrap();
    let made = ids(&created);
    assert_eq!(made.len(), 2);
    assert!(made
        .iter()
        .all(|id| id.starts_with("i2is-") && id.len() == 37));
    let status = |at| model.status(TaskKind::ImageGenerate, &made[0], at).unwrap();
    assert_eq!(status(10_000).status(), &TaskStatus::Pending);
    let AnyTask::ImageGenerate(done) = status(10_000 + 1_500) else {
        panic!("an image task")
    };
    assert_eq!(done.status, TaskStatus::Succeeded);
    let image = format!(
        "http://127.0.0.1:9/sandbox/media/image/{}/",
        crate::defaults::IMAGE_QUALITY
    );
    assert!(done.image_url.starts_with(&image), "{}", done.image_url);
    assert!(
        done.image_url.ends_with(&format!("?task={}", made[0])),
        "{}",
        done.image_url
    );
    let missing = model
        .status(TaskKind::ImageToVideo, &made[0], 0)
        .unwrap_err();
    assert_eq!(
        missing.status_and_code(),
        (404, crate::error_codes::NOT_FOUND)
    );
}

#[test]
fn ids_have_the_real_services_shape() {
    let mut model = ServiceModel::new(settings(2));
    let video = Request::ImageToVideo(crate::ImageToVideoRequest {
        prompt: "p".into(),
        image_url: Some("https://example.com/a.png".into()),
        model: Some(crate::Model::V),
        aspect_resolution: Some(crate::Resolution::P720),
        duration: Some(6),
        ..crate::ImageToVideoRequest::default()
    });
    let translation = Request::VideoTranslate(crate::VideoTranslateRequest {
        video_url: "https://example.com/v.mp4".into(),
        target_languages: vec!["French".into(), "German".into()],
        ..crate::VideoTranslateRequest::default()
    });
    for (request, prefix, count) in [
        (images("p", 1, None), "i2is-", 1),
        (video, "i2v-", 1),
        (translation, "vt-", 2),
    ] {
        let made = ids(&submit(&mut model, request, 0)
            .unwrap_or_else(|refused| panic!("{prefix}: {refused:?}")));
        assert_eq!(made.len(), count, "{prefix}");
        for id in &made {
            let hex = id.strip_prefix(prefix).unwrap();
            assert_eq!(hex.len(), 32, "{id}");
            assert!(
                hex.chars()
                    .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()),
                "{id}"
            );
        }
    }
}

#[test]
fn a_prompt_with_the_trigger_fails_with_the_message() {
    let mut model = ServiceModel::new(settings(1));
    let made = ids(&submit(&mut model, images("a [fail] fox", 1, None), 0).unwrap());
    let ended = model
        .status(TaskKind::ImageGenerate, &made[0], 10_000)
        .unwrap();
    assert_eq!(ended.status(), &TaskStatus::Failed);
    let AnyTask::ImageGenerate(task) = ended else {
        panic!("an image task")
    };
    assert!(
        task.error_message.contains("[fail]"),
        "{}",
        task.error_message
    );
}

#[test]
fn a_test_chooses_how_the_next_task_or_a_given_one_ends() {
    let mut model = ServiceModel::new(settings(8));
    model.next_outcome(Outcome::Failure("The prompt was refused".into()));
    let made = ids(&submit(&mut model, images("p", 2, None), 0).unwrap());
    let ended = |model: &ServiceModel, id: &str| {
        model
            .status(TaskKind::ImageGenerate, id, 10_000)
            .unwrap()
            .status()
            .clone()
    };
    assert_eq!(ended(&model, &made[0]), TaskStatus::Failed);
    assert_eq!(
        ended(&model, &made[1]),
        TaskStatus::Succeeded,
        "only the next one"
    );
    assert!(model.set_outcome(
        TaskKind::ImageGenerate,
        &made[1],
        Outcome::Failure("no".into())
    ));
    assert_eq!(ended(&model, &made[1]), TaskStatus::Failed);
    assert!(!model.set_outcome(TaskKind::ImageToVideo, &made[1], Outcome::Success));
}

#[test]
fn a_callback_falls_due_once_when_its_task_ends() {
    let mut model = ServiceModel::new(settings(3));
    let made = ids(&submit(
        &mut model,
        images("p", 1, Some("http://localhost:1/hook")),
        0,
    )
    .unwrap());
    let due = model.next_callback_at().unwrap();
    assert!(model.take_due_callbacks(due - 1).is_empty());
    let sent = model.take_due_callbacks(due);
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].url, "http://localhost:1/hook");
    assert_eq!(sent[0].body.task.task_id(), made[0]);
    assert_eq!(sent[0].body.task.status(), &TaskStatus::Succeeded);
    assert!(model.take_due_callbacks(u64::MAX).is_empty(), "once");
    let refused = submit(&mut model, images("p", 1, Some("http://example.com/")), 0).unwrap_err();
    assert!(refused.message().contains("loopback"), "{refused:?}");
}

#[test]
fn faults_refuse_before_the_work_and_count_down_their_limit() {
    let mut model = ServiceModel::new(Settings {
        faults: Faults {
            http_429: 1.0,
            retry_after_secs: 7,
            limit: Some(1),
            ..Faults::default()
        },
        ..settings(4)
    });
    let first = model.inject();
    assert_eq!(first.instead, Some(Refusal::RateLimited(7)));
    assert_eq!(first.instead.unwrap().retry_after(), Some(7));
    let spent = model.inject();
    assert_eq!(
        (spent.instead, spent.afterwards),
        (None, None),
        "the limit is spent"
    );
    model.reset();
    assert_eq!(
        model.inject().instead,
        Some(Refusal::RateLimited(7)),
        "reset to the start's"
    );
    assert!(model
        .set_faults(Faults {
            http_500: 2.0,
            ..Faults::default()
        })
        .is_err());
}

#[test]
fn a_result_file_is_gone_its_ttl_after_its_task_ended() {
    let mut model = ServiceModel::new(Settings {
        media_ttl_secs: Some(2),
        ..settings(5)
    });
    let made = ids(&submit(&mut model, images("p", 1, None), 0).unwrap());
    let ends = model
        .task(TaskKind::ImageGenerate, &made[0])
        .unwrap()
        .schedule
        .ends;
    assert_eq!(
        model.media_served(TaskKind::ImageGenerate, Some(&made[0]), ends + 1_999),
        Ok(())
    );
    assert_eq!(
        model.media_served(TaskKind::ImageGenerate, Some(&made[0]), ends + 2_000),
        Err(Gone::Expired { ttl_seconds: 2 })
    );
    assert_eq!(
        model.media_served(TaskKind::ImageGenerate, None, 0),
        Err(Gone::UnknownTask)
    );
}

fn call<'a>(method: &'a str, path: &'a str, body: &'a [u8]) -> Call<'a> {
    Call {
        method,
        path,
        content_type: Some("application/json; charset=utf-8"),
        body,
    }
}

#[test]
fn calls_are_answered_as_the_sandbox_answers_them() {
    let mut model = ServiceModel::new(settings(6));
    let (submitted, _) = model.answer(
        call(
            "POST",
            "/v1/image_generate",
            br#"{"prompt":"a fox","generate_count":2}"#,
        ),
        0,
    );
    let Reply::Json {
        status: 200, body, ..
    } = submitted
    else {
        panic!("{submitted:?}")
    };
    let id = body["data"]["task_ids"][1].as_str().unwrap().to_owned();
    let (read, _) = model.answer(call("GET", &format!("/v1/image_generate/{id}"), b""), 5_000);
    let Reply::Json {
        status: 200, body, ..
    } = read
    else {
        panic!("{read:?}")
    };
    assert_eq!(body["data"]["status"], "SUCCEEDED");
    let refusals = [
        (call("POST", "/v1/image_generate", b"{}"), 200, "prompt"),
        (call("POST", "/v1/image_to_video", b"[1]"), 400, ""),
        (
            call("GET", "/v1/image_generate", b""),
            405,
            "Method not allowed",
        ),
        (call("GET", "/v1/nothing", b""), 404, "No such endpoint"),
        (
            Call {
                content_type: Some("text/plain"),
                ..call("POST", "/v1/image_generate", b"{}")
            },
            400,
            "Content-Type",
        ),
    ];
    for (asked, status, says) in refusals {
        let (reply, _) = model.answer(asked, 0);
        let Reply::Json {
            status: got, body, ..
        } = reply
        else {
            panic!("{asked:?}")
        };
        assert_eq!(got, status, "{asked:?}: {body}");
        assert_ne!(body["code"], 0, "{asked:?}");
        assert!(
            body["msg"].as_str().unwrap().contains(says),
            "{asked:?}: {body}"
        );
    }
    let languages = model
        .answer(call("GET", "/v1/video_translate/target_languages", b""), 0)
        .0;
    assert!(
        matches!(languages, Reply::Json { status: 200, .. }),
        "{languages:?}"
    );
}

#[test]
fn a_fault_after_the_work_makes_the_task_and_loses_the_answer() {
    let mut model = ServiceModel::new(Settings {
        faults: Faults {
            drop_connection: 1.0,
            latency_ms: 30,
            ..Faults::default()
        },
        ..settings(7)
    });
    let (reply, latency) =
        model.answer(call("POST", "/v1/image_generate", br#"{"prompt":"p"}"#), 0);
    assert_eq!((reply, latency), (Reply::Dropped, 30));
    assert_eq!(model.task_count(), 1, "the work was done");
    model
        .set_faults(Faults {
            http_503: 1.0,
            ..Faults::default()
        })
        .unwrap();
    let (reply, _) = model.answer(call("POST", "/v1/image_generate", br#"{"prompt":"p"}"#), 0);
    assert!(
        matches!(reply, Reply::Json { status: 503, .. }),
        "{reply:?}"
    );
    assert_eq!(model.task_count(), 1, "no work before a 503");
}

fn rank(status: &TaskStatus) -> u8 {
    match status {
        TaskStatus::Pending => 0,
        TaskStatus::Generating => 1,
        _ => 2,
    }
}

proptest! {
    #[test]
    fn statuses_only_move_forward_and_every_task_ends_by_its_schedule(
        typical_ms in 0u64..100_000,
        spread in 0.0f64..=1.0,
        unit in 0.0f64..1.0,
        start in 0u64..1_000_000_000_000,
        mut times in proptest::collection::vec(0u64..300_000, 1..20),
        fails in any::<bool>(),
    ) {
        let timing = Timing { typical_ms, spread };
        let schedule = Schedule::new(start, timing, unit);
        let outcome = if fails { Outcome::Failure("no".into()) } else { Outcome::Success };
        times.sort_unstable();
        let mut last = 0;
        for offset in times {
            let status = schedule.status_at(start + offset, &outcome);
            prop_assert!(rank(&status) >= last);
            last = rank(&status);
        }
        let longest = (typical_ms as f64 * (1.0 + spread)).ceil() as u64;
        prop_assert!(schedule.starts <= schedule.ends);
        prop_assert!(schedule.ends <= start + longest);
        prop_assert!(schedule.status_at(schedule.ends, &outcome).is_terminal());
    }

    #[test]
    fn a_refused_request_creates_nothing_and_an_accepted_one_its_count(
        prompt in ".{0,40}",
        count in -3i64..12,
        seed in any::<u64>(),
    ) {
        let mut model = ServiceModel::new(settings(seed));
        let before = model.task_count();
        match submit(&mut model, images(&prompt, count, None), 0) {
            Ok(created) => prop_assert_eq!(model.task_count(), before + ids(&created).len()),
            Err(_) => prop_assert_eq!(model.task_count(), before),
        }
    }

    #[test]
    fn the_same_calls_and_seed_give_the_same_tasks(
        seed in any::<u64>(),
        prompts in proptest::collection::vec("[a-z][a-z ]{0,19}", 1..5),
        step in 0u64..5_000,
    ) {
        let run = || {
            let mut model = ServiceModel::new(settings(seed));
            let mut seen = Vec::new();
            for (n, prompt) in prompts.iter().enumerate() {
                let now = n as u64 * step;
                let made = ids(&submit(&mut model, images(prompt, 1, None), now).unwrap());
                for id in made {
                    let status = model.status(TaskKind::ImageGenerate, &id, now + 700).unwrap();
                    seen.push((id, status));
                }
            }
            seen
        };
        prop_assert_eq!(run(), run());
    }
}
