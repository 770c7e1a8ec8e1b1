// The demo's start: the service as a model, run in this page (the testing
// entry of the npm package, `@media-gen/widgets/testing`), answering the
// app's calls to this site's own addresses before the app starts; and a
// notice on every page that it is a demo. `cargo xtask dist --demo` puts
// this file, the testing entry and its worker beside the release app.
import { startTestService } from "./testing.js";

/** The paths of the site the service answers; everything else is the
 * app's own files, served as they are. */
const SERVICE_PATHS = ["/v1/", "/capabilities", "/uploads/", "/sandbox/media/"];

/** Start the demo's service and show the notice; resolves once the page's
 * calls reach the service. */
export async function start() {
  const base = new URL(document.baseURI);
  const site = base.pathname.replace(/\/+$/, "");
  const service = await startTestService({
    baseUrl: base.origin,
    paths: SERVICE_PATHS.map((path) => site + path),
    speed: "realistic",
    worker: `${site}/media-gen-test-worker.js`,
  });
  window.demoService = service;
  const notice = document.createElement("aside");
  notice.className = "demo-notice";
  notice.setAttribute("aria-label", "Demo");
  notice.setAttribute(
    "style",
    "margin:0;padding:0.5rem 1rem;background:#fff4c2;color:#2b2200;border-bottom:1px solid #b89b00;font:inherit;text-align:center",
  );
  notice.textContent =
    "This is a demo: the service runs inside your browser, nothing you enter is sent anywhere, and every result is a sample.";
  document.body.prepend(notice);
}
