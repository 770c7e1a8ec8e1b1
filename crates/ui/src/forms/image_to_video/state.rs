//! The image-to-video form's state, limited per model by the `media-gen-api`
//! table.

use leptos::prelude::*;
use media_gen_api::{
    defaults, validate_image_to_video, AspectRatio, Context, ImageToVideoRequest, Mode, Model,
    Problems, Resolution, Support,
};

use crate::forms::image_previews::Measured;
use crate::forms::{lines, optional};

/// What the user has entered so far. Fields the chosen model or mode does
/// not take keep their values (switching back restores them) but are left
/// out of the request.
#[derive(Debug, Clone, Copy)]
pub struct ImageToVideoState {
    /// The model.
    pub model: RwSignal<Model>,
    /// Model V's mode; KL and S have one mode each.
    pub v_mode: RwSignal<Mode>,
    /// The prompt.
    pub prompt: RwSignal<String>,
    /// Aspect ratio; `None` leaves it to the service.
    pub aspect_ratio: RwSignal<Option<AspectRatio>>,
    /// Resolution, one the model allows.
    pub resolution: RwSignal<Resolution>,
    /// Duration in seconds, one the model and mode allow.
    pub duration: RwSignal<i64>,
    /// Start frame URL.
    pub image_url: RwSignal<String>,
    /// More start frames, one task each with the same settings (several
    /// images given to the start frame at once).
    pub more_starts: RwSignal<Vec<String>>,
    /// End frame URL (model V).
    pub end_image_url: RwSignal<String>,
    /// Reference image URLs, one per line.
    pub references: RwSignal<String>,
    /// Generate a sound track (model V).
    pub audio: RwSignal<bool>,
    /// Videos to make.
    pub count: RwSignal<i64>,
    /// Callback URL; blank for none.
    pub callback: RwSignal<String>,
    /// Images measured by their previews.
    pub images: Measured,
}

impl Default for ImageToVideoState {
    /// Model V from a start frame, with the first allowed resolution and duration.
    fn default() -> Self {
        Self::from_request(&ImageToVideoRequest::default())
    }
}

/// The allowed value nearest to `current`: switching model keeps as much of
/// the user's choice as the new model allows.
fn nearest(allowed: &[i64], current: i64) -> Option<i64> {
    allowed
        .iter()
        .copied()
        .min_by_key(|value| (value - current).abs())
}

impl ImageToVideoState {
    /// A form filled in with `request` ("edit and re-run").
    pub fn from_request(request: &ImageToVideoRequest) -> Self {
        let model = request.model.unwrap_or(Model::V);
        let v_mode = if request.reference_images.is_empty() {
            Mode::StartFrame
        } else {
            Mode::MultiImage
        };
        let rules = model.rules();
        let mode = model.only_mode().unwrap_or(v_mode);
        ImageToVideoState {
            model: RwSignal::new(model),
            v_mode: RwSignal::new(v_mode),
            prompt: RwSignal::new(request.prompt.clone()),
            aspect_ratio: RwSignal::new(request.aspect_ratio),
            resolution: RwSignal::new(request.aspect_resolution.unwrap_or(rules.resolutions[0])),
            duration: RwSignal::new(request.duration.unwrap_or(model.durations(mode)[0])),
            image_url: RwSignal::new(request.image_url.clone().unwrap_or_default()),
            more_starts: RwSignal::new(Vec::new()),
            end_image_url: RwSignal::new(request.end_image_url.clone().unwrap_or_default()),
            references: RwSignal::new(request.reference_images.join("\n")),
            audio: RwSignal::new(request.generate_audio.unwrap_or(defaults::GENERATE_AUDIO)),
            count: RwSignal::new(
                request
                    .generate_count
                    .unwrap_or(defaults::IMAGE_TO_VIDEO_COUNT),
            ),
            callback: RwSignal::new(request.callback_url.clone().unwrap_or_default()),
            images: RwSignal::new(Default::default()),
        }
    }

    /// The mode the form is in: model V's choice, or the model's only mode.
    pub fn mode(&self) -> Mode {
        self.model
            .get()
            .only_mode()
            .unwrap_or_else(|| self.v_mode.get())
    }

    /// Durations the model allows in the current mode.
    pub fn durations(&self) -> &'static [i64] {
        self.model.get().durations(self.mode())
    }

    /// Choose `model`; resolution and duration move to the nearest values it allows.
    pub fn set_model(&self, model: Model) {
        self.model.set(model);
        let allowed = model.rules().resolutions;
        if !allowed.contains(&self.resolution.get_untracked()) {
            // The table lists resolutions smallest first: take the largest allowed.
            if let Some(&largest) = allowed.last() {
                self.resolution.set(largest);
            }
        }
        self.fit_duration();
    }

    /// Choose model V's mode; the duration moves to one the mode allows.
    pub fn set_v_mode(&self, mode: Mode) {
        self.v_mode.set(mode);
        self.fit_duration();
    }

    fn fit_duration(&self) {
        let allowed = self.durations();
        let current = self.duration.get_untracked();
        if !allowed.contains(&current) {
            if let Some(value) = nearest(allowed, current) {
                self.duration.set(value);
            }
        }
    }

    /// The request these values make: only the fields the model and mode take.
    pub fn request(&self) -> ImageToVideoRequest {
        let model = self.model.get();
        let rules = model.rules();
        let start_frame = self.mode() == Mode::StartFrame;
        let takes = |support: Support| support != Support::NotSupported;
        ImageToVideoRequest {
            model: Some(model),
            prompt: self.prompt.get(),
            aspect_ratio: self.aspect_ratio.get(),
            aspect_resolution: Some(self.resolution.get()),
            duration: Some(self.duration.get()),
            image_url: (start_frame && takes(rules.image_url))
                .then(|| optional(&self.image_url.get()))
                .flatten(),
            end_image_url: (start_frame && takes(rules.end_image_url))
                .then(|| optional(&self.end_image_url.get()))
                .flatten(),
            reference_images: if !start_frame && takes(rules.reference_images) {
                lines(&self.references.get())
            } else {
                Vec::new()
            },
            generate_audio: rules.audio.then(|| self.audio.get()),
            generate_count: Some(self.count.get()),
            callback_url: optional(&self.callback.get()),
        }
    }

    /// Every problem of the request, with the measured images, as the user types.
    pub fn problems(&self) -> Memo<Problems> {
        let form = *self;
        Memo::new(move |_| {
            let context = Context {
                images: form.images.get(),
                mode: Some(form.mode()),
                ..Context::default()
            };
            validate_image_to_video(&form.request(), &context)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::nearest;

    #[test]
    fn nearest_allowed_duration() {
        assert_eq!(nearest(&[5, 10], 4), Some(5));
        assert_eq!(nearest(&[4, 8, 12], 10), Some(8));
        assert_eq!(nearest(&[8], 4), Some(8));
        assert_eq!(nearest(&[], 4), None);
    }
}
