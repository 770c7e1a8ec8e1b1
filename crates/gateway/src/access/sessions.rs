//! Signed-in pages: `POST /session` with an access key sets a session
//! cookie, `DELETE /session` ends it. The cookie is 256 random bits,
//! `HttpOnly` (no script reads it), `SameSite=Strict` (no other site's page
//! sends it), `Path=/`, and `Secure` with the `__Host-` prefix whenever the
//! page came over https (a browser keeps `Secure` cookies from https only).
//! A session names its person and the key it was made with: it ends when
//! idle for [`IDLE`], after [`LIFETIME`], or as soon as that key is revoked.
//! Sessions live in the gateway's memory, by the SHA-256 of their cookie.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::http::{header, HeaderMap, HeaderValue};
use base64::Engine;

use super::keys::key_hash;

/// A session ends after this long without a call.
pub const IDLE: Duration = Duration::from_secs(12 * 3_600);
/// A session ends after this long whatever its use.
pub const LIFETIME: Duration = Duration::from_secs(7 * 24 * 3_600);

/// The cookie's name over https (`__Host-`: the browser keeps it only if it
/// is `Secure`, with `Path=/` and no `Domain`) and over plain http.
const SECURE_NAME: &str = "__Host-media-gen-session";
const PLAIN_NAME: &str = "media-gen-session";

#[derive(Debug, Clone)]
struct Session {
    name: String,
    key_hash: String,
    created: Instant,
    last_seen: Instant,
}

/// The sessions of this gateway.
#[derive(Debug, Default)]
pub struct Sessions {
    by_hash: Mutex<HashMap<String, Session>>,
}

/// The session cookie a call carries, under either name.
pub fn cookie_of(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|line| line.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == SECURE_NAME || *name == PLAIN_NAME)
        .map(|(_, value)| value)
}

/// Whether the page came over https (as the proxy in front says, or the
/// request itself).
fn over_https(headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|value| value.to_str().ok())
        .is_some_and(|proto| proto.eq_ignore_ascii_case("https"))
}

impl Sessions {
    fn with<T>(&self, change: impl FnOnce(&mut HashMap<String, Session>) -> T) -> T {
        let mut sessions = self
            .by_hash
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        change(&mut sessions)
    }

    /// A new session for `name`, made with the key of hash `key_hash`: the
    /// `Set-Cookie` value that gives it to the page.
    pub fn start(
        &self,
        name: &str,
        key_hash_of_key: &str,
        headers: &HeaderMap,
    ) -> Option<HeaderValue> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).ok()?;
        let id = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
        let now = Instant::now();
        self.with(|sessions| {
            // Ended sessions go as new ones come: memory follows the live ones.
            sessions.retain(|_, session| alive(session, now));
            sessions.insert(
                key_hash(&id),
                Session {
                    name: name.to_owned(),
                    key_hash: key_hash_of_key.to_owned(),
                    created: now,
                    last_seen: now,
                },
            );
        });
        let (cookie, secure) = if over_https(headers) {
            (SECURE_NAME, "; Secure")
        } else {
            (PLAIN_NAME, "")
        };
        HeaderValue::from_str(&format!(
            "{cookie}={id}; Path=/; HttpOnly; SameSite=Strict; Max-Age={}{secure}",
            LIFETIME.as_secs()
        ))
        .ok()
    }

    /// The person of the session `cookie` names, if it is alive and its key
    /// is one `key_alive` still knows; the call counts as use.
    pub fn person(&self, cookie: &str, key_alive: impl Fn(&str) -> bool) -> Option<String> {
        let now = Instant::now();
        self.with(|sessions| {
            let hash = key_hash(cookie);
            let session = sessions.get_mut(&hash)?;
            if !alive(session, now) || !key_alive(&session.key_hash) {
                sessions.remove(&hash);
                return None;
            }
            session.last_seen = now;
            Some(session.name.clone())
        })
    }

    /// End the session `cookie` names: the `Set-Cookie` values that take
    /// the cookie back from the page.
    pub fn end(&self, cookie: Option<&str>) -> [HeaderValue; 2] {
        if let Some(cookie) = cookie {
            self.with(|sessions| sessions.remove(&key_hash(cookie)));
        }
        [
            HeaderValue::from_static(
                "__Host-media-gen-session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0; Secure",
            ),
            HeaderValue::from_static(
                "media-gen-session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0",
            ),
        ]
    }

    /// Sessions alive now (for the metrics).
    pub fn count(&self) -> usize {
        let now = Instant::now();
        self.with(|sessions| sessions.values().filter(|s| alive(s, now)).count())
    }
}

fn alive(session: &Session, now: Instant) -> bool {
    now.duration_since(session.last_seen) < IDLE && now.duration_since(session.created) < LIFETIME
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cookie_value(set_cookie: &HeaderValue) -> (String, String) {
        let text = set_cookie.to_str().unwrap();
        let (pair, _) = text.split_once(';').unwrap();
        let (name, value) = pair.split_once('=').unwrap();
        (name.to_owned(), value.to_owned())
    }

    #[test]
    fn a_session_names_its_person_until_ended_or_its_key_is_revoked() {
        let sessions = Sessions::default();
        let set = sessions.start("ada", "hash-a", &HeaderMap::new()).unwrap();
        let text = set.to_str().unwrap();
        assert!(
            text.contains("HttpOnly")
                && text.contains("SameSite=Strict")
                && text.contains("Path=/")
        );
        let (name, id) = cookie_value(&set);
        assert_eq!(name, PLAIN_NAME);
        assert!(id.len() >= 43, "256 bits");
        assert_eq!(sessions.person(&id, |_| true).as_deref(), Some("ada"));
        assert_eq!(sessions.person("forged", |_| true), None);
        // The key revoked: the session is gone with it.
        assert_eq!(sessions.person(&id, |hash| hash != "hash-a"), None);
        assert_eq!(sessions.person(&id, |_| true), None);
        let again = cookie_value(&sessions.start("ada", "hash-a", &HeaderMap::new()).unwrap()).1;
        sessions.end(Some(&again));
        assert_eq!(sessions.person(&again, |_| true), None);
    }

    #[test]
    fn over_https_the_cookie_is_secure_and_host_only() {
        let sessions = Sessions::default();
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-proto", HeaderValue::from_static("https"));
        let set = sessions.start("ada", "h", &headers).unwrap();
        let text = set.to_str().unwrap();
        assert!(
            text.starts_with("__Host-media-gen-session=") && text.ends_with("; Secure"),
            "{text}"
        );
        let (_, id) = cookie_value(&set);
        let mut asked = HeaderMap::new();
        asked.insert(
            header::COOKIE,
            HeaderValue::from_str(&format!("a=b; __Host-media-gen-session={id}")).unwrap(),
        );
        assert_eq!(cookie_of(&asked), Some(id.as_str()));
    }
}
