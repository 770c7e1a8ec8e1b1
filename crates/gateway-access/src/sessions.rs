//! Signed-in pages: `POST /session` with an access key sets a session
//! cookie, `DELETE /session` ends it. The cookie is a [`Grants`] secret,
//! `HttpOnly` (no script reads it), `SameSite=Strict` (no other site's page
//! sends it), `Path=/`, and `Secure` with the `__Host-` prefix whenever the
//! page came over https (a browser keeps `Secure` cookies from https only).
//! Over https only the `__Host-` name is read: a page of a sibling
//! subdomain can plant a plain cookie for the whole domain, never a
//! `__Host-` one. A session ends when idle for [`IDLE`], after
//! [`LIFETIME`], or as soon as the key it was made with is revoked.

use std::sync::Arc;
use std::time::Duration;

use axum::http::{header, HeaderMap, HeaderValue};

use super::grants::Grants;
use super::same_site::over_https;
use crate::redis_link::RedisLink;
use crate::redis_link::StoreError;

/// A session ends after this long without a call.
pub const IDLE: Duration = Duration::from_secs(12 * 3_600);
/// A session ends after this long whatever its use.
pub const LIFETIME: Duration = Duration::from_secs(7 * 24 * 3_600);

/// The cookie's name over https (`__Host-`: the browser keeps it only if it
/// is `Secure`, with `Path=/` and no `Domain`) and over plain http.
const SECURE_NAME: &str = "__Host-media-gen-session";
const PLAIN_NAME: &str = "media-gen-session";

/// The pages' sessions: this gateway's, or with `--redis` every gateway's.
pub struct Sessions(Grants);

/// The session cookie a call carries under the name of the scheme it came
/// over: `__Host-` over https, the plain name over http.
pub fn cookie_of(headers: &HeaderMap) -> Option<&str> {
    let wanted = if over_https(headers) {
        SECURE_NAME
    } else {
        PLAIN_NAME
    };
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|line| line.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == wanted)
        .map(|(_, value)| value)
}

impl Sessions {
    /// The sessions, kept in the Redis of `redis` if given, else here.
    pub fn new(redis: Option<Arc<RedisLink>>) -> Sessions {
        Sessions(Grants::new("session", Some(IDLE), redis))
    }

    /// A new session for `name`, made with the key of hash `from_key`: the
    /// `Set-Cookie` value that gives it to the page.
    pub async fn start(
        &self,
        name: &str,
        from_key: &str,
        headers: &HeaderMap,
    ) -> Option<HeaderValue> {
        let id = self.0.give("", name, from_key, LIFETIME).await?.reveal();
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

    /// The person of the session `cookie` names, while it is alive and its
    /// key is one `key_alive` still knows; the call counts as use. Fails
    /// only when the Redis sessions are kept in does not answer.
    pub async fn person(
        &self,
        cookie: &str,
        key_alive: impl Fn(&str) -> bool,
    ) -> Result<Option<String>, StoreError> {
        self.0.person(cookie, key_alive).await
    }

    /// End the session `cookie` names: the `Set-Cookie` values that take
    /// the cookie back from the page.
    pub async fn end(&self, cookie: Option<&str>) -> [HeaderValue; 2] {
        if let Some(cookie) = cookie {
            if let Err(error) = self.0.end(cookie).await {
                tracing::warn!(%error, "a session signed out of could not be ended; it ends when idle");
            }
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

    /// Drop the sessions ended (past their lifetime or idle too long).
    pub fn sweep(&self) {
        self.0.sweep();
    }

    /// The grants underneath, for what every kind does alike.
    pub fn grants(&self) -> &Grants {
        &self.0
    }

    /// Sessions alive now (for the metrics).
    pub async fn count(&self) -> Result<usize, StoreError> {
        self.0.count().await
    }
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

    #[tokio::test]
    async fn a_session_names_its_person_until_ended_or_its_key_is_revoked() {
        let sessions = Sessions::new(None);
        let set = sessions
            .start("ada", "hash-a", &HeaderMap::new())
            .await
            .unwrap();
        let text = set.to_str().unwrap();
        assert!(
            text.contains("HttpOnly")
                && text.contains("SameSite=Strict")
                && text.contains("Path=/")
        );
        let (name, id) = cookie_value(&set);
        assert_eq!(name, PLAIN_NAME);
        assert!(id.len() >= 43, "256 bits");
        assert_eq!(
            sessions.person(&id, |_| true).await.unwrap().as_deref(),
            Some("ada")
        );
        assert_eq!(sessions.person("forged", |_| true).await.unwrap(), None);
        // The key revoked: the session is gone with it.
        assert_eq!(
            sessions.person(&id, |hash| hash != "hash-a").await.unwrap(),
            None
        );
        assert_eq!(sessions.person(&id, |_| true).await.unwrap(), None);
        let again = cookie_value(
            &sessions
                .start("ada", "hash-a", &HeaderMap::new())
                .await
                .unwrap(),
        )
        .1;
        sessions.end(Some(&again)).await;
        assert_eq!(sessions.person(&again, |_| true).await.unwrap(), None);
    }

    #[tokio::test]
    async fn over_https_the_cookie_is_secure_and_host_only() {
        let sessions = Sessions::new(None);
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-proto", HeaderValue::from_static("https"));
        let set = sessions.start("ada", "h", &headers).await.unwrap();
        let text = set.to_str().unwrap();
        assert!(
            text.starts_with("__Host-media-gen-session=") && text.ends_with("; Secure"),
            "{text}"
        );
        let (_, id) = cookie_value(&set);
        let mut asked = HeaderMap::new();
        asked.insert("x-forwarded-proto", HeaderValue::from_static("https"));
        asked.insert(
            header::COOKIE,
            HeaderValue::from_str(&format!("a=b; __Host-media-gen-session={id}")).unwrap(),
        );
        assert_eq!(cookie_of(&asked), Some(id.as_str()));
    }

    /// `cookie_of` for a `Cookie` line, over https or not.
    fn read(line: &str, https: bool) -> Option<String> {
        let mut headers = HeaderMap::new();
        if https {
            headers.insert("x-forwarded-proto", HeaderValue::from_static("https"));
        }
        headers.insert(header::COOKIE, HeaderValue::from_str(line).unwrap());
        cookie_of(&headers).map(str::to_owned)
    }

    #[test]
    fn each_scheme_reads_only_its_own_cookie_name() {
        // Over https a plain cookie (one a sibling subdomain can plant) is
        // not read, even before the `__Host-` one.
        assert_eq!(read("media-gen-session=planted", true), None);
        assert_eq!(
            read(
                "media-gen-session=planted; __Host-media-gen-session=mine",
                true
            ),
            Some("mine".to_owned())
        );
        assert_eq!(
            read("media-gen-session=mine", false),
            Some("mine".to_owned())
        );
        assert_eq!(read("__Host-media-gen-session=mine", false), None);
    }
}
