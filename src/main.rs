//! The single-page app: install the panic hook (console and banner), take
//! away the loading state `index.html` shows, mount the app on `<body>`.

fn main() {
    media_gen::shell::panic_banner::install();
    media_gen::shell::boot::started();
    leptos::mount::mount_to_body(media_gen::App);
}
