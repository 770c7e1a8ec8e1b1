//! Result images, each encoded once and kept for every later request.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use media_gen_api::{ImageQuality, ImageRatio};

/// Which image: quality, ratio, and whether it is the thumbnail.
type ImageKey = (ImageQuality, ImageRatio, bool);

/// One image: made by the first caller, awaited by the others.
type ImageCell = tokio::sync::OnceCell<Option<Arc<Vec<u8>>>>;

/// Encoded images, each made once: callers asking for the same image at
/// the same time wait for the one being made (a burst of forty requests
/// for a 4K image made it forty times, 1.35 GB at the peak).
#[derive(Default)]
pub struct ImageCache {
    cells: Mutex<HashMap<ImageKey, Arc<ImageCell>>>,
    made: std::sync::atomic::AtomicU64,
}

impl ImageCache {
    /// How many images were encoded so far.
    pub fn made(&self) -> u64 {
        self.made.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The image of `quality` and `ratio` (its thumbnail if `thumbnail`),
    /// made on the first call; `None` if it could not be made.
    pub(super) async fn get(
        &self,
        quality: ImageQuality,
        ratio: ImageRatio,
        thumbnail: bool,
    ) -> Option<Arc<Vec<u8>>> {
        let key = (quality, ratio, thumbnail);
        let cell = Arc::clone(self.cells.lock().ok()?.entry(key).or_default());
        cell.get_or_init(|| self.make(quality, ratio, thumbnail))
            .await
            .clone()
    }

    async fn make(
        &self,
        quality: ImageQuality,
        ratio: ImageRatio,
        thumbnail: bool,
    ) -> Option<Arc<Vec<u8>>> {
        self.made.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let bytes = tokio::task::spawn_blocking(move || {
            media_gen_samples::image(quality, ratio, thumbnail)
        })
        .await
        .ok()?;
        if bytes.is_empty() {
            return None;
        }
        Some(Arc::new(bytes))
    }
}
