// A page that mounts both widgets and uses the custom elements, built by
// Vite for production with its default configuration: what it ships (the
// client entry, and the widgets' module Vite splits off for the first
// mount) is what the widgets page's size counts (`cargo xtask bench
// sizes`). Built and measured only.
import init, { defineElements, mountStatusWidget, mountSubmitWidget } from "@media-gen/widgets";

await init();
defineElements();
const form = mountSubmitWidget("#submit", { kind: "image_generate", baseUrl: "" });
const status = mountStatusWidget("#status", { baseUrl: "", kind: "image_generate", taskIds: ["ig-1"] });
await Promise.all([form.ready, status.ready]);
