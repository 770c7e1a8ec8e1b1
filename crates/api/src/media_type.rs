//! What a file is, read from its first bytes: never from its name or the
//! `Content-Type` it came with. The service takes images as JPG, JPEG, PNG,
//! BMP, WebP and GIF of at most 20 MB ([`MAX_IMAGE_BYTES`]) and videos by
//! URL; a video here is MP4 or MOV (ISO base media) or WebM. Anything else
//! (HTML, SVG, a script renamed `.png`, a HEIC photo) is none of them. One
//! rule for the gateway's uploads, the sandbox's fetches and the app's
//! check before sending.

use crate::validate::MAX_IMAGE_BYTES;

/// The bytes [`MediaType::sniff`] needs to decide (fewer for a shorter file).
pub const SNIFF_BYTES: usize = 64;

/// A file the service takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MediaType {
    /// JPEG (`FF D8 FF`).
    Jpeg,
    /// PNG.
    Png,
    /// Windows bitmap (`BM` and a known header size).
    Bmp,
    /// WebP (`RIFF` … `WEBP`).
    Webp,
    /// GIF87a or GIF89a.
    Gif,
    /// MP4: ISO base media (`ftyp`) of any brand but QuickTime's and the
    /// still-image ones.
    Mp4,
    /// QuickTime: `ftyp` of brand `qt  `, or an older file opening with a
    /// `moov`, `mdat`, `wide` or `free` atom.
    Mov,
    /// WebM: EBML with the `webm` document type.
    Webm,
}

/// ISO base media brands of still images (HEIC, AVIF): not videos, and not
/// images the service takes.
const STILL_BRANDS: [&[u8; 4]; 9] = [
    b"heic", b"heix", b"hevc", b"heim", b"heis", b"mif1", b"msf1", b"avif", b"avis",
];

impl MediaType {
    /// What `head` (a file's first [`SNIFF_BYTES`], or all of a shorter
    /// one) is, if it is a file the service takes.
    pub fn sniff(head: &[u8]) -> Option<MediaType> {
        // The first bytes only, however many are given: one answer for a
        // file whoever reads it and however much of it they have.
        let head = head.get(..SNIFF_BYTES).unwrap_or(head);
        let at =
            |offset: usize, magic: &[u8]| head.get(offset..offset + magic.len()) == Some(magic);
        if at(0, &[0xFF, 0xD8, 0xFF]) {
            return Some(MediaType::Jpeg);
        }
        if at(0, b"\x89PNG\r\n\x1a\n") {
            return Some(MediaType::Png);
        }
        if at(0, b"GIF87a") || at(0, b"GIF89a") {
            return Some(MediaType::Gif);
        }
        if at(0, b"RIFF") && at(8, b"WEBP") {
            return Some(MediaType::Webp);
        }
        if at(0, b"BM") && bmp_header(head) {
            return Some(MediaType::Bmp);
        }
        if at(4, b"ftyp") {
            let brand: &[u8; 4] = head.get(8..12)?.try_into().ok()?;
            return match brand {
                b"qt  " => Some(MediaType::Mov),
                still if STILL_BRANDS.contains(&still) => None,
                _ => Some(MediaType::Mp4),
            };
        }
        if ["moov", "mdat", "wide", "free"]
            .iter()
            .any(|atom| at(4, atom.as_bytes()))
        {
            return Some(MediaType::Mov);
        }
        if at(0, &[0x1A, 0x45, 0xDF, 0xA3]) && head.windows(4).any(|four| four == b"webm") {
            return Some(MediaType::Webm);
        }
        None
    }

    /// Whether it is an image (else a video).
    pub fn is_image(self) -> bool {
        matches!(
            self,
            MediaType::Jpeg | MediaType::Png | MediaType::Bmp | MediaType::Webp | MediaType::Gif
        )
    }

    /// Its MIME type, as a served file says it.
    pub fn mime(self) -> &'static str {
        match self {
            MediaType::Jpeg => "image/jpeg",
            MediaType::Png => "image/png",
            MediaType::Bmp => "image/bmp",
            MediaType::Webp => "image/webp",
            MediaType::Gif => "image/gif",
            MediaType::Mp4 => "video/mp4",
            MediaType::Mov => "video/quicktime",
            MediaType::Webm => "video/webm",
        }
    }

    /// The file name extension services that look at one expect.
    pub fn extension(self) -> &'static str {
        match self {
            MediaType::Jpeg => "jpg",
            MediaType::Png => "png",
            MediaType::Bmp => "bmp",
            MediaType::Webp => "webp",
            MediaType::Gif => "gif",
            MediaType::Mp4 => "mp4",
            MediaType::Mov => "mov",
            MediaType::Webm => "webm",
        }
    }

    /// The largest file of this type: [`MAX_IMAGE_BYTES`] for an image,
    /// `max_video_bytes` (the deployment's) for a video.
    pub fn max_bytes(self, max_video_bytes: u64) -> u64 {
        if self.is_image() {
            MAX_IMAGE_BYTES
        } else {
            max_video_bytes
        }
    }
}

/// Whether a `BM` file goes on as a bitmap: its DIB header is one of the
/// sizes Windows and OS/2 write (so a text opening with "BM" is not one).
fn bmp_header(head: &[u8]) -> bool {
    head.get(14..18)
        .and_then(|bytes| <[u8; 4]>::try_from(bytes).ok())
        .map(u32::from_le_bytes)
        .is_some_and(|size| matches!(size, 12 | 16 | 40 | 52 | 56 | 64 | 108 | 124))
}

/// Why a file is refused, with the message that names the rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MediaRefusal {
    /// Its first bytes are none of the types taken.
    #[error(
        "file: not an image (JPEG, PNG, BMP, WebP, GIF) or a video (MP4, MOV, WebM), \
         judged by its content, not its name"
    )]
    NotMedia,
    /// Larger than its type allows.
    #[error("file: {kind} files may have at most {max} bytes; this one has {bytes}")]
    TooLarge {
        /// `image` or `video`.
        kind: &'static str,
        /// Its size.
        bytes: u64,
        /// The bound.
        max: u64,
    },
}

/// The type of a file of `length` bytes that opens with `head`, or why the
/// service would not take it.
pub fn check_media(
    head: &[u8],
    length: u64,
    max_video_bytes: u64,
) -> Result<MediaType, MediaRefusal> {
    let media = MediaType::sniff(head).ok_or(MediaRefusal::NotMedia)?;
    let max = media.max_bytes(max_video_bytes);
    if length > max {
        return Err(MediaRefusal::TooLarge {
            kind: if media.is_image() { "image" } else { "video" },
            bytes: length,
            max,
        });
    }
    Ok(media)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn padded(start: &[u8]) -> Vec<u8> {
        let mut head = start.to_vec();
        head.resize(SNIFF_BYTES, 0);
        head
    }

    #[test]
    fn each_type_is_known_by_its_first_bytes() {
        let mut bmp = b"BM".to_vec();
        bmp.resize(14, 0);
        bmp.extend(40u32.to_le_bytes());
        let cases: [(Vec<u8>, MediaType); 10] = [
            (padded(&[0xFF, 0xD8, 0xFF, 0xE0]), MediaType::Jpeg),
            (padded(b"\x89PNG\r\n\x1a\n"), MediaType::Png),
            (padded(b"GIF89a"), MediaType::Gif),
            (padded(b"GIF87a"), MediaType::Gif),
            (padded(b"RIFF\0\0\0\0WEBPVP8 "), MediaType::Webp),
            (padded(&bmp), MediaType::Bmp),
            (padded(b"\0\0\0\x20ftypisom"), MediaType::Mp4),
            (padded(b"\0\0\0\x14ftypqt  "), MediaType::Mov),
            (padded(b"\0\0\0\x08wide"), MediaType::Mov),
            (
                padded(b"\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01\x42\x82\x84webm"),
                MediaType::Webm,
            ),
        ];
        for (head, expected) in cases {
            assert_eq!(MediaType::sniff(&head), Some(expected), "{head:?}");
        }
    }

    #[test]
    fn pages_scripts_stills_and_renamed_files_are_none_of_them() {
        for head in [
            b"<!DOCTYPE html><html>".as_slice(),
            b"<svg xmlns=\"http://www.w3.org/2000/svg\">",
            b"<?xml version=\"1.0\"?><svg>",
            b"#!/bin/sh\necho png",
            b"BM is not a bitmap, it is a sentence",
            b"\0\0\0\x18ftypheic",
            b"\0\0\0\x1cftypavif",
            b"\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01\x42\x82\x88matroska",
            b"",
            b"\xFF\xD8",
        ] {
            assert_eq!(MediaType::sniff(head), None, "{head:?}");
        }
    }

    #[test]
    fn the_bounds_are_the_contracts_for_images_and_the_deployments_for_videos() {
        let png = padded(b"\x89PNG\r\n\x1a\n");
        assert_eq!(check_media(&png, MAX_IMAGE_BYTES, 0), Ok(MediaType::Png));
        let over = check_media(&png, MAX_IMAGE_BYTES + 1, u64::MAX).unwrap_err();
        assert_eq!(
            over.to_string(),
            format!(
                "file: image files may have at most {MAX_IMAGE_BYTES} bytes; this one has {}",
                MAX_IMAGE_BYTES + 1
            )
        );
        let mp4 = padded(b"\0\0\0\x20ftypmp42");
        assert_eq!(check_media(&mp4, 1 << 30, 1 << 31), Ok(MediaType::Mp4));
        assert!(matches!(
            check_media(&mp4, 1 << 31, 1 << 30),
            Err(MediaRefusal::TooLarge { kind: "video", .. })
        ));
        assert!(check_media(b"<html>", 10, u64::MAX)
            .unwrap_err()
            .to_string()
            .starts_with("file: not an image"));
    }

    #[test]
    fn types_say_their_mime_and_extension() {
        assert_eq!(MediaType::Mov.mime(), "video/quicktime");
        assert_eq!(MediaType::Jpeg.extension(), "jpg");
        assert!(MediaType::Webp.is_image() && !MediaType::Webm.is_image());
    }
}
