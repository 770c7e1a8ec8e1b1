//! Files dropped with a batch: a CSV names them by file name where an
//! address goes (`image_url`: `fox.png`); dropped beside it, each is
//! uploaded to the site once and its address put in every row that names
//! it ([`Batch::set_file`]), which is then checked again; a batch read
//! anew (its text edited) gets the addresses of those already uploaded. A
//! name no file was dropped for stays a problem in its cell, as the
//! contract says.

use std::rc::Rc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use media_gen_api::batch::Batch;
use media_gen_api::validate::Context;
use media_gen_client::upload::UploadWatch;

use crate::settings::Settings;
use crate::shell::access::Access;

/// The files dropped with the batch, and what their uploads did.
#[derive(Clone, Copy)]
pub struct Dropped {
    /// Every file dropped that is not the CSV, by name.
    files: StoredValue<Vec<web_sys::File>, LocalStorage>,
    /// The names uploaded (or on their way), so each goes once.
    started: StoredValue<Vec<String>>,
    /// Each file uploaded, by name, with its address: put again into the
    /// rows of a batch read anew (the text edited, the kind changed).
    uploaded: StoredValue<Vec<(String, String)>>,
    /// What the uploads did, in words.
    pub said: RwSignal<Option<String>>,
    access: Access,
    settings: Settings,
}

impl Dropped {
    /// None yet; taken from the page's context now, as uploads start
    /// later, outside it (after a file is read).
    pub fn new() -> Dropped {
        Dropped {
            files: StoredValue::new_local(Vec::new()),
            started: StoredValue::new(Vec::new()),
            uploaded: StoredValue::new(Vec::new()),
            said: RwSignal::new(None),
            access: Access::expect(),
            settings: Settings::expect(),
        }
    }

    /// Keep `files` (the CSV left out by the caller).
    pub fn keep(self, files: Vec<web_sys::File>) {
        self.files.update_value(|kept| {
            for file in files {
                kept.retain(|known| known.name() != file.name());
                kept.push(file);
            }
        });
    }

    /// Upload each file `batch` names that was dropped and not sent yet;
    /// each one's address goes into the rows of `batch` as it arrives.
    pub fn upload_named(self, batch: RwSignal<Option<Result<Batch, String>>>) {
        // What arrived already goes into the rows that name it now.
        self.uploaded.with_value(|uploaded| {
            if uploaded.is_empty() {
                return;
            }
            batch.update(|batch| {
                if let Some(Ok(batch)) = batch {
                    for (name, url) in uploaded {
                        batch.set_file(name, url, &Context::default());
                    }
                }
            });
        });
        let names = batch.with_untracked(|batch| match batch {
            Some(Ok(batch)) => batch.file_names(),
            _ => Vec::new(),
        });
        let to_send: Vec<web_sys::File> = self.files.with_value(|files| {
            files
                .iter()
                .filter(|file| names.contains(&file.name()))
                .filter(|file| {
                    !self
                        .started
                        .with_value(|started| started.contains(&file.name()))
                })
                .cloned()
                .collect()
        });
        if to_send.is_empty() {
            return;
        }
        let Some(path) = self.access.uploads_path() else {
            self.said.set(Some(
                "This site takes no uploads: give each file's https:// address in the CSV instead."
                    .to_owned(),
            ));
            return;
        };
        let client = self.settings.client();
        self.started.update_value(|started| {
            started.extend(to_send.iter().map(web_sys::File::name));
        });
        spawn_local(async move {
            let total = to_send.len();
            for (done, file) in to_send.into_iter().enumerate() {
                let name = file.name();
                self.said
                    .try_set(Some(format!("Uploading {name} ({} of {total})…", done + 1)));
                let watch = UploadWatch {
                    created: Rc::new(|_| {}),
                    progress: Rc::new(|_| {}),
                    waiting: Rc::new(|_| {}),
                };
                match client.upload(&path, &file, &name, None, &watch, None).await {
                    Ok(uploaded) => {
                        self.uploaded.try_update_value(|known| {
                            known.push((name.clone(), uploaded.url.clone()));
                        });
                        batch.try_update(|batch| {
                            if let Some(Ok(batch)) = batch {
                                batch.set_file(&name, &uploaded.url, &Context::default());
                            }
                        });
                    }
                    Err(error) => {
                        self.started
                            .try_update_value(|started| started.retain(|n| *n != name));
                        self.said
                            .try_set(Some(format!("{name} was not uploaded: {error}")));
                        return;
                    }
                }
            }
            self.said.try_set(Some(format!(
                "{} uploaded and put in the rows that name {}.",
                media_gen_ui::text::count(total, "file", "files"),
                if total == 1 { "it" } else { "them" }
            )));
        });
    }
}
