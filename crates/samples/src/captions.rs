//! Subtitles for translated videos, in ASS (Advanced SubStation Alpha).

/// Text safe inside an ASS dialogue line: no line breaks or override braces.
fn plain(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' | '\r' => ' ',
            '{' => '(',
            '}' => ')',
            other => other,
        })
        .collect()
}

/// An ASS file with a few timed dialogue lines in `language`, for the video `name`.
/// It uses the format's features a player must handle: an italic override
/// tag and a hard line break (`\N`).
pub fn ass(language: &str, name: &str) -> String {
    let (language, name) = (plain(language), plain(name));
    format!(
        "[Script Info]\r
Title: {name}\r
ScriptType: v4.00+\r
PlayResX: 1280\r
PlayResY: 720\r
\r
[V4+ Styles]\r
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\r
Style: Default,Arial,48,&H00FFFFFF,&H000000FF,&H00000000,&H64000000,0,0,0,0,100,100,0,0,1,2,0,2,20,20,30,1\r
\r
[Events]\r
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\r
Dialogue: 0,0:00:00.00,0:00:00.90,Default,,0,0,0,,{{\\i1}}[{language}]{{\\i0}} Hello, and welcome.\r
Dialogue: 0,0:00:00.90,0:00:01.50,Default,,0,0,0,,This is {name},\\Ntranslated by the sandbox.\r
Dialogue: 0,0:00:01.50,0:00:02.00,Default,,0,0,0,,Thank you for watching.\r
"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn has_events_in_the_format_order() {
        let file = ass("English", "English-my {clip}");
        assert!(file.contains("[Events]"));
        assert_eq!(file.matches("\nDialogue: ").count(), 3);
        assert!(file.contains("{\\i1}[English]{\\i0} Hello"));
        assert!(file.contains("This is English-my (clip),\\Ntranslated"));
    }
}
