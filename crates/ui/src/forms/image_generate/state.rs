//! The image generation form's state.

use leptos::prelude::*;
use media_gen_api::{
    defaults, validate_image_generate, Context, ImageGenerateRequest, ImageQuality, ImageRatio,
    Module, Problems,
};

use crate::forms::image_previews::Measured;
use crate::forms::{lines, optional};

/// What the user has entered so far; every field a signal.
#[derive(Debug, Clone, Copy)]
pub struct ImageGenerateState {
    /// The prompt.
    pub prompt: RwSignal<String>,
    /// Reference image URLs, one per line.
    pub references: RwSignal<String>,
    /// `std` or `pro`.
    pub module: RwSignal<Module>,
    /// Images to make.
    pub count: RwSignal<i64>,
    /// Image quality.
    pub quality: RwSignal<ImageQuality>,
    /// Image ratio.
    pub ratio: RwSignal<ImageRatio>,
    /// Callback URL; blank for none.
    pub callback: RwSignal<String>,
    /// Reference images measured by their previews.
    pub images: Measured,
}

impl Default for ImageGenerateState {
    /// The service's published defaults.
    fn default() -> Self {
        Self::from_request(&ImageGenerateRequest::default())
    }
}

impl ImageGenerateState {
    /// A form filled in with `request` ("edit and re-run"); fields it leaves
    /// out get the published defaults.
    pub fn from_request(request: &ImageGenerateRequest) -> Self {
        ImageGenerateState {
            prompt: RwSignal::new(request.prompt.clone()),
            references: RwSignal::new(request.reference_images.join("\n")),
            module: RwSignal::new(request.module.unwrap_or(defaults::IMAGE_GENERATE_MODULE)),
            count: RwSignal::new(
                request
                    .generate_count
                    .unwrap_or(defaults::IMAGE_GENERATE_COUNT),
            ),
            quality: RwSignal::new(request.image_quality.unwrap_or(defaults::IMAGE_QUALITY)),
            ratio: RwSignal::new(request.image_ratio.unwrap_or(defaults::IMAGE_RATIO)),
            callback: RwSignal::new(request.callback_url.clone().unwrap_or_default()),
            images: RwSignal::new(Default::default()),
        }
    }

    /// The request these values make; blank reference lines are left out.
    pub fn request(&self) -> ImageGenerateRequest {
        ImageGenerateRequest {
            prompt: self.prompt.get(),
            reference_images: lines(&self.references.get()),
            module: Some(self.module.get()),
            generate_count: Some(self.count.get()),
            image_quality: Some(self.quality.get()),
            image_ratio: Some(self.ratio.get()),
            callback_url: optional(&self.callback.get()),
        }
    }

    /// Every problem of the request, recomputed as the user types.
    pub fn problems(&self) -> Memo<Problems> {
        let form = *self;
        Memo::new(move |_| {
            let context = Context {
                images: form.images.get(),
                ..Context::default()
            };
            validate_image_generate(&form.request(), &context)
        })
    }
}
