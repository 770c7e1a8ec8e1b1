//! Shared links: a person's kept results on a plain HTML page that anyone
//! holding its link opens (`/s/{token}`), or only people signed in to the
//! site (a team link). The owner makes, lists and takes back their links
//! ([`owner`], under `/shares`); the page ([`page`]) is written here with
//! no script, its files served under the link's own address ([`files`]),
//! so taking the link back takes everything with it: every gateway reads
//! the link from the library's database on each call. Only kept copies
//! are shared, found by the kept results' own ids; never the service's
//! URLs, nor a copy's own address.

pub mod files;
pub mod owner;
pub mod page;
pub mod shown;

use std::sync::Arc;

use axum::extract::FromRef;
use axum::routing::{delete, get};
use axum::Router;
use media_gen_gateway_access::admission::Admission;
use media_gen_gateway_base::offered::Offered;
use media_gen_gateway_base::refusal::Refusal;
use media_gen_gateway_kept::Kept;
use media_gen_gateway_library::Library;

/// What sharing needs: the library (where links are kept) and the kept
/// results (what they show), both; and the site's address for the links'
/// previews.
pub struct Sharing {
    /// Where links are kept.
    pub library: Arc<Library>,
    /// The kept copies they show.
    pub kept: Arc<Kept>,
}

/// The routes' state: sharing, where the gateway keeps a library and
/// results.
#[derive(Clone, Default)]
pub struct SharingState(pub Option<Arc<Sharing>>);

impl Offered for SharingState {
    type Part = Arc<Sharing>;
    type Off = Refusal;

    /// Sharing, where it is offered; 404 otherwise.
    fn part(self) -> Result<Arc<Sharing>, Refusal> {
        self.0.ok_or(Refusal::NotFound)
    }
}

/// The routes: the owner's `/shares`, and the shared pages under `/s/`.
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    SharingState: FromRef<S>,
    Arc<Admission>: FromRef<S>,
{
    Router::new()
        .route("/shares", get(owner::list).post(owner::create))
        .route("/shares/{token}", delete(owner::take_back))
        .route("/s/{token}", get(page::page))
        .route("/s/{token}/{file}/{name}", get(files::file))
}
