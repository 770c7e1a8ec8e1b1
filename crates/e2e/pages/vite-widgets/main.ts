// A page that mounts both widgets and a custom element, built by Vite for
// production with its default configuration: what it ships (the client
// entry, and the widgets' module Vite splits off for the first mount) is
// what the widgets page's size counts (`cargo xtask bench sizes`), and an
// end-to-end test runs it, served by the gateway (`baseUrl: ""`: this
// page's own site) and reads `window.viteWidgets`.
import init, {
  defineElements,
  EVENT_CHANGE,
  EVENT_COMPLETE,
  EVENT_READY,
  EVENT_SUBMITTED,
  mountStatusWidget,
  mountSubmitWidget,
} from "@media-gen/widgets";

await init();
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

const form = mountSubmitWidget("#submit", {
  kind: "image_generate",
  baseUrl: "",
  initial: { prompt: "", image_quality: "1K" },
});
await form.ready;
// The prompt typed as a person would: the form says what changed.
const prompt = document.querySelector("#submit")?.shadowRoot?.querySelector<HTMLTextAreaElement>("#prompt");
if (prompt) {
  prompt.value = "A lighthouse";
  prompt.dispatchEvent(new Event("input", { bubbles: true }));
}
const submitted = new Promise<string[]>((resolve) => {
  document.addEventListener(EVENT_SUBMITTED, (event) => resolve(event.detail.taskIds), { once: true });
});
form.submit();
const ids = await submitted;

const status = mountStatusWidget("#status", { kind: "image_generate", baseUrl: "", taskIds: ids });
await completions(1);

// The same task in a custom element, defined after it is on the page.
const element = document.createElement("media-gen-task");
element.setAttribute("kind", "image_generate");
element.setAttribute("task-id", ids[0]);
document.body.append(element);
defineElements();
await completions(2);

// Disposing a handle unmounts its widget.
form[Symbol.dispose]();
status[Symbol.dispose]();
const left = ["#submit", "#status"].map((host) => document.querySelector(host)?.shadowRoot?.childNodes.length ?? -1);

(window as unknown as { viteWidgets: unknown }).viteWidgets = { heard, ids: ids.length, left };
