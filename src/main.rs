//! The single-page app: install the panic hook (console and banner), mount
//! the app on `<body>`.

fn main() {
    media_gen::shell::panic_banner::install();
    leptos::mount::mount_to_body(media_gen::App);
}
