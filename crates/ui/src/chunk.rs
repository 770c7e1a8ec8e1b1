//! Views that come from a chunk of their own where the build is split at
//! its lazy points (the app's release build, the npm package's widgets):
//! what a chunk's function returns, how a host awaits it, and how a view
//! that did not load is drawn.
//!
//! A chunk is a `#[wasm_split]` function (leptos's `wasm_split`, as
//! `#[lazy]` uses it) declared with [`chunk!`]. Where the build is not
//! split (the browser tests, `trunk serve`) the same function is called
//! directly: a module with lazy points cannot run until it is split.

use std::future::Future;

use leptos::prelude::*;

/// A chunk did not load: the network, or a deploy that replaced it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkMissing;

impl From<leptos::wasm_split::SplitLoaderError> for ChunkMissing {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> ChunkMissing {
        ChunkMissing
    }
}

/// A view, from its chunk.
pub type Drawn = Result<AnyView, ChunkMissing>;

/// One chunk: `$draw` draws its view (loading the chunk first where the
/// calling crate's `split` feature is on); `$preload` only loads it. With
/// `-> $made`, `$draw` makes that from `$body` instead of a view.
#[macro_export]
macro_rules! chunk {
    ($(#[$doc:meta])* $draw:ident($($arg:ident: $ty:ty),*) in $module:ident, $preload:ident => $view:expr) => {
        $crate::chunk! {
            $(#[$doc])*
            $draw($($arg: $ty),*) in $module, $preload -> ::leptos::prelude::AnyView =>
                ::leptos::prelude::IntoAny::into_any($view)
        }
    };
    ($(#[$doc:meta])* $draw:ident($($arg:ident: $ty:ty),*) in $module:ident, $preload:ident -> $made:ty => $body:expr) => {
        $(#[$doc])*
        #[cfg_attr(feature = "split", ::leptos::wasm_split::wasm_split(
            $module,
            wasm_split_path = ::leptos::wasm_split,
            preload(#[doc = "Load the chunk without drawing its view."] $preload),
            fallible
        ))]
        pub fn $draw($($arg: $ty),*) -> Result<$made, $crate::chunk::ChunkMissing> {
            Ok($body)
        }

        /// Load the chunk without drawing its view: nothing to load in a
        /// build that is not split.
        #[cfg(not(feature = "split"))]
        pub async fn $preload() -> Result<(), $crate::chunk::ChunkMissing> {
            Ok(())
        }
    };
}

/// `$call` of a chunk's function: awaited where the build is split (it
/// loads the chunk first), a plain call elsewhere.
#[cfg(feature = "split")]
#[macro_export]
macro_rules! drawn {
    ($call:expr) => {
        $call.await
    };
}

/// `$call` of a chunk's function: awaited where the build is split (it
/// loads the chunk first), a plain call elsewhere.
#[cfg(not(feature = "split"))]
#[macro_export]
macro_rules! drawn {
    ($call:expr) => {
        $call
    };
}

/// What a chunk drew, once it has loaded: nothing while it loads, and
/// `missing` where it did not load. A chunk already loaded is drawn at
/// once, in the same turn.
pub fn from_chunk(
    drawn: impl Future<Output = Drawn> + 'static,
    missing: impl FnOnce() -> AnyView + 'static,
) -> impl IntoView {
    Suspend::new(send_wrapper::SendWrapper::new(async move {
        match drawn.await {
            Ok(view) => view,
            Err(ChunkMissing) => missing(),
        }
    }))
}
