//! The image generation form's state.

use leptos::prelude::*;
use media_gen_api::{
    defaults, validate_image_generate, Context, ImageGenerateRequest, ImageQuality, ImageRatio,
    Module, Problems,
};

/// What the user has entered so far; every field a signal.
#[derive(Debug, Clone, Copy)]
pub struct ImageGenerateForm {
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
}

impl Default for ImageGenerateForm {
    /// The service's published defaults.
    fn default() -> Self {
        ImageGenerateForm {
            prompt: RwSignal::new(String::new()),
            references: RwSignal::new(String::new()),
            module: RwSignal::new(defaults::IMAGE_GENERATE_MODULE),
            count: RwSignal::new(defaults::IMAGE_GENERATE_COUNT),
            quality: RwSignal::new(defaults::IMAGE_QUALITY),
            ratio: RwSignal::new(defaults::IMAGE_RATIO),
        }
    }
}

impl ImageGenerateForm {
    /// The request these values make; blank reference lines are left out.
    pub fn request(&self) -> ImageGenerateRequest {
        ImageGenerateRequest {
            prompt: self.prompt.get(),
            reference_images: self
                .references
                .get()
                .lines()
                .map(str::trim)
                .filter(|line| !line.is_empty())
                .map(str::to_owned)
                .collect(),
            module: Some(self.module.get()),
            generate_count: Some(self.count.get()),
            image_quality: Some(self.quality.get()),
            image_ratio: Some(self.ratio.get()),
            callback_url: None,
        }
    }

    /// Every problem of the request, recomputed as the user types.
    pub fn problems(&self) -> Memo<Problems> {
        let form = *self;
        Memo::new(move |_| validate_image_generate(&form.request(), &Context::default()))
    }
}
