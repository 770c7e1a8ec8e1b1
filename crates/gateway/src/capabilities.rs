//! `GET /capabilities`: what this gateway offers beyond the documented
//! calls, so a page knows whether to listen or to poll, whether to sign in,
//! and whether it may upload and keep results.

use axum::extract::{ConnectInfo, State};
use axum::Json;
use media_gen_api::envelope::MSG_OK;
use media_gen_api::relay::{Capabilities, RelayInfo, SharingInfo};
use media_gen_api::Envelope;

use crate::Gateway;

/// `GET /capabilities`, in the success envelope.
/// Open to anyone, so a page learns it must sign in; with a person's key,
/// it names them and what is left of their day.
pub async fn capabilities(
    State(gateway): State<Gateway>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    headers: axum::http::HeaderMap,
) -> Json<Envelope<Capabilities>> {
    let relay = gateway.relay.as_ref().map(|_| RelayInfo::default());
    let access = match gateway.admission.access.mode() {
        crate::access::AccessMode::Open => None,
        crate::access::AccessMode::Keys | crate::access::AccessMode::Proxy => {
            let client = gateway.admission.client_address(peer.ip(), &headers);
            let who = gateway
                .admission
                .access
                .who(&headers, peer.ip(), client)
                .await
                .ok();
            Some(gateway.admission.access.info(who.as_ref()).await)
        }
    };
    Json(Envelope::success(
        MSG_OK,
        Capabilities {
            relay,
            sandbox: None,
            access,
            uploads: gateway
                .uploads
                .as_ref()
                .map(|uploads| uploads.info(gateway.kept.is_some())),
            sharing: gateway.sharing.as_ref().map(|_| SharingInfo {
                path: media_gen_api::share::SHARES_PATH.to_owned(),
                shared_path: media_gen_api::share::SHARED_PATH.to_owned(),
                team: gateway.admission.access.mode() != crate::access::AccessMode::Open,
            }),
        },
    ))
}
