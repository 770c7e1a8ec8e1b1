// The package's main entry: the client entry (see client.js), the two
// widgets, the event names and the custom elements. The widgets' module
// (the views, most of the package's weight) is fetched on the first mount,
// or by `preload()`, once however many widgets mount. Two parts of it are
// chunks, each fetched once, by the first widget that needs it: the forms,
// by the first submit widget; the file controls, by the first form whose
// site takes uploads.
import { checkStatusWidgetOptions, checkSubmitWidgetOptions, optionsError } from "./media_gen_client.js";
import { createClient } from "./client/media-gen-client.js";

export * from "./client.js";
export { default } from "./client.js";

/** A submit created tasks: `detail` is `{ kind, taskIds, request }`. */
export const EVENT_SUBMITTED = "media-gen-submitted";
/** A task changed: `detail` is `{ kind, taskId, status, task }`. */
export const EVENT_STATUS = "media-gen-status";
/** A task ended (SUCCEEDED or FAILED): `detail` is `{ kind, taskId, status, task }`. */
export const EVENT_COMPLETE = "media-gen-complete";
/** A submit or read failed for good: `detail` is `{ kind, taskId?, error }`. */
export const EVENT_ERROR = "media-gen-error";
/** A widget is on the page (its module loaded): `detail` is `{ kind }`. */
export const EVENT_READY = "media-gen-ready";
/** A submit form's request changed: `detail` is `{ kind, complete, empty, problems }`. */
export const EVENT_CHANGE = "media-gen-change";
/** A result was offered to the next job: `detail` is `{ kind, field, url, request, source }`. */
export const EVENT_USE = "media-gen-use";

/** The widgets' module, loaded and initialised; `null` until asked for. */
let widgetsModule = null;

/** Fetch and start the widgets' module now rather than on the first mount;
 * with `{ forms: true }`, the submit widget's forms too. */
export function preload(options) {
  if (widgetsModule === null) {
    const loading = import("./media_gen_widgets.js").then(async (module) => {
      await module.default();
      return module;
    });
    widgetsModule = loading;
    // A module that did not come is asked for again by the next mount.
    loading.catch(() => {
      if (widgetsModule === loading) widgetsModule = null;
    });
  }
  return options?.forms ? widgetsModule.then(withForms) : widgetsModule;
}

/** `module` once the submit widget's forms (a chunk of it) have loaded;
 * rejects when they did not. */
async function withForms(module) {
  await module.preloadSubmitWidget();
  return module;
}

/** Resolves once `root` holds `selector`, or after 10 s. */
function shown(root, selector) {
  return new Promise((resolve) => {
    const found = () => !root || root.querySelector(selector);
    if (found()) return resolve();
    const watch = new MutationObserver(() => found() && done());
    const timer = setTimeout(() => done(), 10_000);
    const done = () => {
      watch.disconnect();
      clearTimeout(timer);
      resolve();
    };
    watch.observe(root, { childList: true, subtree: true });
  });
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
  // A widget lives in the element's shadow root: one the element filled
  // itself (a custom element of the page's) would be wiped.
  if (element.shadowRoot && element.shadowRoot.childNodes.length > 0) {
    throw optionsError("element", `<${element.localName}> has a shadow root of its own with content: mount into an element inside it, or beside it`);
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
    /** Settles when the widget is on the page (or was unmounted first);
     * `media-gen-ready` goes out from the element then. */
    this.ready = preload().then(async (module) => {
      // A submit widget is drawn whole on its first frame: the forms have
      // come before it mounts. Where they did not come, it mounts anyway
      // and says so in place of the form (once it has tried them again),
      // and `ready` rejects when it says so.
      let formsMissing = null;
      if (mount === "mountSubmitWidget") {
        await module.preloadSubmitWidget().catch((error) => {
          formsMissing = error;
        });
      }
      if (this.#gone) return;
      // The widget's requests go through the client entry's client.
      this.#inner = module[mount](element, this.#options, createClient);
      if (formsMissing) {
        await shown(element.shadowRoot, "[role=alert]");
        throw formsMissing;
      }
      element.dispatchEvent(
        new CustomEvent(EVENT_READY, { bubbles: true, composed: true, detail: { kind: this.#options.kind } }),
      );
    });
  }

  /** The element the widget is mounted in. */
  get element() {
    return this.#element;
  }

  /** Throw when the widget was unmounted: a disposed handle does nothing. */
  live() {
    if (this.#gone) throw optionsError("widget", "is unmounted: mount a new one");
    return this.#element;
  }

  /** Change some options; the others stay. Wrong options throw (`kind:
   * "options"`) and leave the widget as it was. */
  update(options) {
    this.live();
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

/** A submit widget: the form can also be sent, emptied and focused. */
class SubmitWidgetHandle extends WidgetHandle {
  /** The form in the shadow root, once on the page. */
  #form() {
    return this.live().shadowRoot?.querySelector("form") ?? null;
  }

  /** Send the form as its submit button would (nothing while it has
   * errors or a submit is out). */
  submit() {
    this.#form()?.requestSubmit();
  }

  /** Start the form again, empty (`initial: null` is an empty request). */
  reset() {
    this.update({ initial: null });
  }

  /** Put the focus in the form's first field. */
  focus() {
    this.#form()?.querySelector("input, textarea, select")?.focus();
  }

  /** Start the form from a `media-gen-use` event's detail: its kind, and
   * the request with the result in its field (the rest is the person's). */
  use(detail) {
    if (!detail || typeof detail.kind !== "string" || typeof detail.request !== "object") {
      throw optionsError("detail", "must be a media-gen-use event's detail ({ kind, request, ... })");
    }
    this.update({ kind: detail.kind, initial: detail.request });
  }
}

/** Mount the submit form for `options.kind` into `element` (or the element
 * a selector names). Wrong options throw an `Error` with `kind: "options"`
 * and the `field`. */
export function mountSubmitWidget(element, options) {
  const target = host(element);
  checkSubmitWidgetOptions(options);
  return new SubmitWidgetHandle("mountSubmitWidget", checkSubmitWidgetOptions, target, options);
}

/** Mount the status view of `options.taskId` (or `taskIds`) into `element`
 * and follow the tasks until they end. */
export function mountStatusWidget(element, options) {
  const target = host(element);
  checkStatusWidgetOptions(options);
  return new WidgetHandle("mountStatusWidget", checkStatusWidgetOptions, target, options);
}



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

  constructor() {
    super();
    // Properties a page set before the element was defined sit on the
    // instance and hide the class's setters: take them through the setters.
    for (const property of this.constructor.properties) {
      if (Object.prototype.hasOwnProperty.call(this, property)) {
        const value = this[property];
        delete this[property];
        this[property] = value;
      }
    }
  }

  /** The properties of the element, each a setter (see the constructor). */
  static properties = ["options", "kind", "baseUrl"];

  /** Set attribute `name` to `value`; `null` or `undefined` removes it. */
  reflect(name, value) {
    if (value === null || value === undefined) this.removeAttribute(name);
    else this.setAttribute(name, String(value));
  }

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
    this.reflect("kind", value);
  }
  get baseUrl() {
    return this.getAttribute("base-url") ?? "";
  }
  set baseUrl(value) {
    this.reflect("base-url", value);
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
 * several tasks: `task-ids="id1 id2"`; heard of through a relaying
 * gateway: `relay="..."` (a submit's `relay`). */
export class MediaGenTaskElement extends MediaGenElement {
  static attributeOptions = { ...CONNECTION_ATTRIBUTES, "task-id": "taskId", relay: "relay" };
  static observedAttributes = [...Object.keys(CONNECTION_ATTRIBUTES), "task-id", "task-ids", "relay"];
  static mount = mountStatusWidget;

  static properties = [...MediaGenElement.properties, "taskId", "taskIds", "relay"];

  get taskId() {
    return this.getAttribute("task-id");
  }
  set taskId(value) {
    this.reflect("task-id", value);
  }
  /** `task-ids` as a list; `null` removes the attribute. */
  get taskIds() {
    return this.getAttribute("task-ids")?.split(/\s+/).filter(Boolean) ?? null;
  }
  set taskIds(value) {
    this.reflect("task-ids", value === null || value === undefined ? value : [...value].join(" "));
  }
  get relay() {
    return this.getAttribute("relay");
  }
  set relay(value) {
    this.reflect("relay", value);
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
