//! Shared links: a person's results opened by anyone holding the link
//! (`{site}/s/{token}`), or only by people signed in to the site. The
//! owner makes one for a request, some of its tasks, or several requests
//! (`POST /shares`, [`NewShare`]), sees theirs (`GET /shares`, [`Share`])
//! and takes one back (`DELETE /shares/{token}`); a link taken back or
//! past its end is gone (410) with everything under it.

use serde::{Deserialize, Serialize};

use crate::library::RequestId;

/// Where the owner makes, lists and takes back their links.
pub const SHARES_PATH: &str = "/shares";

/// Where a shared page is served: `/s/{token}`, its files under it.
pub const SHARED_PATH: &str = "/s/";

/// Requests one link may share at most.
pub const SHARE_REQUESTS_MAX: usize = 100;

/// How long a link lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum ShareLife {
    /// A day.
    Day,
    /// A week.
    Week,
    /// Thirty days.
    Month,
    /// As long as the kept copies it shows.
    Kept,
}

impl ShareLife {
    /// Every life, shortest first.
    pub const ALL: [ShareLife; 4] = [
        ShareLife::Day,
        ShareLife::Week,
        ShareLife::Month,
        ShareLife::Kept,
    ];

    /// Its name on the wire (`week`).
    pub fn name(self) -> &'static str {
        match self {
            ShareLife::Day => "day",
            ShareLife::Week => "week",
            ShareLife::Month => "month",
            ShareLife::Kept => "kept",
        }
    }

    /// The life named `name` on the wire.
    pub fn from_name(name: &str) -> Option<ShareLife> {
        ShareLife::ALL.into_iter().find(|life| life.name() == name)
    }

    /// Its length in milliseconds; `None` for as long as the copies.
    pub fn millis(self) -> Option<u64> {
        const DAY: u64 = 24 * 3_600 * 1_000;
        match self {
            ShareLife::Day => Some(DAY),
            ShareLife::Week => Some(7 * DAY),
            ShareLife::Month => Some(30 * DAY),
            ShareLife::Kept => None,
        }
    }
}

/// What `POST /shares` asks for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct NewShare {
    /// The requests shared, in the order shown.
    #[cfg_attr(feature = "typescript", ts(type = "string[]"))]
    pub requests: Vec<RequestId>,
    /// Only these of their tasks (their ids), when given; every task
    /// otherwise.
    #[serde(default)]
    pub tasks: Vec<String>,
    /// How long it lives.
    pub life: ShareLife,
    /// Whether the page shows what was asked (the prompt, the settings),
    /// not only the results.
    #[serde(default)]
    pub asked: bool,
    /// Whether only people signed in to the site may open it.
    #[serde(default)]
    pub team: bool,
}

impl NewShare {
    /// The body of `POST /shares`, as serde writes it, written without a
    /// serializer of its own: a browser module that sends one carries no
    /// code for this type but this.
    pub fn to_json(&self) -> String {
        let text = |text: &str| serde_json::Value::from(text).to_string();
        let list = |items: Vec<String>| format!("[{}]", items.join(","));
        format!(
            "{{\"requests\":{},\"tasks\":{},\"life\":\"{}\",\"asked\":{},\"team\":{}}}",
            list(self.requests.iter().map(|id| text(id.as_str())).collect()),
            list(self.tasks.iter().map(|task| text(task)).collect()),
            self.life.name(),
            self.asked,
            self.team,
        )
    }

    /// The refusal naming the field and the rule, when it breaks one.
    pub fn check(&self) -> Result<(), String> {
        if self.requests.is_empty() || self.requests.len() > SHARE_REQUESTS_MAX {
            return Err(format!(
                "requests: 1 to {SHARE_REQUESTS_MAX} request ids from your library"
            ));
        }
        if self.tasks.iter().any(|task| task.trim().is_empty()) {
            return Err("tasks: task ids of the shared requests, none empty".to_owned());
        }
        Ok(())
    }
}

/// One of the owner's links, as `GET /shares` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Share {
    /// The link's token (128 random bits, 32 hex digits).
    pub token: String,
    /// Its address under the site: `/s/{token}`.
    pub path: String,
    /// When it was made (milliseconds since 1970).
    pub created: u64,
    /// When it ends (milliseconds since 1970); `null`: with the copies.
    pub ends: Option<u64>,
    /// How often its page was opened.
    pub views: u64,
    /// Whether it shows what was asked.
    pub asked: bool,
    /// Whether only people signed in may open it.
    pub team: bool,
    /// The requests it shares.
    #[cfg_attr(feature = "typescript", ts(type = "string[]"))]
    pub requests: Vec<RequestId>,
    /// How many tasks it shows.
    pub tasks: u32,
}

/// Whether `text` has a share token's shape (32 lowercase hex digits):
/// nothing else reaches the database.
pub fn is_share_token(text: &str) -> bool {
    text.len() == 32
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The languages a translation names (English names, as the service
/// does), with their BCP 47 tags: what a page's `lang`, a track's
/// `srclang` and a browser's `Accept-Language` speak.
const TAGS: &[(&str, &str)] = &[
    ("English", "en"),
    ("Chinese", "zh"),
    ("Japanese", "ja"),
    ("Korean", "ko"),
    ("Spanish", "es"),
    ("French", "fr"),
    ("German", "de"),
    ("Portuguese", "pt"),
    ("Italian", "it"),
    ("Russian", "ru"),
    ("Arabic", "ar"),
    ("Hindi", "hi"),
    ("Indonesian", "id"),
    ("Thai", "th"),
    ("Vietnamese", "vi"),
    ("Turkish", "tr"),
    ("Dutch", "nl"),
    ("Polish", "pl"),
];

/// The BCP 47 tag of a language a translation names (`French` → `fr`);
/// a name not known here is its own tag, lowercase.
pub fn language_tag(name: &str) -> String {
    TAGS.iter()
        .find(|(known, _)| known.eq_ignore_ascii_case(name))
        .map_or_else(|| name.to_ascii_lowercase(), |(_, tag)| (*tag).to_owned())
}

/// Of `offered` languages (as a translation names them: `French`), the
/// first an `Accept-Language` header `accept` prefers (by its `q`, then
/// its order; `fr-CH` matches `fr`); `None` when it prefers none of them.
pub fn preferred_language<'a>(accept: &str, offered: &[&'a str]) -> Option<&'a str> {
    let mut asked: Vec<(f32, usize, String)> = accept
        .split(',')
        .enumerate()
        .filter_map(|(order, part)| {
            let mut pieces = part.split(';');
            let tag = pieces.next()?.trim().to_ascii_lowercase();
            if tag.is_empty() || tag == "*" {
                return None;
            }
            let q = pieces
                .filter_map(|piece| piece.trim().strip_prefix("q="))
                .find_map(|q| q.parse::<f32>().ok())
                .unwrap_or(1.0);
            (q > 0.0).then_some((q, order, tag))
        })
        .collect();
    asked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    asked.iter().find_map(|(_, _, tag)| {
        let primary = tag.split('-').next().unwrap_or(tag);
        offered.iter().copied().find(|name| {
            let offered = language_tag(name);
            offered == *tag || offered.split('-').next() == Some(primary)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lifes_name_is_its_name_on_the_wire() {
        for life in ShareLife::ALL {
            assert_eq!(serde_json::to_value(life).unwrap(), life.name());
            assert_eq!(ShareLife::from_name(life.name()), Some(life));
        }
        assert_eq!(ShareLife::from_name("year"), None);
    }

    proptest::proptest! {
        #[test]
        fn a_new_shares_body_is_what_serde_writes(
            ids in proptest::collection::vec("[A-Za-z0-9_-]{1,12}", 1..4),
            tasks in proptest::collection::vec(".{0,12}", 0..4),
            life in 0..4usize,
            asked: bool,
            team: bool,
        ) {
            let new = NewShare {
                requests: ids.iter().map(|id| RequestId::parse(id).unwrap()).collect(),
                tasks,
                life: ShareLife::ALL[life],
                asked,
                team,
            };
            let written: serde_json::Value = serde_json::from_str(&new.to_json()).unwrap();
            proptest::prop_assert_eq!(written, serde_json::to_value(&new).unwrap());
        }
    }

    #[test]
    fn a_new_share_names_its_requests_within_the_bound() {
        let id = RequestId::parse("r-1").unwrap();
        let share = |requests: Vec<RequestId>| NewShare {
            requests,
            tasks: Vec::new(),
            life: ShareLife::Week,
            asked: false,
            team: false,
        };
        assert!(share(vec![id.clone()]).check().is_ok());
        assert!(share(Vec::new())
            .check()
            .unwrap_err()
            .starts_with("requests:"));
        let many = vec![id; SHARE_REQUESTS_MAX + 1];
        assert!(share(many).check().unwrap_err().starts_with("requests:"));
        let read: NewShare = serde_json::from_str(r#"{"requests":["r-1"],"life":"kept"}"#).unwrap();
        assert_eq!(read.life, ShareLife::Kept);
        assert_eq!(ShareLife::Kept.millis(), None);
        assert_eq!(ShareLife::Day.millis(), Some(86_400_000));
    }

    #[test]
    fn only_a_tokens_shape_is_a_token() {
        assert!(is_share_token("0123456789abcdef0123456789abcdef"));
        assert!(!is_share_token("0123456789abcdef0123456789abcde"));
        assert!(!is_share_token("0123456789ABCDEF0123456789abcdef"));
        assert!(!is_share_token("../../etc/passwd0123456789abcdef"));
    }

    #[test]
    fn the_viewers_language_is_found_by_preference_and_by_its_primary_tag() {
        let offered = ["Spanish", "French", "German"];
        assert_eq!(
            preferred_language("fr-CH, fr;q=0.9, en;q=0.8", &offered),
            Some("French")
        );
        assert_eq!(
            preferred_language("en;q=1, de;q=0.5, es;q=0.7", &offered),
            Some("Spanish")
        );
        assert_eq!(preferred_language("en-US,en;q=0.9", &offered), None);
        assert_eq!(preferred_language("de;q=0, es", &offered), Some("Spanish"));
        assert_eq!(language_tag("French"), "fr");
        assert_eq!(language_tag("Klingon"), "klingon");
        assert_eq!(preferred_language("", &offered), None);
        assert_eq!(preferred_language("*", &offered), None);
    }
}
