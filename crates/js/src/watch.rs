//! `client.watch(kind, taskId, onUpdate, options?)`: follow a task with the
//! polling engine the app uses (its schedule learns how long tasks take,
//! reads are capped in flight, a hidden page keeps reading), and hear of
//! each change until the task ends. Tasks submitted through a gateway that
//! relays callbacks (by this client, or elsewhere with `options.relay`) are
//! heard of on its event stream instead of read.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use js_sys::Function;
use media_gen_api::TaskKind;
use media_gen_client::{now_ms, FollowOptions, Poller, TaskUpdate};
use serde_json::json;
use wasm_bindgen::prelude::*;

use super::bridge::{client_error_detail, task_json, to_js};
use super::js_client::JsClient;
use super::read::{check_task_id, parse_kind};
use super::widget_options::relay_option;

/// The listeners of each task followed, by task.
type Listeners = HashMap<(TaskKind, String), Vec<(u32, Function)>>;

#[wasm_bindgen]
extern "C" {
    /// `watch`'s options (declared in `types.d.ts`).
    #[wasm_bindgen(typescript_type = "WatchOptions")]
    pub type WatchOptions;
}

/// The most submissions whose relay a client remembers for `watch`; the
/// oldest is forgotten first (its tasks are then read).
const REMEMBERED_RELAYS: usize = 256;

/// What a client's watches share: one poller (made on the first watch) and
/// the listeners it tells.
#[derive(Default, Clone)]
pub struct Watches {
    poller: Rc<RefCell<Option<Poller>>>,
    listeners: Rc<RefCell<Listeners>>,
    next_id: Rc<Cell<u32>>,
    /// The relay capability of each task this client submitted through a
    /// relaying gateway, oldest first.
    relays: Rc<RefCell<Vec<(TaskKind, String, String)>>>,
}

impl Watches {
    /// Remember that `task_ids` of `kind` were submitted under `relay`.
    pub fn remember(&self, kind: TaskKind, task_ids: &[String], relay: Option<String>) {
        let Some(relay) = relay else {
            return;
        };
        let mut relays = self.relays.borrow_mut();
        relays.extend(task_ids.iter().map(|id| (kind, id.clone(), relay.clone())));
        let over = relays.len().saturating_sub(REMEMBERED_RELAYS);
        relays.drain(..over);
    }

    /// The relay `task_id` of `kind` was submitted under, if remembered.
    fn relay_of(&self, kind: TaskKind, task_id: &str) -> Option<String> {
        self.relays
            .borrow()
            .iter()
            .find(|(k, id, _)| *k == kind && id == task_id)
            .map(|(_, _, relay)| relay.clone())
    }

    /// The poller, made on first use with `client`'s connection.
    fn poller(&self, client: &media_gen_client::Client) -> std::cell::RefMut<'_, Option<Poller>> {
        let mut poller = self.poller.borrow_mut();
        if poller.is_none() {
            let listeners = Rc::clone(&self.listeners);
            *poller = Some(Poller::new(
                client.clone(),
                FollowOptions::default(),
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
    /// at a time however many tasks are watched. A task this client
    /// submitted through a gateway that relays callbacks (or given
    /// `options.relay`, a submit's capability) is heard of on the relay's
    /// event stream instead, with one safety read. Throws a `kind:
    /// "options"` error for an unknown kind, an empty id or a `relay` that
    /// is not a string. Declared in `types.d.ts`, generic over the kind.
    #[wasm_bindgen(skip_typescript)]
    pub fn watch(
        &self,
        #[wasm_bindgen(unchecked_param_type = "TaskKind")] kind: JsValue,
        #[wasm_bindgen(js_name = taskId)] task_id: String,
        #[wasm_bindgen(js_name = onUpdate, unchecked_param_type = "(update: TaskUpdate) => void")]
        on_update: Function,
        options: Option<WatchOptions>,
    ) -> Result<TaskWatch, JsValue> {
        let kind = parse_kind(&kind, "kind")?;
        check_task_id(&task_id, "taskId")?;
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        let relay = relay_option(&options)?.or_else(|| self.watches.relay_of(kind, &task_id));
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
            match &relay {
                Some(relay) => {
                    poller.watch_relayed(kind, &key.1, now_ms(), relay);
                    poller.use_default_relay();
                }
                None => poller.watch(kind, &key.1, now_ms()),
            }
        }
        Ok(TaskWatch {
            watches: self.watches.clone(),
            key,
            id,
        })
    }
}
