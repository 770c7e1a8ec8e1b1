//! `client.watch(kind, taskId, onUpdate)`: follow a task with the polling
//! engine the app uses (its schedule learns how long tasks take, reads are
//! capped in flight, a hidden page keeps reading), and hear of each change
//! until the task ends.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use js_sys::Function;
use media_gen_api::TaskKind;
use media_gen_client::{now_ms, Poller, PollerOptions, TaskUpdate};
use serde_json::json;
use wasm_bindgen::prelude::*;

use super::bridge::{client_error_detail, task_json, to_js};
use super::js_client::JsClient;
use super::read::{check_task_id, parse_kind};

/// The listeners of each task followed, by task.
type Listeners = HashMap<(TaskKind, String), Vec<(u32, Function)>>;

/// What a client's watches share: one poller (made on the first watch) and
/// the listeners it tells.
#[derive(Default, Clone)]
pub struct Watches {
    poller: Rc<RefCell<Option<Poller>>>,
    listeners: Rc<RefCell<Listeners>>,
    next_id: Rc<Cell<u32>>,
}

impl Watches {
    /// The poller, made on first use with `client`'s connection.
    fn poller(&self, client: &media_gen_client::Client) -> std::cell::RefMut<'_, Option<Poller>> {
        let mut poller = self.poller.borrow_mut();
        if poller.is_none() {
            let listeners = Rc::clone(&self.listeners);
            *poller = Some(Poller::new(
                client.clone(),
                PollerOptions::default(),
                move |update| tell(&listeners, update),
            ));
        }
        poller
    }
}

/// Tell the task's listeners about a read that changed something or ended
/// the watch; a read that failed and will be tried again is not news.
fn tell(listeners: &Rc<RefCell<Listeners>>, update: &TaskUpdate) {
    if !(update.changed || update.done) {
        return;
    }
    let key = (update.kind, update.task_id.clone());
    let mut detail = json!({ "kind": update.kind, "taskId": update.task_id, "done": update.done });
    if let Some(task) = &update.task {
        detail["task"] = task_json(task);
    }
    if let Some(error) = &update.error {
        detail["error"] = client_error_detail(error);
    }
    let detail = to_js(&detail);
    // Called outside the borrow: a listener may watch or stop in turn.
    let called: Vec<Function> = {
        let mut listeners = listeners.borrow_mut();
        let called = listeners
            .get(&key)
            .map(|list| list.iter().map(|(_, f)| f.clone()).collect())
            .unwrap_or_default();
        if update.done {
            listeners.remove(&key);
        }
        called
    };
    for listener in called {
        // A listener that throws stops nothing: the others still hear.
        let _ = listener.call1(&JsValue::NULL, &detail);
    }
}

/// One `watch`: `stop()` ends it (the task is read no more once nobody
/// watches it).
#[wasm_bindgen(js_name = TaskWatch)]
pub struct TaskWatch {
    watches: Watches,
    key: (TaskKind, String),
    id: u32,
}

#[wasm_bindgen(js_class = TaskWatch)]
impl TaskWatch {
    /// Stop hearing about the task. Calling it again does nothing.
    pub fn stop(&self) {
        let mut listeners = self.watches.listeners.borrow_mut();
        let Some(list) = listeners.get_mut(&self.key) else {
            return;
        };
        list.retain(|(id, _)| *id != self.id);
        if list.is_empty() {
            listeners.remove(&self.key);
            if let Some(poller) = self.watches.poller.borrow().as_ref() {
                poller.unwatch(self.key.0, &self.key.1);
            }
        }
    }
}

#[wasm_bindgen(js_class = MediaGenClient)]
impl JsClient {
    /// Follow task `taskId` of `kind` until it ends: `onUpdate` hears of
    /// each change (`{ kind, taskId, task?, error?, done }`), the last one
    /// with `done: true`. Reads follow the service's usual durations, a few
    /// at a time however many tasks are watched. Throws a `kind: "options"`
    /// error for an unknown kind or an empty id.
    pub fn watch(
        &self,
        #[wasm_bindgen(unchecked_param_type = "TaskKind")] kind: JsValue,
        #[wasm_bindgen(js_name = taskId)] task_id: String,
        #[wasm_bindgen(js_name = onUpdate, unchecked_param_type = "(update: TaskUpdate) => void")]
        on_update: Function,
    ) -> Result<TaskWatch, JsValue> {
        let kind = parse_kind(&kind, "kind")?;
        check_task_id(&task_id, "taskId")?;
        let id = self.watches.next_id.get().wrapping_add(1);
        self.watches.next_id.set(id);
        let key = (kind, task_id);
        self.watches
            .listeners
            .borrow_mut()
            .entry(key.clone())
            .or_default()
            .push((id, on_update));
        if let Some(poller) = self.watches.poller(&self.client).as_ref() {
            poller.watch(kind, &key.1, now_ms());
        }
        Ok(TaskWatch {
            watches: self.watches.clone(),
            key,
            id,
        })
    }
}
