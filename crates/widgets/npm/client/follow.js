// `client.watch`: every task a client follows, driven by one follow engine
// in the client module (`Follower`, the contract's `follow`, as in the
// app). The engine decides which task to read when and when to listen to
// the site's relay instead; this carries it out with one timer, the
// client's reads and one `EventSource`, and tells each task's listeners.
import { errorDetail, Follower, taskKinds } from "../media_gen_client.js";

/** The most submissions whose relay a client remembers for `watch`; the
 * oldest is forgotten first (its tasks are then read). */
const REMEMBERED_RELAYS = 256;

/** The longest wait `setTimeout` takes (2³¹ − 1 ms). */
const LONGEST_TIMER = 0x7fffffff;

const keyOf = (kind, taskId) => `${kind}\n${taskId}`;

export class Watches {
  /** `client` reads the tasks; its connection names the stream's token. */
  constructor(client) {
    this.client = client;
    /** The listeners of each task followed: key → [id, onUpdate][]. */
    this.listeners = new Map();
    this.nextId = 0;
    /** `[kind, taskId, relay]` of the tasks this client submitted through a relaying gateway, oldest first. */
    this.relays = [];
    this.engine = null;
    this.timer = null;
    this.source = null;
  }

  /** Remember that `taskIds` of `kind` were submitted under `relay`. */
  remember(kind, taskIds, relay) {
    if (!relay) return;
    for (const taskId of taskIds) this.relays.push([kind, taskId, relay]);
    this.relays.splice(0, Math.max(0, this.relays.length - REMEMBERED_RELAYS));
  }

  /** The relay `taskId` of `kind` was submitted under, if remembered. */
  relayOf(kind, taskId) {
    return this.relays.find(([k, id]) => k === kind && id === taskId)?.[2];
  }

  /** Follow `taskId` of `kind` for `onUpdate`; returns `stop`. */
  watch(kind, taskId, relay, onUpdate) {
    const engine = this.start();
    const key = keyOf(kind, taskId);
    const id = ++this.nextId;
    if (!this.listeners.has(key)) this.listeners.set(key, []);
    this.listeners.get(key).push([id, onUpdate]);
    const now = Date.now();
    engine.watch(kind, taskId, now, relay ?? undefined, now);
    if (relay) {
      const connection = this.client.connection;
      if (connection.carriesToken) {
        // Another site's page names its page token in the stream's
        // address: got before the stream opens.
        connection.token().then(() => {
          engine.useDefaultRelay(Date.now());
          this.pump();
        });
      } else {
        engine.useDefaultRelay(now);
      }
    }
    this.pump();
    return () => this.stop(kind, taskId, id);
  }

  /** The engine, made on the first watch, with the page's visibility. */
  start() {
    if (this.engine !== null) return this.engine;
    const hidden = () => typeof document !== "undefined" && document.visibilityState === "hidden";
    this.engine = new Follower(hidden(), Date.now());
    if (typeof document !== "undefined") {
      document.addEventListener("visibilitychange", () => {
        this.engine.visibility(hidden(), Date.now());
        this.pump();
      });
    }
    return this.engine;
  }

  /** One listener of `kind`'s `taskId` stops; the task is read no more once nobody listens. */
  stop(kind, taskId, id) {
    const key = keyOf(kind, taskId);
    const list = this.listeners.get(key);
    if (list === undefined) return;
    const left = list.filter(([listener]) => listener !== id);
    if (left.length > 0) {
      this.listeners.set(key, left);
      return;
    }
    this.listeners.delete(key);
    this.engine.unwatch(kind, taskId);
    this.pump();
  }

  /** Carry out what the engine asks now, and wake when it next wants to be asked. */
  pump() {
    const engine = this.engine;
    // `["read", kind, taskId]`, `["open", path]`, `["close"]`.
    for (const [command, first, second] of engine.poll(Date.now(), this.client.connection.pageToken ?? undefined)) {
      if (command === "read") this.read(first, second);
      else if (command === "open") this.open(first);
      else this.close();
    }
    clearTimeout(this.timer);
    const at = engine.nextWake();
    this.timer = at === undefined ? null : setTimeout(() => this.pump(), Math.min(LONGEST_TIMER, Math.max(0, at - Date.now())));
  }

  /** Read one task; the engine hears how it went, then the listeners. */
  async read(kind, taskId) {
    let task;
    let error;
    try {
      task = await this.client.task(kind, taskId);
    } catch (failure) {
      error = failure;
    }
    const status = task === undefined ? undefined : String(task.status);
    const verdict = this.engine.readDone(kind, taskId, status, error, Date.now());
    if (verdict !== undefined) this.tell(kind, taskId, verdict, task, error);
    this.pump();
  }

  /** Tell `taskId`'s listeners what `verdict` (`[changed, done]`) meant:
   * a failed read that will be tried again is no news. */
  tell(kind, taskId, [changed, done], task, error) {
    if (!changed && !done) return;
    const key = keyOf(kind, taskId);
    const update = { kind, taskId, changed: changed === 1, done: done === 1 };
    if (task !== undefined) update.task = task;
    if (error !== undefined) update.error = errorDetail(error);
    const listeners = this.listeners.get(key) ?? [];
    if (done) this.listeners.delete(key);
    for (const [, onUpdate] of listeners) {
      // A listener that throws stops nothing: the others still hear.
      try {
        onUpdate(update);
      } catch {
        // Nothing to do: the page's own error.
      }
    }
  }

  /** Open the relay's stream at `path` (the one open before is closed). */
  open(path) {
    this.close();
    const engine = this.engine;
    let source;
    try {
      source = new EventSource(this.client.connection.baseUrl + path);
    } catch {
      engine.streamLost(Date.now(), Math.random());
      return;
    }
    this.source = source;
    // One listener per kind: an event is named by its task's kind.
    for (const kind of taskKinds()) {
      source.addEventListener(kind, (event) => {
        let task;
        try {
          task = JSON.parse(event.data);
        } catch {
          return;
        }
        if (typeof task?.task_id !== "string" || typeof task.status !== "string") return;
        const verdict = engine.streamEnd(kind, task.task_id, task.status, Date.now());
        if (verdict === undefined) return;
        this.pump();
        this.tell(kind, task.task_id, verdict, task);
      });
    }
    source.addEventListener("open", () => {
      engine.streamOpened(Date.now());
      this.pump();
    });
    source.addEventListener("error", () => {
      // The browser reconnects by itself unless it gave the stream up.
      if (source.readyState !== EventSource.CLOSED || this.source !== source) return;
      this.source = null;
      engine.streamLost(Date.now(), Math.random());
      this.pump();
    });
  }

  /** Close the stream open now, if any. */
  close() {
    this.source?.close();
    this.source = null;
  }
}
