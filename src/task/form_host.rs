//! How the app hosts a form: submit through the board, then open the board.

use std::rc::Rc;

use media_gen_api::Request;

use crate::board::Board;
use crate::settings::Settings;
use media_gen_ui::forms::FormHost;

/// A [`FormHost`] whose submit puts the new tasks on the board (stored before
/// anything else) and then shows the board.
pub fn app_form_host() -> FormHost {
    let (settings, board) = (Settings::expect(), Board::expect());
    let access = crate::shell::access::Access::expect();
    let navigate = crate::address::use_app_navigate();
    FormHost {
        submit: Rc::new(move |request: Request| {
            let navigate = navigate.clone();
            Box::pin(async move {
                let submitted = board.submit(&request).await;
                let refused = submitted
                    .as_ref()
                    .is_err_and(|error| error.status() == Some(401));
                access.after_submit(settings, refused);
                submitted.map_err(|error| error.to_string())?;
                navigate("/", Default::default());
                Ok(())
            })
        }),
        client: Rc::new(move || Rc::new(settings.client())),
        base_url: settings.base_url.into(),
        token: settings.curl_token(),
        connection_version: settings.connection_version(),
        on_change: None,
    }
}
