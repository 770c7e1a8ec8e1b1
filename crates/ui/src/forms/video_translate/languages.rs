//! The target languages: a searchable multi-select over the service's list.

use leptos::ev::KeyboardEvent;
use leptos::prelude::*;
use leptos::task::spawn_local;
use media_gen_api::Problems;

use super::state::{Offered, VideoTranslateState};
use crate::components::FieldProblems;
use crate::forms::MakeFormClient;

/// Read the service's language list into the form. An answer that arrives
/// after the connection changed is dropped: a newer read is on its way.
pub fn load(form: VideoTranslateState, client: MakeFormClient, connection: Signal<u64>) {
    form.offered.set(Offered::Loading);
    let client = client();
    let asked_on = connection.get_untracked();
    spawn_local(async move {
        let offered = match client.target_languages().await {
            Ok(languages) => Offered::Loaded(languages),
            Err(error) => Offered::Failed(format!("The language list could not be read: {error}")),
        };
        if connection.try_get_untracked() == Some(asked_on) {
            form.offered.try_set(offered);
        }
    });
}

/// The offered languages whose names contain `search`, ignoring case.
fn matching(offered: &Offered, search: &str) -> Vec<String> {
    let Offered::Loaded(languages) = offered else {
        return Vec::new();
    };
    let search = crate::text::lower(search.trim());
    languages
        .iter()
        .filter(|language| crate::text::lower(language).contains(&search))
        .cloned()
        .collect()
}

/// The multi-select: chosen languages as removable chips, a search box, and
/// the matching languages as checkboxes. Enter in the search box picks the
/// first match.
#[component]
pub fn LanguagePicker(
    /// The form.
    form: VideoTranslateState,
    /// The form's problems.
    problems: Memo<Problems>,
    /// Reads the list again after a failure (kept local: clients are not `Send`).
    client: StoredValue<MakeFormClient, LocalStorage>,
    /// The host's connection (see `FormHost::connection_version`).
    connection: Signal<u64>,
) -> impl IntoView {
    let search = RwSignal::new(String::new());
    let shown = Memo::new(move |_| {
        form.offered
            .with(|offered| matching(offered, &search.get()))
    });
    let on_key = move |ev: KeyboardEvent| {
        if ev.key() == "Enter" && !ev.ctrl_key() && !ev.meta_key() {
            ev.prevent_default();
            if let Some(first) = shown.with(|shown| shown.first().cloned()) {
                form.toggle_language(&first);
                search.set(String::new());
            }
        }
    };
    let status = move || match form.offered.get() {
        Offered::Loading => Some(
            view! { <p class="hint" id="languages-status">"Reading the service's languages…"</p> }
                .into_any(),
        ),
        Offered::Failed(message) => Some(
            view! {
                <p class="notice" id="languages-status" role="alert">
                    {message}" "
                    <button type="button" class="secondary" id="retry-languages"
                        on:click=move |_| load(form, client.get_value(), connection)>
                        "Try again"
                    </button>
                </p>
            }
            .into_any(),
        ),
        Offered::Loaded(languages) => {
            let count = languages.len();
            let matched = shown.with(Vec::len);
            Some(view! { <p class="hint" id="languages-status">{format!("{matched} of {count} languages")}</p> }.into_any())
        }
    };
    let chosen = move || {
        form.languages
            .get()
            .into_iter()
            .map(|language| {
                let label = format!("Remove {language}");
                let remove = language.clone();
                view! {
                    <li class="chip">
                        {language}
                        <button type="button" class="chip__remove" aria-label=label
                            on:click=move |_| form.toggle_language(&remove)>"×"</button>
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        <fieldset class="field language-picker">
            <legend>"Target languages"</legend>
            <ul class="chips" id="chosen-languages" aria-label="Chosen languages">{chosen}</ul>
            <input
                id="language-search"
                type="search"
                placeholder="Search languages"
                aria-label="Search languages"
                aria-controls="language-options"
                aria-describedby="languages-status target_languages-problems"
                prop:value=move || search.get()
                on:input=move |ev| search.set(event_target_value(&ev))
                on:keydown=on_key
            />
            {status}
            <ul class="language-options" id="language-options">
                <For each=move || shown.get() key=|language| language.clone() let:language>
                    {
                        // Ids cannot hold spaces: "Chinese (Simplified)" → language-Chinese--Simplified-.
                        let id = format!("language-{}", language.replace(|c: char| !c.is_alphanumeric(), "-"));
                        let checked = {
                            let language = language.clone();
                            move || form.languages.with(|chosen| chosen.contains(&language))
                        };
                        let toggle = language.clone();
                        view! {
                            <li>
                                <label for=id.clone() class="field--inline">
                                    <input type="checkbox" id=id.clone() value=language.clone()
                                        prop:checked=checked
                                        on:change=move |_| form.toggle_language(&toggle)/>
                                    {language.clone()}
                                </label>
                            </li>
                        }
                    }
                </For>
            </ul>
            <FieldProblems problems field="target_languages"/>
        </fieldset>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_ignores_case_and_keeps_order() {
        let offered = Offered::Loaded(vec!["English".into(), "Spanish".into(), "Danish".into()]);
        assert_eq!(matching(&offered, "ISH"), ["English", "Spanish", "Danish"]);
        assert_eq!(matching(&offered, " span "), ["Spanish"]);
        assert!(matching(&Offered::Loading, "").is_empty());
    }
}
