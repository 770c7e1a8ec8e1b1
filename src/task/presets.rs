//! Settings saved by name (`media_gen_api::organise::Preset`): "Save these
//! settings" under a form keeps every field but the media; the form
//! offers each saved one of its kind, laid over what the form holds (its
//! media stay). Where the site keeps the person's library the library
//! holds them (`/library/presets`, on every device); elsewhere this
//! browser does, and says so.

use leptos::html;
use leptos::prelude::*;
use leptos::task::spawn_local;
use media_gen_api::organise::{check_organise_name, Preset, PRESETS_MAX};
use media_gen_api::{Request, TaskKind};
use media_gen_ui::store::settings as stored;

use crate::task::read_request;

use crate::settings::Settings;
use crate::shell::access::Access;

/// The presets of `text`, as this browser keeps them: parsed by the
/// browser and read by the reader the page reads every answer with (no
/// JSON text reader in the wasm).
fn read_list(text: &str) -> Vec<Preset> {
    media_gen_client::value_reader::read(&media_gen_client::value_reader::parse(text))
        .unwrap_or_default()
}

/// The presets this browser keeps.
fn local() -> Vec<Preset> {
    stored::local_presets()
        .map(|text| read_list(&text))
        .unwrap_or_default()
}

/// The saved presets, where they are kept, and what the last change did.
#[derive(Clone, Copy)]
struct Presets {
    list: RwSignal<Vec<Preset>>,
    said: RwSignal<Option<(bool, String)>>,
    in_library: Memo<bool>,
    settings: Settings,
}

impl Presets {
    /// Read now, and again when the library comes or goes.
    fn read() -> Presets {
        let access = Access::expect();
        let presets = Presets {
            list: RwSignal::new(Vec::new()),
            said: RwSignal::new(None),
            in_library: Memo::new(move |_| access.library_of().is_some()),
            settings: Settings::expect(),
        };
        Effect::new(move |_| {
            presets.in_library.track();
            presets.reload();
        });
        presets
    }

    fn reload(self) {
        if !self.in_library.get_untracked() {
            return self.list.set(local());
        }
        let client = self.settings.client();
        spawn_local(async move {
            match client.presets().await {
                Ok(list) => {
                    self.list.try_set(list);
                }
                Err(error) => self.fail(format!("Saved settings could not be read: {error}")),
            }
        });
    }

    fn fail(self, why: String) {
        self.said.try_set(Some((false, why)));
    }

    /// Save `preset`, replacing one of the same kind and name.
    fn save(self, preset: Preset) {
        if let Err(rule) = preset.check() {
            return self.fail(format!("The settings' {rule}"));
        }
        let done = format!("Saved as “{}”.", preset.name);
        if !self.in_library.get_untracked() {
            let mut list = local();
            list.retain(|p| !(p.kind == preset.kind && p.name == preset.name));
            if list.len() >= PRESETS_MAX {
                return self.fail(format!(
                    "This browser keeps at most {PRESETS_MAX} saved settings; remove one first"
                ));
            }
            list.push(preset);
            let kept = serde_json::to_string(&list)
                .ok()
                .is_some_and(|text| stored::set_local_presets(&text));
            if !kept {
                return self.fail(
                    "This browser's storage refused the settings (a private window, or storage turned off)"
                        .to_owned(),
                );
            }
            self.list.set(list);
            return self.said.set(Some((true, done)));
        }
        let client = self.settings.client();
        spawn_local(async move {
            match client.save_preset(&preset).await {
                Ok(()) => {
                    self.said.try_set(Some((true, done)));
                    self.reload();
                }
                Err(error) => self.fail(format!("The settings were not saved: {error}")),
            }
        });
    }
}

/// Under a form of `kind`: its saved settings, to use, and "Save these
/// settings". `draft` is what the form holds now; `apply` fills the form
/// in with a request.
#[component]
pub fn SavedSettings(
    kind: TaskKind,
    draft: RwSignal<Option<Request>>,
    apply: Callback<Request>,
) -> impl IntoView {
    let presets = Presets::read();
    let name = NodeRef::<html::Input>::new();
    let chosen = NodeRef::<html::Select>::new();
    let mine = move || {
        presets
            .list
            .get()
            .into_iter()
            .filter(|p| p.kind == kind)
            .collect::<Vec<_>>()
    };
    let on_save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let Some(input) = name.get() else { return };
        let named = match check_organise_name(&input.value()) {
            Ok(named) => named,
            Err(rule) => return presets.fail(format!("The settings' {rule}")),
        };
        let body = draft.with_untracked(|draft| draft.as_ref().map(Request::to_json));
        let Some(body) = body else {
            return presets.fail("The form has nothing to save yet".to_owned());
        };
        presets.save(Preset::from_request(kind, &named, &body));
    };
    let on_use = move |_| {
        let Some(select) = chosen.get() else { return };
        let wanted = select.value();
        let Some(preset) = presets.list.with_untracked(|list| {
            list.iter()
                .find(|p| p.kind == kind && p.name == wanted)
                .cloned()
        }) else {
            return;
        };
        let now = draft
            .with_untracked(|draft| draft.as_ref().map(Request::to_json))
            .unwrap_or_else(|| serde_json::json!({}));
        match read_request(kind, &preset.apply_to(&now)) {
            Ok(request) => {
                presets.said.set(Some((
                    true,
                    format!("Filled in with “{}”: your media stay.", preset.name),
                )));
                apply.run(request);
            }
            Err(error) => presets.fail(format!(
                "“{}” no longer fits this form: {error}",
                preset.name
            )),
        }
    };
    let where_kept = move || {
        (!presets.in_library.get()).then(|| {
            view! { <span class="hint">" Kept in this browser only."</span> }
        })
    };
    view! {
        <section class="saved-settings" aria-labelledby="saved-settings-title">
            <h2 id="saved-settings-title">"Saved settings"</h2>
            {move || {
                let mine = mine();
                (!mine.is_empty()).then(|| view! {
                    <div class="organise__new">
                        <label class="organise__field">"Use"
                            <select id="preset-choice" node_ref=chosen>
                                {mine.into_iter().map(|p| { let (value, name) = (p.name.clone(), p.name); view! { <option value=value>{name}</option> } }).collect_view()}
                            </select>
                        </label>
                        <button type="button" class="secondary" id="preset-use" on:click=on_use>"Use these settings"</button>
                    </div>
                })
            }}
            <form class="organise__new" on:submit=on_save>
                <label class="organise__field">"Name"
                    <input id="preset-name" node_ref=name type="text" autocomplete="off"
                        maxlength=media_gen_api::organise::ORGANISE_NAME_MAX_CHARS.to_string()/>
                </label>
                <button type="submit" class="secondary" id="preset-save">"Save these settings"</button>
                {where_kept}
            </form>
            {move || presets.said.get().map(|(ok, text)| view! {
                <p class=if ok { "hint" } else { "notice" } id="preset-said" role="status">{text}</p>
            })}
        </section>
    }
}
