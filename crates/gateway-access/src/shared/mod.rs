//! What the gateways behind one balancer share in Redis (`--redis`): the
//! access keys, what they grant (sessions, page tokens) and each person's
//! use. A key added or revoked with the `keys` commands is seen by every
//! gateway within a second; a session made on one works on all; a task
//! counted on one is counted for all. The commands here are the whole of
//! what is written: each is one Redis call or one script, so two gateways
//! never interleave half of a change.

pub mod grants;
pub mod keys;
pub mod usage;
