//! Properties over arbitrary input: validation, decoding and the subtitle
//! conversion never panic, a request that validates without errors survives a
//! trip through JSON, and converted subtitles hold no markup or cue boundary.

use media_gen_api::*;
use proptest::prelude::*;

/// Cases per property: `default` in `cargo test`; `cargo xtask fuzz` raises
/// it through `MEDIA_GEN_FUZZ_CASES` and runs again and again for a fixed time.
fn cases(default: u32) -> u32 {
    std::env::var("MEDIA_GEN_FUZZ_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(default)
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        ".{0,40}",
        Just(String::new()),
        Just("https://example.com/a.png".to_owned()),
        Just("https://example.com/a.tiff".to_owned()),
        "https?://[a-z]{1,8}\\.[a-z]{2,3}/[a-z0-9]{0,8}(\\.[a-z]{2,4})?",
        "[a-z]{1,5}:[^ ]{0,20}",
        "[语👍a ]{990,1010}",
    ]
}

fn opt<T: std::fmt::Debug + Clone>(
    s: impl Strategy<Value = T>,
) -> impl Strategy<Value = Option<T>> {
    prop::option::of(s)
}

fn pick<T: Copy + std::fmt::Debug + 'static>(
    all: &'static [T],
) -> impl Strategy<Value = Option<T>> {
    opt(prop::sample::select(all))
}

prop_compose! {
    fn image_to_video()(
        model in pick(Model::ALL),
        prompt in text(),
        aspect_ratio in pick(AspectRatio::ALL),
        aspect_resolution in pick(Resolution::ALL),
        duration in opt(-2i64..15),
        image_url in opt(text()),
        end_image_url in opt(text()),
        reference_images in prop::collection::vec(text(), 0..9),
        generate_audio in opt(any::<bool>()),
        generate_count in opt(-1i64..7),
        callback_url in opt(text()),
    ) -> ImageToVideoRequest {
        ImageToVideoRequest { model, prompt, aspect_ratio, aspect_resolution, duration, image_url, end_image_url, reference_images, generate_audio, generate_count, callback_url }
    }
}

prop_compose! {
    fn video_translate()(
        target_languages in prop::collection::vec(prop_oneof![Just("English".to_owned()), Just("Korean".to_owned()), ".{0,8}"], 0..5),
        video_url in text(),
        speaker_num in opt(-3i64..5),
        translate_audio_only in opt(any::<bool>()),
        enable_dynamic_duration in opt(any::<bool>()),
        enable_caption in opt(any::<bool>()),
        name in opt(".{0,120}"),
        callback_url in opt(text()),
    ) -> VideoTranslateRequest {
        VideoTranslateRequest { target_languages, video_url, speaker_num, translate_audio_only, enable_dynamic_duration, enable_caption, name, callback_url }
    }
}

prop_compose! {
    fn image_generate()(
        prompt in text(),
        reference_images in prop::collection::vec(text(), 0..8),
        module in pick(Module::ALL),
        generate_count in opt(-1i64..11),
        image_quality in pick(ImageQuality::ALL),
        image_ratio in pick(ImageRatio::ALL),
        callback_url in opt(text()),
    ) -> ImageGenerateRequest {
        ImageGenerateRequest { prompt, reference_images, module, generate_count, image_quality, image_ratio, callback_url }
    }
}

fn context() -> impl Strategy<Value = Context> {
    (
        opt(prop::collection::vec(".{0,8}", 0..4)),
        opt(0u64..50_000_000),
        opt(0u32..5000),
        opt(0u32..5000),
    )
        .prop_map(|(languages, bytes, width, height)| {
            let mut context = Context {
                languages,
                ..Default::default()
            };
            let info = ImageInfo {
                width,
                height,
                bytes,
            };
            context
                .images
                .insert("https://example.com/a.png".into(), info);
            context
        })
}

/// A valid request round-trips through JSON; and every problem names a field.
fn check<T>(request: &T, problems: &Problems) -> Result<(), TestCaseError>
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    for problem in problems.iter() {
        prop_assert!(!problem.field.is_empty());
        prop_assert!(!problem.message.is_empty());
    }
    if !problems.has_errors() {
        let json = serde_json::to_string(request).expect("a request serializes");
        let back: T = serde_json::from_str(&json).expect("its JSON decodes");
        prop_assert_eq!(&back, request);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(512)))]

    #[test]
    fn image_to_video_validation_never_panics_and_valid_requests_round_trip(request in image_to_video(), context in context()) {
        check(&request, &validate_image_to_video(&request, &context))?;
    }

    #[test]
    fn video_translate_validation_never_panics_and_valid_requests_round_trip(request in video_translate(), context in context()) {
        check(&request, &validate_video_translate(&request, &context))?;
    }

    #[test]
    fn image_generate_validation_never_panics_and_valid_requests_round_trip(request in image_generate(), context in context()) {
        check(&request, &validate_image_generate(&request, &context))?;
    }

    #[test]
    fn decoding_never_panics_on_arbitrary_bytes(status in 0u16..600, body in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = decode_data::<TaskIds>(status, &body);
        let _ = decode_data::<Vec<TranslationTaskRef>>(status, &body);
        let _ = decode_data::<ImageToVideoTask>(status, &body);
        let _ = decode_data::<VideoTranslateTask>(status, &body);
        let _ = decode_data::<ImageGenerateTask>(status, &body);
        let _ = serde_json::from_slice::<Callback>(&body);
    }

    #[test]
    fn decoding_never_panics_on_json_like_text(status in prop_oneof![Just(200u16), Just(400u16), 0u16..600], body in r#"\{("(code|msg|data|task_ids|status|task_id)":(0|1|"[A-Z]{0,9}"|null|\[\]|\{\}|-?[0-9]{1,20}),?){0,6}\}"#) {
        let _ = decode_data::<TaskIds>(status, body.as_bytes());
        let _ = decode_data::<ImageGenerateTask>(status, body.as_bytes());
    }
}

/// Requests built only from what the per-model table allows.
fn allowed_image_to_video() -> impl Strategy<Value = ImageToVideoRequest> {
    let url = "https://[a-z]{1,8}\\.example\\.com/[a-z0-9]{1,8}\\.(png|jpg|webp)";
    (
        prop::sample::select(Model::ALL),
        "[a-zA-Z语👍 ]{1,200}",
        pick(AspectRatio::ALL),
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
        any::<bool>(),
        prop::collection::vec(url, 1..8),
        opt(url),
        opt(1i64..=4),
        any::<bool>(),
    )
        .prop_map(
            move |(
                model,
                prompt,
                aspect_ratio,
                resolution,
                duration,
                multi,
                references,
                end,
                count,
                audio,
            )| {
                let rules = model.rules();
                let multi = match model {
                    Model::V => multi,
                    Model::Kl => true,
                    Model::S => false,
                };
                let mode = model.mode(multi);
                let references: Vec<String> = if multi {
                    references
                        .into_iter()
                        .take(rules.max_reference_images)
                        .collect()
                } else {
                    Vec::new()
                };
                ImageToVideoRequest {
                    model: Some(model),
                    prompt: prompt.trim().to_owned() + "x",
                    aspect_ratio,
                    aspect_resolution: Some(*resolution.get(rules.resolutions)),
                    duration: Some(*duration.get(model.durations(mode))),
                    image_url: (!multi).then(|| "https://example.com/start.png".to_owned()),
                    end_image_url: end.filter(|_| model == Model::V && !multi),
                    reference_images: references,
                    generate_audio: rules.audio.then_some(audio),
                    generate_count: count,
                    callback_url: None,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(1024)))]

    #[test]
    fn everything_the_per_model_table_allows_validates_and_round_trips(request in allowed_image_to_video()) {
        let problems = validate_image_to_video(&request, &Context::default());
        prop_assert!(problems.is_empty(), "{:?}", problems);
        let json = serde_json::to_string(&request).unwrap();
        prop_assert_eq!(serde_json::from_str::<ImageToVideoRequest>(&json).unwrap(), request);
    }
}

/// Text shaped like an ASS file: section headers, Format and Dialogue lines
/// with valid and broken times, override tags, escapes and markup, mixed with
/// arbitrary lines and line ends.
fn ass_like() -> impl Strategy<Value = String> {
    let clock = |cs: u64| {
        format!(
            "{}:{:02}:{:02}.{:02}",
            cs / 360_000,
            cs / 6000 % 60,
            cs / 100 % 60,
            cs % 100
        )
    };
    let time = prop_oneof![
        1 => (0u64..50_000_000).prop_map(clock),
        1 => "[0-9]{1,3}:[0-9]{1,3}:[0-9]{1,3}\\.[0-9]{0,4}",
        1 => ".{0,6}",
    ];
    // Mostly start before end, so many lines become cues.
    let times = prop_oneof![
        3 => (0u64..50_000_000, 1u64..100_000).prop_map(move |(start, length)| (clock(start), clock(start + length))),
        1 => (time.clone(), time),
    ];
    let text = prop::collection::vec(
        prop_oneof![
            Just("{\\i1}".to_owned()),
            Just("{".to_owned()),
            Just("}".to_owned()),
            Just("\\N".to_owned()),
            Just("\\h".to_owned()),
            Just("-->".to_owned()),
            Just("<b>".to_owned()),
            Just("&".to_owned()),
            Just(",".to_owned()),
            Just(" ".to_owned()),
            ".{0,6}",
        ],
        0..8,
    )
    .prop_map(|parts| parts.concat());
    let fixed = prop::sample::select(
        &[
            "[Events]",
            "[events]",
            "[V4+ Styles]",
            "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
            "Format: Start, End, Text",
            "Format: Layer, Style",
            "Comment: 0,0:00:01.00,0:00:02.00,,,0,0,0,,x",
        ][..],
    )
    .prop_map(str::to_owned);
    let line = prop_oneof![
        2 => fixed,
        4 => (times.clone(), text.clone())
            .prop_map(|((start, end), text)| format!("Dialogue: 0,{start},{end},Default,,0,0,0,,{text}")),
        2 => (times, text)
            .prop_map(|((start, end), text)| format!("Dialogue: {start},{end},{text}")),
        1 => ".{0,30}",
    ];
    (
        prop_oneof![3 => Just("[Events]"), 1 => Just("")],
        prop::collection::vec(line, 0..12),
        prop_oneof![Just("\n"), Just("\r\n"), Just("\r")],
    )
        .prop_map(|(header, lines, end)| format!("{header}{end}{}", lines.join(end)))
}

/// What holds for any conversion of `ass`.
fn check_vtt(ass: &str) -> Result<(), TestCaseError> {
    let vtt = ass_to_vtt(ass);
    // Each Dialogue line gives at most one cue or one skip; counting every
    // "dialogue" anywhere is an upper bound however lines are split.
    let dialogue_lines = ass.to_ascii_lowercase().matches("dialogue").count();
    prop_assert!(vtt.cues + vtt.skipped <= dialogue_lines, "{:?}", vtt);
    let cues = vtt.text.strip_prefix("WEBVTT\n\n");
    prop_assert!(cues.is_some(), "{:?}", vtt.text);
    let cues = cues.unwrap_or_default();
    let blocks: Vec<&str> = cues.split_terminator("\n\n").collect();
    prop_assert_eq!(blocks.len(), vtt.cues, "{:?}", vtt.text);
    for block in blocks {
        let (timing, payload) = block.split_once('\n').unwrap_or((block, ""));
        prop_assert!(timing.contains(" --> "), "{:?}", block);
        prop_assert!(!payload.trim_end_matches('\n').is_empty(), "{:?}", block);
        prop_assert!(!payload.contains("-->"), "{:?}", block);
        prop_assert!(!payload.contains('<'), "{:?}", block);
        prop_assert!(!payload.contains('\r'), "{:?}", block);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(512)))]

    #[test]
    fn subtitles_convert_any_text_without_markup_or_cue_boundaries(ass in ".{0,200}") {
        check_vtt(&ass)?;
    }

    #[test]
    fn subtitles_convert_ass_like_text_without_markup_or_cue_boundaries(ass in ass_like()) {
        check_vtt(&ass)?;
    }

    #[test]
    fn curl_commands_never_panic(method in ".{0,8}", url in ".{0,40}", token in opt(".{0,20}"), body in opt(".{0,40}")) {
        let token = token.as_deref().map_or(CurlToken::Masked, CurlToken::Included);
        let command = curl_command(&method, &url, token, body.as_deref());
        prop_assert!(command.starts_with("curl "));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(512)))]

    /// The usual duration is the sorted window's middle sample, ties and all.
    #[test]
    fn the_usual_duration_is_the_middle_of_the_sorted_window(millis in prop::collection::vec(0u64..50, 0..45)) {
        let mut estimate = media_gen_api::poll::DurationEstimate::default();
        for &ms in &millis {
            estimate.record(std::time::Duration::from_millis(ms));
        }
        let window = &millis[millis.len().saturating_sub(media_gen_api::poll::DurationEstimate::WINDOW)..];
        let mut sorted = window.to_vec();
        sorted.sort_unstable();
        let expected = sorted.get(sorted.len() / 2).map(|&ms| std::time::Duration::from_millis(ms));
        prop_assert_eq!(estimate.median(), expected);
    }
}

/// A file's first bytes: arbitrary, or a known magic number followed by
/// arbitrary bytes.
fn file_head() -> impl Strategy<Value = Vec<u8>> {
    let magic = prop_oneof![
        Just(Vec::new()),
        Just(vec![0xFF, 0xD8, 0xFF]),
        Just(b"\x89PNG\r\n\x1a\n".to_vec()),
        Just(b"RIFF\0\0\0\0WEBP".to_vec()),
        Just(b"BM".to_vec()),
        Just(b"\0\0\0\x20ftyp".to_vec()),
        Just(vec![0x1A, 0x45, 0xDF, 0xA3]),
    ];
    (magic, prop::collection::vec(any::<u8>(), 0..80)).prop_map(|(mut head, rest)| {
        head.extend(rest);
        head
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(2048)))]

    /// Any bytes are judged without a panic, a type is decided by the first
    /// `SNIFF_BYTES` alone, and what is taken is within its type's bound.
    #[test]
    fn a_files_type_is_judged_by_its_first_bytes_within_its_bound(
        head in file_head(),
        length in 0u64..(1 << 32),
        max_video in 0u64..(1 << 32),
    ) {
        use media_gen_api::media_type::{check_media, MediaType, SNIFF_BYTES};
        let sniffed = MediaType::sniff(&head);
        let first = &head[..head.len().min(SNIFF_BYTES)];
        prop_assert_eq!(MediaType::sniff(first), sniffed);
        if let Ok(media) = check_media(first, length, max_video) {
            prop_assert_eq!(Some(media), sniffed);
            prop_assert!(length <= media.max_bytes(max_video));
        }
    }
}
