//! The per-model table of image_to_video, as data: forms read it to show,
//! hide and limit fields; validation reads it to check requests.

use crate::values::{Model, Resolution};

/// Every duration the document allows for any model, in seconds.
pub const ALL_DURATIONS: &[i64] = &[4, 5, 6, 8, 10, 12];

/// How a model treats an image field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// The model needs it.
    Required,
    /// Needed in one of the model's modes (model `V`): `image_url` in
    /// start-frame mode, `reference_images` in multi-image mode.
    RequiredInMode,
    /// Allowed, not needed.
    Optional,
    /// The model does not take it.
    NotSupported,
}

/// How a request gives the video its images.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// A start frame (`image_url`), perhaps an end frame.
    StartFrame,
    /// Reference images (`reference_images`).
    MultiImage,
}

/// One column of the document's per-model table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModelRules {
    /// The model.
    pub model: Model,
    /// What the model is for, in a sentence.
    pub purpose: &'static str,
    /// `image_url`, the start frame.
    pub image_url: Support,
    /// `end_image_url`, the end frame.
    pub end_image_url: Support,
    /// `reference_images`.
    pub reference_images: Support,
    /// The most reference images the model takes (0 when not supported).
    pub max_reference_images: usize,
    /// Allowed `aspect_resolution` values.
    pub resolutions: &'static [Resolution],
    /// Whether `generate_audio` is supported.
    pub audio: bool,
}

const V: ModelRules = ModelRules {
    model: Model::V,
    purpose: "Start-frame or multi-image video, with audio and up to 4k.",
    image_url: Support::RequiredInMode,
    end_image_url: Support::Optional,
    reference_images: Support::RequiredInMode,
    max_reference_images: 3,
    resolutions: &[Resolution::P720, Resolution::P1080, Resolution::K4],
    audio: true,
};

const KL: ModelRules = ModelRules {
    model: Model::Kl,
    purpose: "Video from 1 to 7 reference images.",
    image_url: Support::NotSupported,
    // "not shown" in the document; the field's own row says "supported by model V".
    end_image_url: Support::NotSupported,
    reference_images: Support::Required,
    max_reference_images: 7,
    resolutions: &[Resolution::P720, Resolution::P1080],
    audio: false,
};

const S: ModelRules = ModelRules {
    model: Model::S,
    purpose: "Video from a single start frame, at 720p.",
    image_url: Support::Required,
    end_image_url: Support::NotSupported,
    reference_images: Support::NotSupported,
    max_reference_images: 0,
    resolutions: &[Resolution::P720],
    audio: false,
};

impl Model {
    /// This model's column of the per-model table.
    pub fn rules(self) -> &'static ModelRules {
        match self {
            Model::V => &V,
            Model::Kl => &KL,
            Model::S => &S,
        }
    }

    /// The one mode the model works in, when it has no choice: KL is always
    /// multi-image, S always start-frame; `None` for V, which does both.
    pub fn only_mode(self) -> Option<Mode> {
        match self {
            Model::Kl => Some(Mode::MultiImage),
            Model::S => Some(Mode::StartFrame),
            Model::V => None,
        }
    }

    /// The mode a request is in: the model's only mode, or for V
    /// multi-image exactly when it has reference images.
    pub fn mode(self, has_reference_images: bool) -> Mode {
        self.only_mode().unwrap_or(if has_reference_images {
            Mode::MultiImage
        } else {
            Mode::StartFrame
        })
    }

    /// Allowed `duration` values in `mode`, in seconds.
    pub fn durations(self, mode: Mode) -> &'static [i64] {
        match (self, mode) {
            (Model::V, Mode::StartFrame) => &[4, 6, 8],
            (Model::V, Mode::MultiImage) => &[8],
            (Model::Kl, _) => &[5, 10],
            (Model::S, _) => &[4, 8, 12],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_model_duration_is_one_the_document_allows() {
        for &model in Model::ALL {
            for mode in [Mode::StartFrame, Mode::MultiImage] {
                for duration in model.durations(mode) {
                    assert!(ALL_DURATIONS.contains(duration), "{model} {duration}");
                }
            }
        }
    }

    #[test]
    fn modes_per_model() {
        assert_eq!(Model::V.mode(false), Mode::StartFrame);
        assert_eq!(Model::V.mode(true), Mode::MultiImage);
        assert_eq!(Model::Kl.mode(false), Mode::MultiImage);
        assert_eq!(Model::S.mode(true), Mode::StartFrame);
        assert_eq!(Model::V.only_mode(), None);
        assert_eq!(Model::Kl.only_mode(), Some(Mode::MultiImage));
    }
}
