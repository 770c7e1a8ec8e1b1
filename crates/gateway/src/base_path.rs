//! The path the gateway serves the app and the documented calls under
//! (`--base-path /media/`), for a site that puts it beside other things
//! (`https://example.com/media/`). Health and metrics stay at the root:
//! they are for the balancer and the monitoring, which reach the gateway
//! itself.

use std::fmt;

/// A path that starts and ends with `/` (`/`, `/media/`, `/tools/media/`),
/// each segment made of characters a URL path carries as they are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BasePath(String);

impl Default for BasePath {
    /// The site's root.
    fn default() -> Self {
        BasePath("/".to_owned())
    }
}

impl BasePath {
    /// Read `text` as a base path: a missing leading or trailing `/` is
    /// added; an empty segment, `.` or `..`, or a character other than
    /// letters, digits and `-._~` is refused, naming it.
    pub fn parse(text: &str) -> Result<BasePath, String> {
        let trimmed = text.trim().trim_matches('/');
        if trimmed.is_empty() {
            return Ok(BasePath::default());
        }
        for segment in trimmed.split('/') {
            if segment.is_empty() {
                return Err(format!("{text:?} has an empty segment (`//`)"));
            }
            if segment == "." || segment == ".." {
                return Err(format!("{text:?} has a `{segment}` segment"));
            }
            if let Some(other) = segment
                .chars()
                .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '~')))
            {
                return Err(format!(
                    "{text:?} has {other:?}: a base path is letters, digits and -._~ between slashes"
                ));
            }
        }
        Ok(BasePath(format!("/{trimmed}/")))
    }

    /// Whether this is the site's root (`/`).
    pub fn is_root(&self) -> bool {
        self.0 == "/"
    }

    /// The path with its trailing slash (`/media/`): a page's `<base href>`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The path without its trailing slash (`/media`, or empty at the
    /// root): what URLs under it are written after.
    pub fn prefix(&self) -> &str {
        self.0.trim_end_matches('/')
    }

    /// The part of `path` under this base (`/media/tasks/x` → `/tasks/x`;
    /// `/media` and `/media/` → `/`), or `None` when it is elsewhere.
    pub fn strip<'a>(&self, path: &'a str) -> Option<&'a str> {
        media_gen_api::path::under_base(self.prefix(), path)
    }

    /// Whether a URL with path `url_path` is under this base: the public
    /// URL's path must end in it, or the service's callbacks would go
    /// where the gateway does not answer.
    pub fn ends(&self, url_path: &str) -> bool {
        self.is_root() || url_path.trim_end_matches('/').ends_with(self.prefix())
    }
}

impl fmt::Display for BasePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::str::FromStr for BasePath {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        BasePath::parse(text)
    }
}

#[cfg(test)]
mod tests {
    use super::BasePath;

    #[test]
    fn slashes_are_added_where_missing() {
        for text in ["media", "/media", "media/", "/media/", " /media/ "] {
            assert_eq!(BasePath::parse(text).unwrap().as_str(), "/media/");
        }
        assert_eq!(
            BasePath::parse("/tools/media").unwrap().prefix(),
            "/tools/media"
        );
        for root in ["", "/", "//"] {
            let base = BasePath::parse(root).unwrap();
            assert!(base.is_root());
            assert_eq!(base.prefix(), "");
        }
    }

    #[test]
    fn what_a_path_cannot_carry_is_named() {
        let refused = |text: &str| BasePath::parse(text).unwrap_err();
        assert!(refused("/a//b/").contains("empty segment"));
        assert!(refused("/../etc").contains("`..`"));
        assert!(refused("/media?x").contains("'?'"));
        assert!(refused("/me dia").contains("' '"));
        assert!(refused("/médias").contains("'é'"));
    }

    #[test]
    fn a_public_url_must_end_in_the_base() {
        let media = BasePath::parse("/media/").unwrap();
        assert!(media.ends("/media"));
        assert!(media.ends("/site/media/"));
        assert!(!media.ends(""));
        assert!(!media.ends("/other"));
        assert!(BasePath::default().ends("/anything"));
    }
}
