// The README's "Try it with no server", as a page: both widgets on the
// test service, which runs in this page (its Service Worker served from
// the site's root, copied into `public/`). Built by Vite for production
// and opened by an end-to-end test with no sandbox and no gateway: the
// test types into the form as a person does and reads the page;
// `window.testService` is how it chooses outcomes and faults.
import init, { EVENT_SUBMITTED, mountStatusWidget, mountSubmitWidget } from "@media-gen/widgets";
import { startTestService } from "@media-gen/widgets/testing";

await init();
const service = await startTestService({ speed: 300 });
(window as unknown as { testService: typeof service }).testService = service;

const form = mountSubmitWidget("#submit", { kind: "image_generate", baseUrl: service.baseUrl });
document.addEventListener(EVENT_SUBMITTED, (event) => {
  const { kind, taskIds } = event.detail;
  mountStatusWidget("#status", { kind, taskIds, baseUrl: service.baseUrl });
});
await form.ready;
document.body.dataset.ready = "true";
