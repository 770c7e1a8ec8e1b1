//! Where the gateway keeps files, uploads and kept results alike: what is
//! known of each ([`record`], by [`FileId`]) in a folder or in Redis
//! ([`records`]), their bytes in a folder or in S3-compatible storage
//! ([`bytes`]), both together ([`store`]), and their bytes kept as counts
//! that move with every record ([`counts`]). It knows nothing of tus, of
//! tasks beyond the names a record's holds keep, or of who may call: the
//! uploads and the kept results are its clients.

pub mod bytes;
pub mod counts;
pub mod file_id;
pub mod record;
pub mod records;
pub mod store;

pub(crate) use media_gen_gateway_base::{observe, private_files, redis_link};

pub use file_id::FileId;
pub use store::Store;
