//! Letting a call in: who it is from ([`Access::who`]), the visitor's
//! address behind trusted proxies, and one request counted against their
//! budget; a submit's tasks counted too. A route that spends the owner's
//! service takes [`Admitted`] among its arguments, so it cannot be served
//! without being let in first; the extractors before it in the list (the
//! route's own 404s and 412s) answer first.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{ConnectInfo, FromRef, FromRequestParts};
use axum::http::request::Parts;
use axum::http::HeaderMap;

use crate::budgets::Budgets;
use crate::client_address::ClientAddresses;
use crate::observe;
use crate::redis_link::StoreError;
use crate::refusal::Refusal;
use crate::shared_budgets::SharedBudgets;
use crate::{Access, Who};

/// What letting a call in needs: the access rule, who visitors are behind
/// the trusted proxies, and the per-visitor budgets (counted with the other
/// gateways in Redis, with `--redis`).
pub struct Admission {
    /// Who may use the gateway, and each person's use.
    pub access: Arc<Access>,
    /// Who visitors are behind the trusted proxies.
    pub client_addresses: ClientAddresses,
    budgets: Budgets,
    shared_budgets: Option<SharedBudgets>,
}

/// A call let in: whose budget it counted against, and the visitor's
/// address. Only [`Admission::admit`] makes one.
#[derive(Debug, Clone)]
pub struct Admitted {
    /// The person of the access rule, or the visitor's address.
    pub who: Who,
    /// The visitor's address (behind a trusted proxy, the one it names).
    pub client: IpAddr,
}

impl Admission {
    /// Letting calls in by `access`, within `budgets` (or `shared` ones,
    /// while their Redis answers).
    pub fn new(
        access: Arc<Access>,
        client_addresses: ClientAddresses,
        budgets: Budgets,
        shared: Option<SharedBudgets>,
    ) -> Admission {
        Admission {
            access,
            client_addresses,
            budgets,
            shared_budgets: shared,
        }
    }

    /// The visitor's address: `peer`, or behind a trusted proxy the one
    /// its header names ([`ClientAddresses::of`]).
    pub fn client_address(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        self.client_addresses.of(peer, headers)
    }

    /// Who a call is from, let in: the visitor's address, whose budget it
    /// counts against (the access rule's person or the address), and that
    /// one request counted. The refusal otherwise (no person, a wrong key,
    /// over budget).
    pub async fn admit(&self, headers: &HeaderMap, peer: IpAddr) -> Result<Admitted, Refusal> {
        let client = self.client_address(peer, headers);
        let who = self.access.who(headers, peer, client).await?;
        self.count_request(&who).await?;
        Ok(Admitted { who, client })
    }

    /// Count one request from `client` against its budget: the one the
    /// gateways share in Redis (`--redis`), else this gateway's own (also
    /// when Redis does not answer). Over budget: the 429 to answer, counted
    /// in the metrics.
    pub async fn count_request(&self, client: &Who) -> Result<(), Refusal> {
        let shared = match &self.shared_budgets {
            Some(shared) => Some(shared.request(client).await),
            None => None,
        };
        let verdict = shared_or_local(shared, || self.budgets.request(client));
        verdict.map_err(|wait| {
            metrics::counter!(observe::REFUSED, "budget" => "requests").increment(1);
            Refusal::TooManyRequests(wait)
        })
    }

    /// Count the `tasks` a submit of `admitted`'s would create, as
    /// [`Admission::count_request`] counts requests, and against the
    /// person's tasks of the day.
    pub async fn count_submit(&self, admitted: &Admitted, tasks: u64) -> Result<(), Refusal> {
        let who = &admitted.who;
        let shared = match &self.shared_budgets {
            Some(shared) => Some(shared.submit(who, tasks).await),
            None => None,
        };
        let verdict = shared_or_local(shared, || self.budgets.submit(who, tasks));
        verdict.map_err(|wait| {
            metrics::counter!(observe::REFUSED, "budget" => "tasks").increment(1);
            Refusal::TooManyTasks(wait)
        })?;
        self.access.take_tasks(who, tasks).await.inspect_err(|_| {
            metrics::counter!(observe::REFUSED, "budget" => "tasks_of_the_day").increment(1);
        })
    }

    /// Forget the budgets of visitors idle long enough to have them whole.
    pub fn forget_idle(&self) {
        self.budgets.forget_idle();
    }
}

impl<S> FromRequestParts<S> for Admitted
where
    Arc<Admission>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = Refusal;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Admitted, Refusal> {
        let admission = Arc::<Admission>::from_ref(state);
        // The server gives every request its peer; one without is never
        // let in as someone else.
        let Some(ConnectInfo(peer)) = parts.extensions.get::<ConnectInfo<SocketAddr>>().copied()
        else {
            tracing::error!("a request without its peer's address");
            return Err(Refusal::Unavailable);
        };
        let peer = peer.ip();
        admission.admit(&parts.headers, peer).await
    }
}

/// The shared budgets' verdict when there is one, else (none, or Redis not
/// answering) this gateway's own.
fn shared_or_local(
    shared: Option<Result<Result<(), Duration>, StoreError>>,
    local: impl FnOnce() -> Result<(), Duration>,
) -> Result<(), Duration> {
    match shared {
        Some(Ok(verdict)) => verdict,
        Some(Err(error)) => {
            tracing::warn!(%error, "shared budgets unreachable; counted here");
            local()
        }
        None => local(),
    }
}

/// A call that changes something, from where it may
/// ([`Access::may_change`]): this site's pages, a program, or an allowed
/// site's page; 403 otherwise. Taken before [`Admitted`], so a page of
/// another site spends no budget.
#[derive(Debug, Clone, Copy)]
pub struct MayChange;

impl<S> FromRequestParts<S> for MayChange
where
    Arc<Admission>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = Refusal;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<MayChange, Refusal> {
        let admission = Arc::<Admission>::from_ref(state);
        if admission.access.may_change(&parts.headers) {
            Ok(MayChange)
        } else {
            Err(Refusal::CrossSite)
        }
    }
}
