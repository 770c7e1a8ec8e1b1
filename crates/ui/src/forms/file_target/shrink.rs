//! "Shrink to fit": an image over the service's 20 MB made to fit instead
//! of refused. The browser decodes it (`createImageBitmap`, its orientation
//! as the file says), draws it on an `OffscreenCanvas` and encodes it as
//! JPEG, quality stepped down until it fits, then the size too.

use media_gen_api::validate::MAX_IMAGE_BYTES;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, File, ImageBitmap, ImageEncodeOptions, OffscreenCanvas};

/// The qualities tried, best first, at each size.
const QUALITIES: [f64; 4] = [0.92, 0.85, 0.75, 0.6];
/// Each size after the first is this share of the last (in each direction).
const SCALE_STEP: f64 = 0.8;
/// Sizes tried before giving up.
const SIZES: u32 = 6;

/// `bitmap` at `width`×`height` as JPEG of `quality`.
async fn encoded(bitmap: &ImageBitmap, width: u32, height: u32, quality: f64) -> Option<Blob> {
    let canvas = OffscreenCanvas::new(width, height).ok()?;
    let context = canvas
        .get_context("2d")
        .ok()??
        .dyn_into::<web_sys::OffscreenCanvasRenderingContext2d>()
        .ok()?;
    // JPEG has no transparency: what was see-through comes out white.
    context.set_fill_style_str("#fff");
    context.fill_rect(0.0, 0.0, f64::from(width), f64::from(height));
    context
        .draw_image_with_image_bitmap_and_dw_and_dh(
            bitmap,
            0.0,
            0.0,
            f64::from(width),
            f64::from(height),
        )
        .ok()?;
    let options = ImageEncodeOptions::new();
    options.set_type("image/jpeg");
    options.set_quality(quality);
    let promise = canvas.convert_to_blob_with_options(&options).ok()?;
    JsFuture::from(promise).await.ok()?.dyn_into::<Blob>().ok()
}

/// `file` made to fit within the service's 20 MB, as `{name}-fitted.jpg`;
/// or why not, in words.
pub async fn shrink(file: &File) -> Result<File, String> {
    let window = web_sys::window().ok_or("no window")?;
    let decoding = window
        .create_image_bitmap_with_blob(file)
        .map_err(|_| "the browser cannot read it as a picture")?;
    let bitmap = JsFuture::from(decoding)
        .await
        .ok()
        .and_then(|bitmap| bitmap.dyn_into::<ImageBitmap>().ok())
        .ok_or("the browser cannot read it as a picture")?;
    let (mut width, mut height) = (bitmap.width(), bitmap.height());
    for _ in 0..SIZES {
        for quality in QUALITIES {
            let Some(blob) = encoded(&bitmap, width, height, quality).await else {
                bitmap.close();
                return Err("the browser could not make a smaller copy".to_owned());
            };
            if blob.size() as u64 <= MAX_IMAGE_BYTES {
                bitmap.close();
                let stem = file.name();
                let stem = stem
                    .rsplit_once('.')
                    .map_or(stem.as_str(), |(stem, _)| stem);
                let properties = web_sys::FilePropertyBag::new();
                properties.set_type("image/jpeg");
                let parts = js_sys::Array::of1(&blob);
                return File::new_with_blob_sequence_and_options(
                    &parts,
                    &format!("{stem}-fitted.jpg"),
                    &properties,
                )
                .map_err(|_| "the browser could not make a smaller copy".to_owned());
            }
        }
        width = ((f64::from(width) * SCALE_STEP) as u32).max(1);
        height = ((f64::from(height) * SCALE_STEP) as u32).max(1);
    }
    bitmap.close();
    Err("no copy small enough could be made".to_owned())
}
