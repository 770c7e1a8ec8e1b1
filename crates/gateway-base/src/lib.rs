//! What every part of the gateway stands on, and nothing of any part: the
//! refusal a call gets (`refusal`), what is measured and logged and what a
//! log line may show (`observe`), who a visitor is behind trusted proxies
//! (`client_address`), the deadlines of request bodies (`body_deadline`),
//! files only the gateway reads (`private_files`), the link to the Redis
//! the gateways share (`redis_link`), random ids (`ids`), the clock
//! (`clock`), and the client that calls out: to the service (`upstream`),
//! or to public addresses only (`public_only`).

pub mod body_deadline;
pub mod client_address;
pub mod clock;
pub mod ids;
pub mod observe;
pub mod offered;
pub mod private_files;
pub mod public_only;
pub mod redis_link;
pub mod refusal;
pub mod upstream;
