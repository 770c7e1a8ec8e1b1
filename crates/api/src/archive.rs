//! A `.zip` of a request's results, laid out here and filled by the page:
//! the files are stored as they are (videos and images are compressed
//! already), so only each file's headers and the closing directory are
//! written here, from its name, size and CRC-32 ([`Crc32`], the `crc`
//! crate's). The page puts each header before the file's own bytes (a
//! `Blob` it never copies whole), so a request of large videos is saved
//! without holding them in memory.
//!
//! The format is ZIP's (PKWARE APPNOTE 6.3): local file headers, the
//! central directory, its end record; names in UTF-8 (flag bit 11), no
//! ZIP64, so an archive and each file stay under 4 GiB and 65,535 files.

use std::fmt;

use crc::{Crc, Digest, CRC_32_ISO_HDLC};

/// The CRC-32 ZIP uses (ISO HDLC, as zlib's).
static CRC_32: Crc<u32> = Crc::<u32>::new(&CRC_32_ISO_HDLC);

/// A file's CRC-32, fed its bytes piece by piece.
pub struct Crc32(Digest<'static, u32>);

impl Default for Crc32 {
    fn default() -> Self {
        Crc32(CRC_32.digest())
    }
}

impl Crc32 {
    /// Feed the next `bytes`.
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// The CRC-32 of everything fed.
    pub fn finish(self) -> u32 {
        self.0.finalize()
    }
}

/// Why an archive cannot hold what it was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArchiveFull {
    /// The files together reach 4 GiB, ZIP's bound without ZIP64.
    TooLarge,
    /// More than 65,535 files.
    TooMany,
}

impl fmt::Display for ArchiveFull {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArchiveFull::TooLarge => {
                f.write_str("the files together reach 4 GiB, more than a .zip holds")
            }
            ArchiveFull::TooMany => f.write_str("more than 65,535 files, more than a .zip holds"),
        }
    }
}

/// One file in the archive, as its directory entry says it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    name: String,
    size: u32,
    crc: u32,
    offset: u32,
}

/// An archive being laid out: each file's header in turn, then the end.
#[derive(Debug, Clone)]
pub struct Archive {
    entries: Vec<Entry>,
    /// Bytes written so far (headers and files).
    written: u64,
    /// The files' time, as MS-DOS writes it: (time, date).
    stamp: (u16, u16),
}

/// ZIP's "version needed to extract": 2.0.
const VERSION: u16 = 20;
/// Flag bit 11: names are UTF-8.
const UTF8_NAMES: u16 = 1 << 11;

impl Archive {
    /// An empty archive whose files are dated `unix_seconds` (UTC).
    pub fn new(unix_seconds: u64) -> Archive {
        Archive {
            entries: Vec::new(),
            written: 0,
            stamp: dos_stamp(unix_seconds),
        }
    }

    /// The local header of the next file, `name`, of `size` bytes with
    /// CRC-32 `crc`: write it, then the file's bytes.
    pub fn file_header(&mut self, name: &str, size: u64, crc: u32) -> Result<Vec<u8>, ArchiveFull> {
        if self.entries.len() >= usize::from(u16::MAX) {
            return Err(ArchiveFull::TooMany);
        }
        let offset = u32::try_from(self.written).map_err(|_| ArchiveFull::TooLarge)?;
        let size32 = u32::try_from(size).map_err(|_| ArchiveFull::TooLarge)?;
        // A name is at most 65,535 bytes (its length is 16 bits in both
        // headers): a longer one is cut where a character ends, before
        // either header is written, so both say the length they carry.
        let mut end = name.len().min(usize::from(u16::MAX));
        while !name.is_char_boundary(end) {
            end -= 1;
        }
        let name = &name[..end];
        let entry = Entry {
            name: name.to_owned(),
            size: size32,
            crc,
            offset,
        };
        let mut header = Vec::with_capacity(30 + name.len());
        put32(&mut header, 0x0403_4b50);
        self.common(&mut header, &entry);
        header.extend_from_slice(name.as_bytes());
        let after = self.written + header.len() as u64 + size;
        // The directory's offsets must fit too: checked before it is written.
        if after > u64::from(u32::MAX) {
            return Err(ArchiveFull::TooLarge);
        }
        self.written = after;
        self.entries.push(entry);
        Ok(header)
    }

    /// The central directory and its end record: the archive's last bytes.
    pub fn finish(self) -> Result<Vec<u8>, ArchiveFull> {
        let start = u32::try_from(self.written).map_err(|_| ArchiveFull::TooLarge)?;
        let mut directory = Vec::new();
        for entry in &self.entries {
            put32(&mut directory, 0x0201_4b50);
            put16(&mut directory, VERSION); // made by
            self.common(&mut directory, entry);
            put16(&mut directory, 0); // comment length
            put16(&mut directory, 0); // disk
            put16(&mut directory, 0); // internal attributes
            put32(&mut directory, 0); // external attributes
            put32(&mut directory, entry.offset);
            directory.extend_from_slice(entry.name.as_bytes());
        }
        let size = u32::try_from(directory.len()).map_err(|_| ArchiveFull::TooLarge)?;
        if u64::from(start) + u64::from(size) > u64::from(u32::MAX) {
            return Err(ArchiveFull::TooLarge);
        }
        let count = u16::try_from(self.entries.len()).map_err(|_| ArchiveFull::TooMany)?;
        put32(&mut directory, 0x0605_4b50);
        put16(&mut directory, 0); // this disk
        put16(&mut directory, 0); // the directory's disk
        put16(&mut directory, count);
        put16(&mut directory, count);
        put32(&mut directory, size);
        put32(&mut directory, start);
        put16(&mut directory, 0); // comment length
        Ok(directory)
    }

    /// What a local header and a directory entry share, from "version
    /// needed" to the extra field's length.
    fn common(&self, out: &mut Vec<u8>, entry: &Entry) {
        put16(out, VERSION);
        put16(out, UTF8_NAMES);
        put16(out, 0); // stored
        put16(out, self.stamp.0);
        put16(out, self.stamp.1);
        put32(out, entry.crc);
        put32(out, entry.size); // compressed: stored as it is
        put32(out, entry.size);
        // Cut to fit in [`Archive::file_header`].
        put16(out, entry.name.len() as u16);
        put16(out, 0); // extra field length
    }
}

fn put16(out: &mut Vec<u8>, value: u16) {
    out.extend_from_slice(&value.to_le_bytes());
}

fn put32(out: &mut Vec<u8>, value: u32) {
    out.extend_from_slice(&value.to_le_bytes());
}

/// `unix_seconds` (UTC) as MS-DOS writes a time and a date: two-second
/// steps, years from 1980 to 2107 (earlier reads as 1980).
fn dos_stamp(unix_seconds: u64) -> (u16, u16) {
    let days = unix_seconds / 86_400;
    let seconds = unix_seconds % 86_400;
    let (year, month, day) = civil_from_days(days);
    if year < 1980 {
        return (0, (1 << 5) | 1);
    }
    let year = (year - 1980).min(127) as u16;
    let time = ((seconds / 3_600) << 11) | (((seconds % 3_600) / 60) << 5) | ((seconds % 60) / 2);
    (
        time as u16,
        (year << 9) | ((month as u16) << 5) | day as u16,
    )
}

/// Days since 1970-01-01 as a (year, month, day) of the proleptic
/// Gregorian calendar (Howard Hinnant's `civil_from_days`).
pub(crate) fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crc_of(bytes: &[u8]) -> u32 {
        let mut crc = Crc32::default();
        // Fed in pieces, as a page feeds a large file.
        for piece in bytes.chunks(3) {
            crc.update(piece);
        }
        crc.finish()
    }

    #[test]
    fn the_crc_is_zips() {
        assert_eq!(crc_of(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc_of(b""), 0);
    }

    #[test]
    fn dates_read_as_ms_dos_writes_them() {
        // 2026-11-28 05:08:58 UTC.
        let (time, date) = dos_stamp(1_795_842_538);
        assert_eq!((date >> 9) + 1980, 2026);
        assert_eq!((date >> 5) & 0xF, 11);
        assert_eq!(date & 0x1F, 28);
        assert_eq!(
            (time >> 11, (time >> 5) & 0x3F, (time & 0x1F) * 2),
            (5, 8, 58)
        );
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(dos_stamp(0), (0, 33), "before 1980: 1980-01-01");
    }

    /// An archive of `files`, whole, as a page would save it.
    fn archive(files: &[(&str, &[u8])]) -> Vec<u8> {
        let mut archive = Archive::new(1_795_842_538);
        let mut out = Vec::new();
        for (name, bytes) in files {
            out.extend(
                archive
                    .file_header(name, bytes.len() as u64, crc_of(bytes))
                    .unwrap(),
            );
            out.extend_from_slice(bytes);
        }
        out.extend(archive.finish().unwrap());
        out
    }

    fn u16_at(bytes: &[u8], at: usize) -> u16 {
        u16::from_le_bytes([bytes[at], bytes[at + 1]])
    }

    fn u32_at(bytes: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
    }

    #[test]
    fn the_directory_finds_each_file_where_its_header_put_it() {
        let files: [(&str, &[u8]); 2] = [
            ("image_generate-ig-1.png", b"\x89PNG first"),
            ("request.json", b"{}"),
        ];
        let zip = archive(&files);
        // The end record: two entries, the directory right after the files.
        let end = zip.len() - 22;
        assert_eq!(u32_at(&zip, end), 0x0605_4b50);
        assert_eq!((u16_at(&zip, end + 8), u16_at(&zip, end + 10)), (2, 2));
        let (size, start) = (
            u32_at(&zip, end + 12) as usize,
            u32_at(&zip, end + 16) as usize,
        );
        assert_eq!(start + size, end);
        let mut at = start;
        for (name, bytes) in files {
            assert_eq!(u32_at(&zip, at), 0x0201_4b50);
            assert_eq!(u16_at(&zip, at + 8), UTF8_NAMES);
            assert_eq!(u16_at(&zip, at + 10), 0, "stored");
            assert_eq!(u32_at(&zip, at + 16), crc_of(bytes));
            assert_eq!(u32_at(&zip, at + 20) as usize, bytes.len());
            let name_length = u16_at(&zip, at + 28) as usize;
            assert_eq!(&zip[at + 46..at + 46 + name_length], name.as_bytes());
            // Its local header, then its bytes as they were.
            let local = u32_at(&zip, at + 42) as usize;
            assert_eq!(u32_at(&zip, local), 0x0403_4b50);
            assert_eq!(&zip[local + 30..local + 30 + name_length], name.as_bytes());
            let data = local + 30 + name_length;
            assert_eq!(&zip[data..data + bytes.len()], bytes);
            at += 46 + name_length;
        }
        assert_eq!(at, end);
    }

    #[test]
    fn a_name_over_64_kib_is_cut_at_a_character_and_the_directory_still_reads() {
        // 'é' is two bytes: 65,535 falls inside one.
        let long = "é".repeat(40_000);
        let zip = archive(&[(long.as_str(), b"one"), ("next.txt", b"two")]);
        let end = zip.len() - 22;
        let directory = u32_at(&zip, end + 16) as usize;
        let name_length = u16_at(&zip, directory + 28) as usize;
        assert_eq!(name_length, 65_534, "cut where a character ends");
        assert!(std::str::from_utf8(&zip[directory + 46..directory + 46 + name_length]).is_ok());
        // The local header carries the same name, and its bytes follow it.
        assert_eq!(u16_at(&zip, 26) as usize, name_length);
        assert_eq!(&zip[30 + name_length..30 + name_length + 3], b"one");
        // The second entry is where the directory says.
        let second = directory + 46 + name_length;
        let local = u32_at(&zip, second + 42) as usize;
        assert_eq!(u32_at(&zip, local), 0x0403_4b50);
        assert_eq!(&zip[local + 30..local + 38], b"next.txt");
    }

    #[test]
    fn an_archive_reaching_4_gib_or_65536_files_is_refused() {
        let mut archive = Archive::new(0);
        assert!(archive.file_header("a.mp4", 3 << 30, 0).is_ok());
        assert_eq!(
            archive.file_header("b.mp4", 2 << 30, 0),
            Err(ArchiveFull::TooLarge)
        );
        assert_eq!(
            archive.file_header("c.mp4", 5 << 30, 0),
            Err(ArchiveFull::TooLarge)
        );
        let mut many = Archive::new(0);
        for n in 0..u16::MAX {
            many.file_header(&format!("{n}.png"), 1, 0).unwrap();
        }
        assert_eq!(
            many.file_header("one-more.png", 1, 0),
            Err(ArchiveFull::TooMany)
        );
        assert!(many.finish().is_ok());
    }
}
