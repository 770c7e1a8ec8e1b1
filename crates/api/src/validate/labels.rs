//! How forms name the fields of a request, so a problem of one item of a
//! list reads "Reference image 6" rather than the wire path
//! `reference_images[5]`.

/// The label of the field at `path` (`prompt`, `reference_images[5]`), as a
/// person reads it: items of a list are counted from 1. A path of no known
/// field is returned unchanged.
pub fn field_label(path: &str) -> String {
    if let Some((list, rest)) = path.split_once('[') {
        let index = rest.strip_suffix(']').and_then(|n| n.parse::<usize>().ok());
        let item = match list {
            "reference_images" => Some("Reference image"),
            "target_languages" => Some("Target language"),
            _ => None,
        };
        return match (item, index) {
            (Some(item), Some(index)) => format!("{item} {}", index.saturating_add(1)),
            _ => path.to_owned(),
        };
    }
    let label = match path {
        "model" => "Model",
        "prompt" => "Prompt",
        "image_url" => "Start frame URL",
        "end_image_url" => "End frame URL",
        "reference_images" => "Reference images",
        "aspect_ratio" => "Aspect ratio",
        "aspect_resolution" => "Resolution",
        "duration" => "Seconds",
        "generate_audio" => "Generate audio",
        "generate_count" => "Count",
        "video_url" => "Video URL",
        "target_languages" => "Target languages",
        "speaker_num" => "Speakers",
        "name" => "Name",
        "callback_url" => "Callback URL",
        _ => return path.to_owned(),
    };
    label.to_owned()
}

#[cfg(test)]
mod tests {
    use super::field_label;

    #[test]
    fn items_are_counted_from_one() {
        assert_eq!(field_label("reference_images[5]"), "Reference image 6");
        assert_eq!(field_label("reference_images[0]"), "Reference image 1");
        assert_eq!(field_label("target_languages[2]"), "Target language 3");
    }

    #[test]
    fn fields_read_as_their_form_labels() {
        assert_eq!(field_label("image_url"), "Start frame URL");
        assert_eq!(field_label("callback_url"), "Callback URL");
        assert_eq!(field_label("generate_count"), "Count");
    }

    #[test]
    fn unknown_paths_are_kept() {
        assert_eq!(field_label("something_else"), "something_else");
        assert_eq!(field_label("reference_images[x]"), "reference_images[x]");
        assert_eq!(field_label("other[1]"), "other[1]");
    }
}
