//! The sign-in page of a gateway that asks for a person: one field, the
//! access key the site's owner gave, traded for a session the browser
//! keeps (the key itself is kept nowhere). Shown in place of any page, so
//! the address a person opened is the page they land on once in.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::access::Access;
use crate::settings::Settings;

/// The sign-in page.
#[component]
pub fn SignIn() -> impl IntoView {
    let (access, settings) = (Access::expect(), Settings::expect());
    let key = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        if busy.get_untracked() {
            return;
        }
        let typed = key.get_untracked();
        if typed.trim().is_empty() {
            problem.set(Some(
                "Access key: paste the key the site's owner gave you.".to_owned(),
            ));
            return;
        }
        busy.set(true);
        problem.set(None);
        let client = settings.client();
        spawn_local(async move {
            match client.sign_in(&typed).await {
                Ok(()) => access.refresh(settings),
                Err(error) => {
                    problem.try_set(Some(format!("Access key: {error}")));
                }
            }
            busy.try_set(false);
        });
    };
    view! {
        <header class="site-header">
            <span class="brand">"Media Generation"</span>
        </header>
        <main id="main" class="page sign-in">
            <h1>"Sign in"</h1>
            <p>"This site's owner gives each person an access key. Paste yours: this browser keeps a session, not the key."</p>
            <form on:submit=submit aria-label="Sign in">
                <label for="access-key">"Access key"</label>
                <input id="access-key" name="access-key" type="password" autocomplete="current-password"
                    placeholder="mgk_…" aria-describedby="access-key-problem"
                    aria-invalid=move || problem.with(Option::is_some).to_string()
                    prop:value=move || key.get()
                    on:input=move |event| key.set(event_target_value(&event))/>
                <p id="access-key-problem" class="problem" role="alert">{move || problem.get()}</p>
                <button type="submit" id="sign-in" disabled=move || busy.get()>"Sign in"</button>
            </form>
        </main>
    }
}
