// The package's entry: everything the WebAssembly module exports, the event
// names, and the custom elements built on the mount functions.
import init, { mountStatusWidget, mountSubmitWidget } from "./media_gen.js";

export * from "./media_gen.js";
export default init;

/** A submit created tasks: `detail` is `{ kind, taskIds, request }`. */
export const EVENT_SUBMITTED = "media-gen-submitted";
/** A task changed: `detail` is `{ kind, taskId, status, task }`. */
export const EVENT_STATUS = "media-gen-status";
/** A task ended (SUCCEEDED or FAILED): `detail` is `{ kind, taskId, status, task }`. */
export const EVENT_COMPLETE = "media-gen-complete";
/** A submit or read failed for good: `detail` is `{ kind, taskId?, error }`. */
export const EVENT_ERROR = "media-gen-error";

/** Attributes both elements read, and the option each one sets. */
const CONNECTION_ATTRIBUTES = { kind: "kind", "base-url": "baseUrl" };

/** Shared behaviour: attributes and properties to options, mount on connect,
 * update on change, unmount on disconnect. */
class MediaGenElement extends HTMLElement {
  #handle = null;
  #extra = {};

  /** Options an attribute cannot carry (token, getToken, initial): set as properties. */
  get options() {
    return this.#extra;
  }
  set options(value) {
    this.#extra = { ...(value ?? {}) };
    this.#refresh();
  }

  get kind() {
    return this.getAttribute("kind");
  }
  set kind(value) {
    this.setAttribute("kind", value);
  }
  get baseUrl() {
    return this.getAttribute("base-url") ?? "";
  }
  set baseUrl(value) {
    this.setAttribute("base-url", value);
  }

  connectedCallback() {
    this.#refresh();
  }
  disconnectedCallback() {
    this.#handle?.unmount();
    this.#handle = null;
  }
  attributeChangedCallback() {
    this.#refresh();
  }

  /** The options from attributes and properties. */
  collect() {
    const options = { ...this.#extra };
    for (const [attribute, option] of Object.entries(this.constructor.attributeOptions)) {
      if (this.hasAttribute(attribute)) options[option] = this.getAttribute(attribute);
    }
    options.baseUrl ??= "";
    return options;
  }

  #refresh() {
    if (!this.isConnected) return;
    const options = this.collect();
    try {
      if (this.#handle) this.#handle.update(options);
      else this.#handle = this.constructor.mount(this, options);
    } catch (error) {
      this.dispatchEvent(
        new CustomEvent(EVENT_ERROR, {
          bubbles: true,
          composed: true,
          detail: { kind: options.kind, error: { message: String(error.message ?? error), kind: "options", status: null, code: null, retryable: false } },
        }),
      );
    }
  }
}

/** `<media-gen-submit kind="image_to_video" base-url="/api">` */
export class MediaGenSubmitElement extends MediaGenElement {
  static attributeOptions = CONNECTION_ATTRIBUTES;
  static observedAttributes = Object.keys(CONNECTION_ATTRIBUTES);
  static mount = mountSubmitWidget;
}

/** `<media-gen-task kind="image_generate" task-id="..." base-url="/api">`;
 * several tasks: `task-ids="id1 id2"`. */
export class MediaGenTaskElement extends MediaGenElement {
  static attributeOptions = { ...CONNECTION_ATTRIBUTES, "task-id": "taskId" };
  static observedAttributes = [...Object.keys(CONNECTION_ATTRIBUTES), "task-id", "task-ids"];
  static mount = mountStatusWidget;

  get taskId() {
    return this.getAttribute("task-id");
  }
  set taskId(value) {
    this.setAttribute("task-id", value);
  }

  collect() {
    const options = super.collect();
    if (this.hasAttribute("task-ids")) {
      options.taskIds = this.getAttribute("task-ids").split(/\s+/).filter(Boolean);
    }
    return options;
  }
}

/** Register `<media-gen-submit>` and `<media-gen-task>` (after `init()`).
 * Calling it again does nothing. */
export function defineElements() {
  if (!customElements.get("media-gen-submit")) {
    customElements.define("media-gen-submit", MediaGenSubmitElement);
  }
  if (!customElements.get("media-gen-task")) {
    customElements.define("media-gen-task", MediaGenTaskElement);
  }
}
