//! The single-page app: install the panic hook, mount the app on `<body>`.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(media_gen::app::App);
}
