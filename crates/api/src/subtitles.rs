//! ASS (Advanced SubStation Alpha) subtitles, as the service returns them for
//! translated videos, converted to WebVTT, the only subtitle format a browser
//! `<track>` element plays.
//!
//! Only what WebVTT can show survives: the times and the text of each
//! `Dialogue` line. Styles, positions and karaoke tags are dropped. The files
//! come from elsewhere, so nothing in them can panic the conversion or put
//! markup or a cue boundary into the output.

/// A WebVTT file converted from ASS, with how many lines became cues.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vtt {
    /// The whole WebVTT file: `WEBVTT`, a blank line, then the cues separated
    /// by blank lines, each `HH:MM:SS.mmm --> HH:MM:SS.mmm`, a line end and its
    /// text, ending with a line end.
    pub text: String,
    /// Cues written.
    pub cues: usize,
    /// `Dialogue` lines of the `[Events]` section that gave no cue: a missing
    /// field, a time that does not parse, an end not after the start, or no
    /// text left once override tags are removed.
    pub skipped: usize,
}

/// Field order of `[Events]` lines when the file has no `Format` line there:
/// the standard v4+ one.
const STANDARD_FORMAT: &str =
    "Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text";

/// `ass` converted to WebVTT: one cue per usable `Dialogue` line of its
/// `[Events]` section, in file order.
///
/// Times are `H:MM:SS.cc`; one to three fraction digits and any number of hour
/// digits are accepted too. In the text, `\N` and `\n` become line breaks,
/// `\h` a no-break space, override blocks such as `{\i1}` are removed (an
/// unclosed `{` is kept as text), `&`, `<` and `>` are escaped, line ends are
/// trimmed and empty lines dropped, since a blank line would end the cue.
pub fn ass_to_vtt(ass: &str) -> Vtt {
    let mut vtt = Vtt {
        text: "WEBVTT\n\n".to_owned(),
        cues: 0,
        skipped: 0,
    };
    let mut in_events = false;
    let mut format = Format::parse(STANDARD_FORMAT);
    // A CR alone ends a line too: old files use it, and WebVTT would read a
    // stray one in the text as a line end.
    for line in ass.split(['\n', '\r']) {
        // A byte order mark starts the file, or a line of files pasted together.
        let line = line.trim_start_matches('\u{feff}').trim();
        if line.is_empty() || line.starts_with(';') {
            continue;
        }
        if let Some(name) = line
            .strip_prefix('[')
            .and_then(|rest| rest.strip_suffix(']'))
        {
            in_events = name.trim().eq_ignore_ascii_case("events");
            format = Format::parse(STANDARD_FORMAT);
            continue;
        }
        if !in_events {
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let key = key.trim();
        if key.eq_ignore_ascii_case("format") {
            format = Format::parse(value);
        } else if key.eq_ignore_ascii_case("dialogue") {
            match cue(&format, value.trim_start()) {
                Some(cue) => {
                    if vtt.cues > 0 {
                        vtt.text.push('\n');
                    }
                    vtt.text.push_str(&cue);
                    vtt.cues += 1;
                }
                None => vtt.skipped += 1,
            }
        }
    }
    vtt
}

/// The field order of `[Events]` lines.
struct Format {
    /// How many fields a line has; the last one takes the rest of the line.
    fields: usize,
    /// Positions of `Start`, `End` and `Text`; `None` when one is missing,
    /// which leaves no line usable.
    columns: Option<Columns>,
}

/// Positions of the fields a cue needs.
struct Columns {
    start: usize,
    end: usize,
    text: usize,
}

impl Format {
    /// The names after `Format:`, trimmed and matched case-insensitively.
    fn parse(names: &str) -> Format {
        let names: Vec<&str> = names.split(',').map(str::trim).collect();
        let find = |wanted: &str| {
            names
                .iter()
                .position(|name| name.eq_ignore_ascii_case(wanted))
        };
        let columns = match (find("start"), find("end"), find("text")) {
            (Some(start), Some(end), Some(text)) => Some(Columns { start, end, text }),
            _ => None,
        };
        Format {
            fields: names.len(),
            columns,
        }
    }
}

/// The cue for the fields of one `Dialogue` line, without the separating
/// blank line; `None` when the line gives none.
fn cue(format: &Format, fields: &str) -> Option<String> {
    let columns = format.columns.as_ref()?;
    // The text is the last field and may hold commas itself.
    let fields: Vec<&str> = fields.splitn(format.fields, ',').collect();
    if fields.len() < format.fields {
        return None;
    }
    let start = milliseconds(fields.get(columns.start)?)?;
    let end = milliseconds(fields.get(columns.end)?)?;
    if end <= start {
        return None;
    }
    let payload = payload(fields.get(columns.text)?)?;
    Some(format!(
        "{} --> {}\n{payload}\n",
        timestamp(start),
        timestamp(end)
    ))
}

/// `H:MM:SS.cc` (one to three fraction digits, any number of hour digits) in
/// milliseconds; `None` for anything else, or a time too large to count.
fn milliseconds(time: &str) -> Option<u64> {
    let (clock, fraction) = time.trim().split_once('.')?;
    let mut parts = clock.split(':');
    let (hours, minutes, seconds) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let hours = number(hours, usize::MAX)?;
    let minutes = number(minutes, 2).filter(|minutes| *minutes < 60)?;
    let seconds = number(seconds, 2).filter(|seconds| *seconds < 60)?;
    let scale = match fraction.len() {
        1 => 100,
        2 => 10,
        _ => 1,
    };
    let fraction = number(fraction, 3)? * scale;
    hours
        .checked_mul(3_600_000)?
        .checked_add(minutes * 60_000 + seconds * 1000 + fraction)
}

/// One to `max_digits` ASCII digits as a number; no sign, no spaces.
fn number(digits: &str, max_digits: usize) -> Option<u64> {
    let plain = !digits.is_empty()
        && digits.len() <= max_digits
        && digits.bytes().all(|byte| byte.is_ascii_digit());
    plain.then(|| digits.parse().ok()).flatten()
}

/// `HH:MM:SS.mmm`; hours past 99 just get more digits, as WebVTT allows.
fn timestamp(milliseconds: u64) -> String {
    format!(
        "{:02}:{:02}:{:02}.{:03}",
        milliseconds / 3_600_000,
        milliseconds / 60_000 % 60,
        milliseconds / 1000 % 60,
        milliseconds % 1000
    )
}

/// The WebVTT cue text for an ASS text field; `None` when nothing visible is
/// left.
fn payload(text: &str) -> Option<String> {
    let mut payload = String::with_capacity(text.len());
    for line in plain_text(text).split('\n') {
        let line = line.trim_end();
        // A blank line would end the cue and turn the rest into garbage.
        if line.is_empty() {
            continue;
        }
        if !payload.is_empty() {
            payload.push('\n');
        }
        escape_into(&mut payload, line);
    }
    (!payload.is_empty()).then_some(payload)
}

/// The text with override blocks removed and `\N`, `\n`, `\h` replaced.
fn plain_text(text: &str) -> String {
    let mut plain = String::with_capacity(text.len());
    let mut rest = text;
    // Once no `}` is left, no later `{` can close: looking again each time
    // would take quadratic time on a line of unclosed braces.
    let mut closable = true;
    loop {
        if let Some(block) = rest.strip_prefix('{').filter(|_| closable) {
            match block.split_once('}') {
                Some((_, after)) => {
                    rest = after;
                    continue;
                }
                None => closable = false,
            }
        }
        if let Some(after) = rest
            .strip_prefix("\\N")
            .or_else(|| rest.strip_prefix("\\n"))
        {
            plain.push('\n');
            rest = after;
            continue;
        }
        if let Some(after) = rest.strip_prefix("\\h") {
            plain.push('\u{a0}');
            rest = after;
            continue;
        }
        let mut chars = rest.chars();
        let Some(char) = chars.next() else {
            break;
        };
        plain.push(char);
        rest = chars.as_str();
    }
    plain
}

/// `text` with `&`, `<` and `>` escaped, so no tag and no `-->` from the file
/// reaches the cue.
fn escape_into(out: &mut String, text: &str) {
    for char in text.chars() {
        match char {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(char),
        }
    }
}

/// `vtt` (a WebVTT file as [`ass_to_vtt`] writes it) as SubRip: each cue
/// numbered from 1, its times with a comma before the milliseconds, its
/// text with WebVTT's escapes read back (SubRip has none).
pub fn vtt_to_srt(vtt: &str) -> String {
    let mut srt = String::new();
    let cues = vtt
        .split("\n\n")
        .map(str::trim)
        .filter(|block| block.contains("-->"));
    for (number, cue) in cues.enumerate() {
        let mut lines = cue.lines();
        let Some(times) = lines.next() else {
            continue;
        };
        srt.push_str(&format!("{}\n{}\n", number + 1, times.replace('.', ",")));
        for line in lines {
            let text = line
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&");
            srt.push_str(&text);
            srt.push('\n');
        }
        srt.push('\n');
    }
    srt
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(cues, skipped)` of a conversion.
    fn counts(ass: &str) -> (usize, usize) {
        let vtt = ass_to_vtt(ass);
        (vtt.cues, vtt.skipped)
    }

    /// The payload of the only cue of `ass`.
    fn only_payload(ass: &str) -> String {
        let vtt = ass_to_vtt(ass);
        assert_eq!((vtt.cues, vtt.skipped), (1, 0), "{}", vtt.text);
        let cue = vtt.text.strip_prefix("WEBVTT\n\n").expect("the header");
        let (_, payload) = cue.split_once('\n').expect("a timing line");
        payload
            .strip_suffix('\n')
            .expect("a final line end")
            .to_owned()
    }

    /// An `[Events]` section in the standard order with one line of `text`.
    fn one_line(text: &str) -> String {
        format!("[Events]\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{text}\n")
    }

    const WELL_FORMED: &str = "\
[Script Info]
; Script generated by the service
Title: Translated
ScriptType: v4.00+
PlayResX: 1920
PlayResY: 1080

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Default,Arial,60,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,2,10,10,40,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:00.50,0:00:02.75,Default,,0,0,0,,Hello, world.
Dialogue: 0,0:00:03.00,0:00:05.20,Default,,0,0,0,,{\\i1}Two{\\i0} lines\\Nof text
Dialogue: 0,0:01:05.07,1:02:03.99,Default,Speaker,0,0,0,,The end
";

    #[test]
    fn a_well_formed_file_converts_exactly() {
        let vtt = ass_to_vtt(WELL_FORMED);
        assert_eq!(
            vtt.text,
            "WEBVTT\n\n\
             00:00:00.500 --> 00:00:02.750\nHello, world.\n\n\
             00:00:03.000 --> 00:00:05.200\nTwo lines\nof text\n\n\
             00:01:05.070 --> 01:02:03.990\nThe end\n"
        );
        assert_eq!((vtt.cues, vtt.skipped), (3, 0));
    }

    #[test]
    fn crlf_bom_and_lower_case_sections_read_the_same() {
        let odd = format!("\u{feff}{}", WELL_FORMED.replace('\n', "\r\n"))
            .replace("[Events]", "[events]")
            .replace("Format: Layer", "format: layer");
        assert_eq!(ass_to_vtt(&odd), ass_to_vtt(WELL_FORMED));
    }

    #[test]
    fn the_format_line_gives_the_field_order() {
        let short =
            "[Events]\nFormat: Start, End, Text\nDialogue: 0:00:01.00,0:00:02.00,Hi, there\n";
        assert_eq!(only_payload(short), "Hi, there");
        let shuffled = "[Events]\nFormat:Layer ,  STYLE,start,End,  text \n\
                        Dialogue: 0,Default,0:00:01.00,0:00:02.00,Hi\n";
        let vtt = ass_to_vtt(shuffled);
        assert_eq!(vtt.text, "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHi\n");
        // Text need not be last: the last field still takes the rest.
        let text_first = "[Events]\nFormat: Text, Start, End\nDialogue: Hi,0:00:01.00,0:00:02.00\n";
        assert_eq!(only_payload(text_first), "Hi");
    }

    #[test]
    fn a_format_without_start_end_or_text_skips_every_line() {
        for format in ["Layer, End, Text", "Start, End", "Start, Text, Style", ""] {
            let ass = format!(
                "[Events]\nFormat: {format}\nDialogue: 0:00:01.00,0:00:02.00,Hi\nDialogue: x\n"
            );
            assert_eq!(counts(&ass), (0, 2), "{format}");
        }
    }

    #[test]
    fn the_styles_format_line_does_not_apply_to_events() {
        // Each section starts again from the standard order, and a Format
        // line of another section changes nothing.
        let ass = "[Events]\nFormat: Start, End, Text\n[V4+ Styles]\nFormat: Name, Fontname\n\
                   [Events]\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,Hi\n";
        assert_eq!(only_payload(ass), "Hi");
    }

    #[test]
    fn commas_stay_in_the_text() {
        assert_eq!(only_payload(&one_line("a, b,,c ,")), "a, b,,c ,");
    }

    #[test]
    fn override_blocks_are_removed_and_an_unclosed_brace_is_text() {
        assert_eq!(
            only_payload(&one_line("{\\an8}{\\pos(10,20)}Top {\\b1}bold{\\b0}")),
            "Top bold"
        );
        assert_eq!(only_payload(&one_line("a {b}c {d\\Ne")), "a c {d\ne");
        assert_eq!(only_payload(&one_line("{\\i1}x{{y}z}")), "xz}");
    }

    #[test]
    fn line_breaks_and_hard_spaces() {
        assert_eq!(
            only_payload(&one_line("one\\Ntwo\\nthree\\hfour")),
            "one\ntwo\nthree\u{a0}four"
        );
        // Empty lines would end the cue early, so they go, wherever they are.
        assert_eq!(
            only_payload(&one_line("\\N\\Nfirst  \\N\\N \\N{\\i1}\\Nsecond\\N\\h")),
            "first\nsecond"
        );
        // A backslash before anything else is kept.
        assert_eq!(only_payload(&one_line("a\\b\\")), "a\\b\\");
    }

    #[test]
    fn markup_and_ampersands_are_escaped() {
        assert_eq!(
            only_payload(&one_line("<b>Tom & Jerry</b> --> <c.x>")),
            "&lt;b&gt;Tom &amp; Jerry&lt;/b&gt; --&gt; &lt;c.x&gt;"
        );
    }

    #[test]
    fn times_with_long_hours_and_other_fraction_digits() {
        let ass = "[Events]\n\
                   Dialogue: 0,12:34:56.78,12:34:57.00,,,0,0,0,,centiseconds\n\
                   Dialogue: 0,0:00:01.5,0:00:02.25,,,0,0,0,,tenths\n\
                   Dialogue: 0,0:00:01.005,0:00:01.006,,,0,0,0,,milliseconds\n\
                   Dialogue: 0,99:59:59.99,100:00:00.00,,,0,0,0,,a hundred hours\n\
                   Dialogue: 0,1234:5:6.7,1234:05:07.00,,,0,0,0,,one-digit minutes\n";
        let vtt = ass_to_vtt(ass);
        assert_eq!(
            vtt.text,
            "WEBVTT\n\n\
             12:34:56.780 --> 12:34:57.000\ncentiseconds\n\n\
             00:00:01.500 --> 00:00:02.250\ntenths\n\n\
             00:00:01.005 --> 00:00:01.006\nmilliseconds\n\n\
             99:59:59.990 --> 100:00:00.000\na hundred hours\n\n\
             1234:05:06.700 --> 1234:05:07.000\none-digit minutes\n"
        );
        assert_eq!((vtt.cues, vtt.skipped), (5, 0));
    }

    #[test]
    fn comments_and_other_lines_are_ignored_not_skipped() {
        let ass = "[Events]\n; a note\nComment: 0,0:00:01.00,0:00:02.00,,,0,0,0,,hidden\n\
                   Picture: x\nnonsense\n\n  \nDialogue: 0,0:00:01.00,0:00:02.00,,,0,0,0,,shown\n";
        assert_eq!(only_payload(ass), "shown");
    }

    #[test]
    fn lines_with_missing_fields_are_skipped() {
        let ass = "[Events]\n\
                   Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0\n\
                   Dialogue:\n\
                   Dialogue: 0,0:00:01.00\n\
                   Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,kept\n";
        assert_eq!(counts(ass), (1, 3));
    }

    #[test]
    fn bad_times_are_skipped() {
        let bad = [
            "",
            "x",
            "0:00:01",
            "0:00:01.",
            "0:00:01.1234",
            "0:60:00.00",
            "0:00:60.00",
            "0:000:01.00",
            "0:00:001.00",
            "-0:00:01.00",
            "+0:00:01.00",
            "0:00:01.0x",
            "0:0a:01.00",
            "00:01.00",
            "0:0:00:01.00",
            "99999999999999999999:00:00.00",
            "9999999999999999:00:00.00",
            "0:00:01,00",
            "٣:00:01.00",
        ];
        for time in bad {
            let ass = format!("[Events]\nDialogue: 0,{time},9:00:00.00,,,0,0,0,,text\n");
            assert_eq!(counts(&ass), (0, 1), "start {time:?}");
            let ass = format!("[Events]\nDialogue: 0,0:00:00.00,{time},,,0,0,0,,text\n");
            assert_eq!(counts(&ass), (0, 1), "end {time:?}");
        }
        // Spaces around a time are fine.
        let ass = "[Events]\nDialogue: 0, 0:00:01.00 , 0:00:02.00 ,,,0,0,0,,text\n";
        assert_eq!(counts(ass), (1, 0));
    }

    #[test]
    fn an_end_not_after_the_start_is_skipped() {
        let ass = "[Events]\n\
                   Dialogue: 0,0:00:02.00,0:00:01.00,,,0,0,0,,backwards\n\
                   Dialogue: 0,0:00:02.00,0:00:02.00,,,0,0,0,,empty\n\
                   Dialogue: 0,0:00:02.0,0:00:02.000,,,0,0,0,,also empty\n";
        assert_eq!(counts(ass), (0, 3));
    }

    #[test]
    fn no_text_left_is_skipped() {
        for text in [
            "",
            "   ",
            "{\\i1}",
            "{\\an8}{\\pos(1,2)}  ",
            "\\N\\N",
            "\\h\\N {}",
        ] {
            assert_eq!(counts(&one_line(text)), (0, 1), "{text:?}");
        }
    }

    #[test]
    fn no_events_no_cues() {
        let ass = "[Script Info]\nDialogue: 0,0:00:01.00,0:00:02.00,,,0,0,0,,not an event\n\
                   [V4+ Styles]\nDialogue: 0,0:00:01.00,0:00:02.00,,,0,0,0,,nor this\n";
        let vtt = ass_to_vtt(ass);
        assert_eq!(vtt.text, "WEBVTT\n\n");
        assert_eq!((vtt.cues, vtt.skipped), (0, 0));
        // Dialogue lines before any section header are outside [Events] too.
        assert_eq!(
            counts("Dialogue: 0,0:00:01.00,0:00:02.00,,,0,0,0,,x"),
            (0, 0)
        );
    }

    #[test]
    fn empty_input() {
        assert_eq!(
            ass_to_vtt(""),
            Vtt {
                text: "WEBVTT\n\n".to_owned(),
                cues: 0,
                skipped: 0
            }
        );
        assert_eq!(counts("\u{feff}"), (0, 0));
        assert_eq!(counts("[Events]"), (0, 0));
    }

    #[test]
    fn binary_garbage() {
        let bytes: Vec<u8> = (0..4096u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let garbage = String::from_utf8_lossy(&bytes);
        let vtt = ass_to_vtt(&garbage);
        assert_eq!(vtt.text, "WEBVTT\n\n");
        assert_eq!((vtt.cues, vtt.skipped), (0, 0));
        // Garbage inside a well-formed line is only text.
        let text = format!("x{}\0\u{fffd}", garbage.replace(['\n', '\r'], ""));
        let vtt = ass_to_vtt(&one_line(&text));
        assert_eq!(vtt.cues, 1);
        assert!(!vtt.text.contains('<') && !vtt.text.contains('\r'));
    }

    #[test]
    fn a_stray_carriage_return_ends_the_line() {
        // WebVTT would read it as a line end; ASS files may use it alone.
        let ass = "[Events]\rDialogue: 0,0:00:01.00,0:00:02.00,,,0,0,0,,one\rtwo\r";
        assert_eq!(only_payload(ass), "one");
    }

    #[test]
    fn webvtt_becomes_subrip_numbered_with_commas_and_plain_text() {
        let vtt = ass_to_vtt(
            "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n\
             Dialogue: 0,0:00:01.50,0:00:03.00,Default,,0,0,0,,Hello & <welcome>\n\
             Dialogue: 0,0:00:04.00,0:00:05.25,Default,,0,0,0,,Two\\Nlines\n",
        );
        assert_eq!(
            vtt_to_srt(&vtt.text),
            "1\n00:00:01,500 --> 00:00:03,000\nHello & <welcome>\n\n\
             2\n00:00:04,000 --> 00:00:05,250\nTwo\nlines\n\n"
        );
        assert_eq!(vtt_to_srt("WEBVTT\n"), "");
    }
}
