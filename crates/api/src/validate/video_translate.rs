//! Rules of `POST /v1/video_translate`.

use super::common::{char_count, check_optional_url, check_url, url_extension};
use super::{Context, Problems, Rule};
use crate::video_translate::VideoTranslateRequest;

/// A name has fewer than this many characters.
pub const NAME_CHAR_LIMIT: usize = 100;
/// The most target languages checked in one request: more than the service
/// offers (the document shows no limit), few enough that a request of a
/// hundred thousand names is refused at once rather than checked name by name.
pub const MAX_TARGET_LANGUAGES: usize = 100;
/// Source video types the service takes (service-facts.md), by extension.
pub const VIDEO_EXTENSIONS: &[&str] = &["mp4", "mov", "webm"];

/// Every problem of a video translation request. Languages are checked
/// against `context.languages` when it is given.
pub fn validate_video_translate(request: &VideoTranslateRequest, context: &Context) -> Problems {
    let mut problems = Problems::default();

    let languages = &request.target_languages;
    if languages.is_empty() {
        problems.error(
            "target_languages",
            Rule::Required,
            "Choose at least one target language",
        );
    }
    if languages.len() > MAX_TARGET_LANGUAGES {
        problems.error(
            "target_languages",
            Rule::TooMany,
            format!(
                "At most {MAX_TARGET_LANGUAGES} target languages at a time (not {})",
                languages.len()
            ),
        );
    }
    // Past the limit nothing more is checked, so the scans below compare
    // at most 100 names with 100 others: less code in the browser's wasm
    // than a set's (a sort and a tree), and no slower at this size.
    let offered = context.languages.as_deref();
    let checked = &languages[..languages.len().min(MAX_TARGET_LANGUAGES)];
    for (index, language) in checked.iter().enumerate() {
        let field = format!("target_languages[{index}]");
        if language.trim().is_empty() {
            problems.error(field, Rule::Required, "A language name cannot be empty");
        } else if checked[..index].contains(language) {
            problems.error(
                field,
                Rule::Duplicate,
                format!("{language} is listed twice; each language makes one task"),
            );
        } else if offered.is_some_and(|offered| !offered.contains(language)) {
            problems.error(
                field,
                Rule::UnknownLanguage,
                format!("{language} is not one of the languages the service offers"),
            );
        }
    }

    if request.video_url.trim().is_empty() {
        problems.error(
            "video_url",
            Rule::Required,
            "The video to translate is required",
        );
    } else {
        check_url(&mut problems, "video_url", &request.video_url);
        if let Some(extension) =
            url_extension(&request.video_url).filter(|e| !VIDEO_EXTENSIONS.contains(&e.as_str()))
        {
            problems.warning(
                "video_url",
                Rule::UnexpectedFileType,
                format!("The service takes MP4, MOV or WebM videos; this URL ends in .{extension}"),
            );
        }
    }

    if let Some(speakers) = request.speaker_num.filter(|n| *n < 0) {
        problems.error(
            "speaker_num",
            Rule::OutOfRange,
            format!("The number of speakers is 0 or more (not {speakers})"),
        );
    }

    if let Some(name) = &request.name {
        let count = char_count(name);
        if count >= NAME_CHAR_LIMIT {
            problems.error(
                "name",
                Rule::TooLong,
                format!("A name has fewer than {NAME_CHAR_LIMIT} characters; this one has {count}"),
            );
        }
    }

    check_optional_url(
        &mut problems,
        "callback_url",
        request.callback_url.as_deref(),
    );
    problems
}
