//! Rules of `POST /v1/image_generate`.

use super::common::{
    check_count, check_image_bytes, check_optional_url, check_prompt, check_url, items_past,
    url_extension,
};
use super::{Context, Problems, Rule};
use crate::image_generate::ImageGenerateRequest;

/// The most images one request makes; each is a task.
pub const MAX_IMAGES: i64 = 8;
/// The most reference images the service uses; it drops the rest silently.
pub const MAX_REFERENCE_IMAGES: usize = 5;
/// File types the document lists for reference images (by extension).
pub const REFERENCE_EXTENSIONS: &[&str] = &["jpg", "jpeg", "png", "bmp", "webp", "gif"];

/// Every problem of an image generation request.
pub fn validate_image_generate(request: &ImageGenerateRequest, context: &Context) -> Problems {
    let mut problems = Problems::default();
    check_prompt(&mut problems, &request.prompt);

    for (index, url) in request.reference_images.iter().enumerate() {
        let field = format!("reference_images[{index}]");
        check_url(&mut problems, &field, url);
        check_image_bytes(&mut problems, context, &field, url, false);
        if let Some(extension) =
            url_extension(url).filter(|e| !REFERENCE_EXTENSIONS.contains(&e.as_str()))
        {
            problems.warning(
                field,
                Rule::UnexpectedFileType,
                format!("The service takes JPG, JPEG, PNG, BMP, WebP or GIF images; this URL ends in .{extension}"),
            );
        }
    }
    for field in items_past(
        "reference_images",
        &request.reference_images,
        MAX_REFERENCE_IMAGES,
    ) {
        problems.warning(
            field,
            Rule::WillBeDropped,
            format!("The service uses the first {MAX_REFERENCE_IMAGES} reference images and silently drops the rest"),
        );
    }

    check_count(&mut problems, request.generate_count, MAX_IMAGES, "images");
    check_optional_url(
        &mut problems,
        "callback_url",
        request.callback_url.as_deref(),
    );
    problems
}
