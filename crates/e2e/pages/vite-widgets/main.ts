// A page that mounts both widgets and a custom element, built by Vite for
// production with its default configuration: what it ships (the client
// entry, and the widgets' module Vite splits off for the first mount) is
// what the widgets page's size counts (`cargo xtask bench sizes`), and an
// end-to-end test runs it, served by the gateway (`baseUrl: ""`: this
// page's own site) and reads `window.viteWidgets`.
import init, {
  createClient,
  defineElements,
  EVENT_CHANGE,
  EVENT_COMPLETE,
  EVENT_READY,
  EVENT_SUBMITTED,
  EVENT_USE,
  isMediaGenError,
  mountStatusWidget,
  mountSubmitWidget,
  type Submitted,
  type UseDetail,
} from "@media-gen/widgets";

await init();
// Where the page is, for a test that times out to say.
const step = (name: string) => ((window as unknown as { viteWidgetsStep: string }).viteWidgetsStep = name);
step("started");
// Every event, heard where a page hears them: on `document`.
const heard: Record<string, number> = {};
for (const name of [EVENT_READY, EVENT_CHANGE, EVENT_SUBMITTED, EVENT_COMPLETE]) {
  document.addEventListener(name, () => {
    heard[name] = (heard[name] ?? 0) + 1;
  });
}
const completions = (count: number) =>
  new Promise<void>((resolve) => {
    const check = () => {
      if ((heard[EVENT_COMPLETE] ?? 0) >= count) resolve();
      else setTimeout(check, 50);
    };
    check();
  });

// A Save button the form's state drives, as the README shows: enabled
// only while the form is complete. Each state it had is kept.
const save = document.querySelector<HTMLButtonElement>("#save");
const saveStates: boolean[] = [];
const nextChange = () =>
  new Promise<void>((resolve) => document.addEventListener(EVENT_CHANGE, () => resolve(), { once: true }));
document.querySelector("#submit")?.addEventListener(EVENT_CHANGE, (event) => {
  if (save) save.disabled = !event.detail.complete;
});
const record = () => saveStates.push(save?.disabled ?? false);

let opened = nextChange();
const form = mountSubmitWidget("#submit", {
  kind: "image_generate",
  baseUrl: "",
  initial: { prompt: "", image_quality: "1K" },
});
await form.ready;
step("opening");
await opened; // the form says how it is as it opens: empty, not complete
record();
// The prompt typed as a person would: the form says what changed. (Found
// each time: a reset draws the form anew.)
const type = async (text: string) => {
  const changed = nextChange();
  const prompt = document.querySelector("#submit")?.shadowRoot?.querySelector<HTMLTextAreaElement>("#prompt");
  if (prompt) {
    prompt.value = text;
    prompt.dispatchEvent(new Event("input", { bubbles: true }));
  }
  await changed;
};
await type("A lighthouse");
record();
opened = nextChange();
step("reset");
form.reset();
await opened; // emptied again: Save off
record();
step("typing again");
await type("A lighthouse");
record();
const submitted = new Promise<Submitted>((resolve) => {
  document.addEventListener(EVENT_SUBMITTED, (event) => resolve(event.detail), { once: true });
});
form.submit();
step("submitting");
const fromForm = await submitted;
const ids = fromForm.taskIds;

// The event's relay to the status widget: heard of, not read.
const status = mountStatusWidget("#status", { kind: fromForm.kind, baseUrl: "", taskIds: ids, relay: fromForm.relay });
step("following the form's task");
await completions(1);

// The finished image offered to the next job: the status widget's
// `media-gen-use` routed to the form, as the README shows.
const used = new Promise<UseDetail>((resolve) => {
  document.addEventListener(
    EVENT_USE,
    (event) => {
      form.use(event.detail);
      resolve(event.detail);
    },
    { once: true },
  );
});
step("using the result");
const useButtons = () =>
  [...(document.querySelector("#status")?.shadowRoot?.querySelectorAll<HTMLButtonElement>("button[part=use]") ?? [])];
const offered = useButtons().map((button) => button.textContent);
useButtons()[0]?.click();
const use = await used;
const startFrame = await new Promise<string>((resolve) => {
  const check = () => {
    const field = document.querySelector("#submit")?.shadowRoot?.querySelector<HTMLInputElement>("#image_url");
    if (field) resolve(field.value);
    else setTimeout(check, 50);
  };
  check();
});

// A submit made with the client (of the main entry), its relay given to
// a status widget the same way.
const client = createClient({ baseUrl: "" });
const fromClient = await client.submit("image_generate", { prompt: "A harbour", image_quality: "1K" });
const clientStatus = mountStatusWidget("#client-status", {
  kind: fromClient.kind,
  taskIds: fromClient.taskIds,
  relay: fromClient.relay,
  baseUrl: "",
});
step("following the client's task");
await completions(2);

// A custom element of the page with its own shadow root: refused, its
// content kept.
customElements.define(
  "page-card",
  class extends HTMLElement {
    constructor() {
      super();
      this.attachShadow({ mode: "open" }).innerHTML = "<p>The page's own card</p>";
    }
  },
);
let refused: unknown = null;
try {
  mountSubmitWidget("#card", { kind: "image_generate", baseUrl: "" });
} catch (error) {
  refused = isMediaGenError(error) ? [error.kind, error.field] : String(error);
}
const cardKept = document.querySelector("#card")?.shadowRoot?.textContent ?? "";

// The same task in a custom element, defined after it is on the page,
// given the relay too.
const element = document.createElement("media-gen-task");
element.setAttribute("kind", "image_generate");
element.setAttribute("task-id", ids[0]);
element.relay = fromForm.relay;
document.body.append(element);
defineElements();
step("following the element's task");
await completions(3);

// Freeing a handle unmounts its widget (as `using` would, where the
// project's `lib` has `esnext.disposable`).
form.free();
status.free();
clientStatus.unmount();
const left = ["#submit", "#status", "#client-status"].map(
  (host) => document.querySelector(host)?.shadowRoot?.childNodes.length ?? -1,
);

(window as unknown as { viteWidgets: unknown }).viteWidgets = {
  heard,
  ids: ids.length,
  left,
  saveStates,
  relays: [fromForm.relay, fromClient.relay],
  answers: [fromForm.answer, fromClient.answer],
  refused,
  cardKept,
  used: { offered, kind: use.kind, field: use.field, url: use.url, source: use.source, startFrame },
};
