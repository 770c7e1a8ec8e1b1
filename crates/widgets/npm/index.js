// The package's main entry: the client entry (see client.js), the two
// widgets, the event names and the custom elements. The widgets' module (the
// forms and views, most of the package's weight) is fetched on the first
// mount, or by `preload()`, once however many widgets mount.
import { checkStatusWidgetOptions, checkSubmitWidgetOptions } from "./media_gen_client.js";

export * from "./client.js";
export { default } from "./client.js";

/** The widgets' module, loaded and initialised; `null` until asked for. */
let widgetsModule = null;

/** Fetch and start the widgets' module now rather than on the first mount. */
export function preload() {
  widgetsModule ??= import("./media_gen_widgets.js").then(async (module) => {
    await module.default();
    return module;
  });
  return widgetsModule;
}

/** An options error, as the modules throw them. */
function optionsError(field, rule) {
  const error = new Error(`${field}: ${rule}`);
  Object.assign(error, { kind: "options", field, retryable: false });
  return error;
}

/** The elements that can hold a shadow root (besides custom elements). */
const SHADOW_HOSTS = new Set([
  "ARTICLE", "ASIDE", "BLOCKQUOTE", "BODY", "DIV", "FOOTER", "H1", "H2", "H3", "H4", "H5", "H6",
  "HEADER", "MAIN", "NAV", "P", "SECTION", "SPAN",
]);

/** The widgets mounted, by element: one per element. */
const mounted = new WeakMap();

/** `target` (an element or a selector) as an element a widget can mount in. */
function host(target) {
  const element = typeof target === "string" ? document.querySelector(target) : target;
  if (!(element instanceof Element)) {
    throw optionsError("element", typeof target === "string" ? `no element matches ${target}` : "must be an element or a selector");
  }
  if (!SHADOW_HOSTS.has(element.tagName) && !element.localName.includes("-")) {
    throw optionsError("element", `<${element.localName}> cannot hold a widget (use a div, section, span, ...)`);
  }
  if (mounted.has(element)) {
    throw optionsError("element", "already holds a widget: unmount it first");
  }
  return element;
}

/** A mounted widget. It shows once the widgets' module has loaded
 * (`ready`); until then `update` and `unmount` apply to what will show. */
class WidgetHandle {
  #inner = null;
  #options;
  #check;
  #gone = false;

  #element;

  constructor(mount, check, element, options) {
    this.#check = check;
    this.#element = element;
    this.#options = { ...options };
    mounted.set(element, this);
    /** Settles when the widget is on the page (or was unmounted first). */
    this.ready = preload().then((module) => {
      if (this.#gone) return;
      this.#inner = module[mount](element, this.#options);
    });
  }

  /** Change some options; the others stay. Wrong options throw (`kind:
   * "options"`) and leave the widget as it was. */
  update(options) {
    const next = { ...this.#options, ...options };
    this.#check(next);
    if (this.#inner) this.#inner.update(options);
    this.#options = next;
  }

  /** Remove the widget: its nodes, timers, listeners and requests end.
   * Calling it again does nothing. */
  unmount() {
    if (mounted.get(this.#element) === this) mounted.delete(this.#element);
    this.#gone = true;
    this.#inner?.unmount();
    this.#inner?.free();
    this.#inner = null;
  }

  /** Same as `unmount()`. */
  free() {
    this.unmount();
  }
}

// `using handle = mount...(...)` unmounts at the end of the block.
if (typeof Symbol.dispose === "symbol") {
  WidgetHandle.prototype[Symbol.dispose] = WidgetHandle.prototype.unmount;
}

/** Mount the submit form for `options.kind` into `element` (or the element
 * a selector names). Wrong options throw an `Error` with `kind: "options"`
 * and the `field`. */
export function mountSubmitWidget(element, options) {
  const target = host(element);
  checkSubmitWidgetOptions(options);
  return new WidgetHandle("mountSubmitWidget", checkSubmitWidgetOptions, target, options);
}

/** Mount the status view of `options.taskId` (or `taskIds`) into `element`
 * and follow the tasks until they end. */
export function mountStatusWidget(element, options) {
  const target = host(element);
  checkStatusWidgetOptions(options);
  return new WidgetHandle("mountStatusWidget", checkStatusWidgetOptions, target, options);
}

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

// Where there is no DOM (server-side rendering), importing still works: the
// elements are defined only by `defineElements()`, in a browser.
const ElementBase = globalThis.HTMLElement ?? class {};

/** Shared behaviour: attributes and properties to options, mount on connect,
 * update on change, unmount on disconnect. */
class MediaGenElement extends ElementBase {
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
