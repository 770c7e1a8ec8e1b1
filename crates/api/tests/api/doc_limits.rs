//! Interface document, "Limits": every row at its bounds (0, 1, max, max+1).

use crate::common::*;
use media_gen_api::*;

#[test]
fn limit_prompt_length_at_most_1000_characters() {
    let i2v_with = |prompt: String| {
        i2v(&ImageToVideoRequest {
            prompt,
            ..v_start()
        })
    };
    let ig_with = |prompt: String| {
        ig(&ImageGenerateRequest {
            prompt,
            ..image_generation()
        })
    };
    for unit in ["a", "語", "👍", "é"] {
        for (count, ok) in [(1, true), (1000, true), (1001, false)] {
            let prompt = unit.repeat(count);
            for problems in [i2v_with(prompt.clone()), ig_with(prompt)] {
                if ok {
                    assert_clean(&problems);
                } else {
                    let message = assert_only_error(&problems, "prompt", Rule::TooLong);
                    assert_eq!(
                        message,
                        "A prompt has at most 1000 characters; this one has 1001"
                    );
                }
            }
        }
    }
    // 0 characters is the "required" rule.
    assert_only_error(&i2v_with(String::new()), "prompt", Rule::Required);
}

#[test]
fn limit_image_file_size_image_to_video_at_most_20mb() {
    let limit = 20 * 1024 * 1024;
    let request = kl();
    let url = request.reference_images[0].clone();
    for (bytes, ok) in [(0, true), (1, true), (limit, true), (limit + 1, false)] {
        let mut context = Context::default();
        context.images.insert(
            url.clone(),
            ImageInfo {
                bytes: Some(bytes),
                ..Default::default()
            },
        );
        let problems = validate_image_to_video(&request, &context);
        assert_eq!(problems.is_empty(), ok, "{bytes}: {problems:?}");
    }
}

#[test]
fn limit_reference_images_count_model_v_at_most_3() {
    for (count, ok) in [(1, true), (3, true), (4, false)] {
        let problems = i2v(&ImageToVideoRequest {
            reference_images: images(count),
            ..v_multi()
        });
        assert_eq!(problems.is_empty(), ok, "{count}");
    }
    // 0 reference images is start-frame mode, or (without a start frame) nothing at all.
    let none = i2v(&ImageToVideoRequest {
        reference_images: vec![],
        ..v_multi()
    });
    assert_only_error(&none, "image_url", Rule::Required);
}

#[test]
fn limit_reference_images_count_model_kl_at_most_7() {
    for (count, ok) in [(1, true), (7, true), (8, false)] {
        let problems = i2v(&ImageToVideoRequest {
            reference_images: images(count),
            ..kl()
        });
        assert_eq!(problems.is_empty(), ok, "{count}");
    }
    let none = i2v(&ImageToVideoRequest {
        reference_images: vec![],
        ..kl()
    });
    assert_only_error(&none, "reference_images", Rule::Required);
}

#[test]
fn limit_generate_count_image_to_video_1_to_4() {
    for (count, ok) in [(0, false), (1, true), (4, true), (5, false)] {
        let problems = i2v(&ImageToVideoRequest {
            generate_count: Some(count),
            ..v_start()
        });
        assert_eq!(problems.is_empty(), ok, "{count}");
    }
    assert_eq!(defaults::IMAGE_TO_VIDEO_COUNT, 1);
    const { assert!(!defaults::GENERATE_AUDIO) };
}

#[test]
fn limit_reference_images_count_image_generate_at_most_5_extra_truncated() {
    for (count, warnings) in [(0, 0), (1, 0), (5, 0), (6, 1)] {
        let problems = ig(&ImageGenerateRequest {
            reference_images: images(count),
            ..image_generation()
        });
        assert!(!problems.has_errors());
        assert_eq!(problems.warnings().count(), warnings, "{count}");
    }
}

#[test]
fn limit_reference_image_size_image_generate_under_20mb() {
    let limit = 20 * 1024 * 1024;
    let request = ImageGenerateRequest {
        reference_images: images(1),
        ..image_generation()
    };
    for (bytes, ok) in [(0, true), (1, true), (limit - 1, true), (limit, false)] {
        let mut context = Context::default();
        context.images.insert(
            request.reference_images[0].clone(),
            ImageInfo {
                bytes: Some(bytes),
                ..Default::default()
            },
        );
        assert_eq!(
            validate_image_generate(&request, &context).is_empty(),
            ok,
            "{bytes}"
        );
    }
}

#[test]
fn limit_generate_count_image_generate_1_to_8() {
    for (count, ok) in [(0, false), (1, true), (8, true), (9, false)] {
        let problems = ig(&ImageGenerateRequest {
            generate_count: Some(count),
            ..image_generation()
        });
        assert_eq!(problems.is_empty(), ok, "{count}");
    }
}

#[test]
fn limit_name_length_video_translate_fewer_than_100() {
    for (count, ok) in [(0, true), (1, true), (99, true), (100, false)] {
        let problems = vt(&VideoTranslateRequest {
            name: Some("n".repeat(count)),
            ..translation()
        });
        assert_eq!(problems.is_empty(), ok, "{count}");
    }
}

#[test]
fn limit_speaker_num_0_or_greater() {
    for (speakers, ok) in [(-1, false), (0, true), (1, true)] {
        let problems = vt(&VideoTranslateRequest {
            speaker_num: Some(speakers),
            ..translation()
        });
        assert_eq!(problems.is_empty(), ok, "{speakers}");
    }
}
