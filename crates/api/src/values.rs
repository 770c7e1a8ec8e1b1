//! The closed value sets of the request fields.

use crate::wire_enum::wire_enum;

wire_enum! {
    /// `model` of image_to_video.
    pub enum Model for "model" {
        /// Single-image (start-frame) and multi-image modes, audio, 4k.
        V => "V",
        /// Multi-reference-image mode.
        Kl => "KL",
        /// Single start-frame mode.
        S => "S",
    }
}

wire_enum! {
    /// `aspect_ratio` of image_to_video.
    pub enum AspectRatio for "aspect_ratio" {
        /// Landscape.
        Landscape16x9 => "16:9",
        /// Portrait.
        Portrait9x16 => "9:16",
    }
}

wire_enum! {
    /// `aspect_resolution` of image_to_video.
    pub enum Resolution for "aspect_resolution" {
        /// 720 pixels on the short side.
        P720 => "720p",
        /// 1080 pixels on the short side.
        P1080 => "1080p",
        /// 2160 pixels on the short side.
        K4 => "4k",
    }
}

wire_enum! {
    /// `module` of image_generate.
    pub enum Module for "module" {
        /// The standard model (the default).
        Std => "std",
        /// The professional model.
        Pro => "pro",
    }
}

wire_enum! {
    /// `image_quality` of image_generate.
    pub enum ImageQuality for "image_quality" {
        /// About 1024 pixels on the long side.
        K1 => "1K",
        /// About 2048 pixels on the long side (the default).
        K2 => "2K",
        /// About 4096 pixels on the long side.
        K4 => "4K",
    }
}

wire_enum! {
    /// `image_ratio` of image_generate (width:height).
    pub enum ImageRatio for "image_ratio" {
        /// Square.
        R1x1 => "1:1",
        /// Landscape 3:2.
        R3x2 => "3:2",
        /// Portrait 2:3.
        R2x3 => "2:3",
        /// Portrait 3:4.
        R3x4 => "3:4",
        /// Landscape 4:3.
        R4x3 => "4:3",
        /// Portrait 4:5.
        R4x5 => "4:5",
        /// Landscape 5:4.
        R5x4 => "5:4",
        /// Portrait 9:16 (the default).
        R9x16 => "9:16",
        /// Landscape 16:9.
        R16x9 => "16:9",
        /// Wide 21:9.
        R21x9 => "21:9",
    }
}

/// Width and height parts of an `a:b` ratio string.
fn ratio_parts(ratio: &str) -> (u32, u32) {
    let mut parts = ratio.split(':').map(|part| part.parse().unwrap_or(1));
    (parts.next().unwrap_or(1), parts.next().unwrap_or(1))
}

impl Module {
    /// What choosing it means, as the interface document says it: shown
    /// where the model is chosen.
    pub fn about(self) -> &'static str {
        match self {
            Module::Std => "std: the standard model, the service's default.",
            Module::Pro => "pro: the professional model, for more detailed images than std.",
        }
    }
}

impl AspectRatio {
    /// `(width, height)` parts: `(16, 9)`.
    pub fn parts(self) -> (u32, u32) {
        ratio_parts(self.as_str())
    }
}

impl ImageRatio {
    /// `(width, height)` parts: `(21, 9)`.
    pub fn parts(self) -> (u32, u32) {
        ratio_parts(self.as_str())
    }
}

impl Resolution {
    /// Pixels on the short side: 720, 1080 or 2160.
    pub fn short_side(self) -> u32 {
        match self {
            Resolution::P720 => 720,
            Resolution::P1080 => 1080,
            Resolution::K4 => 2160,
        }
    }

    /// `(width, height)` of a video at this resolution and aspect ratio:
    /// 9:16 at 720p is 720×1280, as in the service's example.
    pub fn frame_size(self, aspect: AspectRatio) -> (u32, u32) {
        let short = self.short_side();
        let long = short * 16 / 9;
        match aspect {
            AspectRatio::Landscape16x9 => (long, short),
            AspectRatio::Portrait9x16 => (short, long),
        }
    }
}

impl ImageQuality {
    /// Pixels on the long side: 1024, 2048 or 4096.
    pub fn long_side(self) -> u32 {
        match self {
            ImageQuality::K1 => 1024,
            ImageQuality::K2 => 2048,
            ImageQuality::K4 => 4096,
        }
    }

    /// `(width, height)` of an image of this quality and ratio, rounded to
    /// even pixels: 2K at 9:16 is 1152×2048.
    pub fn image_size(self, ratio: ImageRatio) -> (u32, u32) {
        let (w, h) = ratio.parts();
        let long = self.long_side();
        let short = |a: u32, b: u32| (long * a / b) & !1;
        if w >= h {
            (long, short(h, w))
        } else {
            (short(w, h), long)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    fn round_trips<T>(all: &[T], expected: &[&str])
    where
        T: Copy
            + PartialEq
            + std::fmt::Debug
            + std::fmt::Display
            + FromStr
            + serde::Serialize
            + serde::de::DeserializeOwned,
        <T as FromStr>::Err: std::fmt::Debug,
    {
        let spelled: Vec<String> = all.iter().map(ToString::to_string).collect();
        assert_eq!(spelled, expected);
        for &value in all {
            assert_eq!(value.to_string().parse::<T>().unwrap(), value);
            let json = serde_json::to_string(&value).unwrap();
            assert_eq!(serde_json::from_str::<T>(&json).unwrap(), value);
        }
    }

    #[test]
    fn model_values_are_v_kl_s() {
        round_trips(Model::ALL, &["V", "KL", "S"]);
    }

    #[test]
    fn aspect_ratio_values() {
        round_trips(AspectRatio::ALL, &["16:9", "9:16"]);
    }

    #[test]
    fn resolution_values() {
        round_trips(Resolution::ALL, &["720p", "1080p", "4k"]);
    }

    #[test]
    fn module_values() {
        round_trips(Module::ALL, &["std", "pro"]);
    }

    #[test]
    fn image_quality_values() {
        round_trips(ImageQuality::ALL, &["1K", "2K", "4K"]);
    }

    #[test]
    fn image_ratio_values() {
        round_trips(
            ImageRatio::ALL,
            &[
                "1:1", "3:2", "2:3", "3:4", "4:3", "4:5", "5:4", "9:16", "16:9", "21:9",
            ],
        );
    }

    #[test]
    fn values_are_case_sensitive_and_errors_name_the_field() {
        let error = "kl".parse::<Model>().unwrap_err();
        assert_eq!(error.to_string(), "model: `kl` is not one of V, KL, S");
        let error = serde_json::from_str::<Resolution>("\"4K\"").unwrap_err();
        assert!(
            error.to_string().contains("aspect_resolution: `4K`"),
            "{error}"
        );
    }

    #[test]
    fn frame_sizes_match_the_published_example() {
        assert_eq!(
            Resolution::P720.frame_size(AspectRatio::Portrait9x16),
            (720, 1280)
        );
        assert_eq!(
            Resolution::P1080.frame_size(AspectRatio::Landscape16x9),
            (1920, 1080)
        );
        assert_eq!(
            Resolution::K4.frame_size(AspectRatio::Landscape16x9),
            (3840, 2160)
        );
    }

    #[test]
    fn image_sizes_follow_quality_and_ratio() {
        assert_eq!(ImageQuality::K2.image_size(ImageRatio::R9x16), (1152, 2048));
        assert_eq!(ImageQuality::K1.image_size(ImageRatio::R1x1), (1024, 1024));
        assert_eq!(ImageQuality::K4.image_size(ImageRatio::R21x9), (4096, 1754));
        for &ratio in ImageRatio::ALL {
            let (w, h) = ImageQuality::K2.image_size(ratio);
            let (a, b) = ratio.parts();
            let error = (f64::from(w) / f64::from(h) - f64::from(a) / f64::from(b)).abs();
            assert!(error < 0.01, "{ratio}: {w}x{h}");
        }
    }
}
