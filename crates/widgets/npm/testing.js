// The testing entry (`@media-gen/widgets/testing`): the service as a
// model (the contract's, the sandbox's decisions) run in this page or in
// Node, answering the package's calls with no server and no network.
//
// In a browser a Service Worker (`media-gen-test-worker.js`, served from
// the site's root) takes every request the page makes to the test
// service's base URL (`fetch`, the uploads' requests, the result files an
// `<img>` or `<video>` loads) and hands it to this page, where the model
// answers it. In Node, where there is no Service Worker, `fetch` itself
// is wrapped. Either way nothing leaves: the base URL's host
// (`media-gen.test`) resolves nowhere.
import initModel, { TestService } from "./media_gen_test_service.js";

/** The base URL the test service answers at unless told otherwise. */
export const TEST_BASE_URL = "https://media-gen.test";

/** The worker's path unless told otherwise: served from the site's root. */
export const TEST_WORKER_URL = "/media-gen-test-worker.js";

const REQUEST = "media-gen-test:request";
const START = "media-gen-test:start";
const STOP = "media-gen-test:stop";

let loaded = null;

/** Load the model's module once: fetched beside this file in a browser,
 * read from disk in Node. */
function loadModel() {
  loaded ??= (async () => {
    const wasm = new URL("./media_gen_test_service_bg.wasm", import.meta.url);
    if (wasm.protocol === "file:") {
      const fs = "node:fs/promises";
      const { readFile } = await import(/* @vite-ignore */ fs);
      await initModel({ module_or_path: await readFile(wasm) });
    } else {
      await initModel({ module_or_path: wasm });
    }
  })();
  return loaded;
}

/** The options checked as the model reads them, with the field named. */
function modelOptions(options) {
  const { speed, faults, seed } = options;
  return JSON.stringify({ speed, faults, seed });
}

/** Wait `ms` (0: answer at once). */
function later(ms) {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/**
 * Start a test service; resolves once the page's requests to its base URL
 * reach it. See `index.d.ts` and the README for the options.
 */
export async function startTestService(options = {}) {
  await loadModel();
  const baseUrl = (options.baseUrl ?? TEST_BASE_URL).replace(/\/+$/, "");
  const seed = Math.floor(Math.random() * 2 ** 52);
  let model = new TestService(modelOptions(options), baseUrl, seed);
  let offset = 0;
  const now = () => Date.now() + offset;

  /** Answer one request: `path` with its query, under the base URL,
   * `headers` an object of lower-case names. */
  async function answer(method, path, headers, body) {
    const answered = model.answer(method, path, JSON.stringify(headers), body, now());
    const reply = {
      status: answered.status,
      headers: { ...JSON.parse(answered.headers), "content-type": answered.mime },
      body: answered.body,
      dropped: answered.dropped,
    };
    if (answered.retryAfter !== undefined) reply.headers["retry-after"] = String(answered.retryAfter);
    const wait = answered.latencyMs;
    answered.free();
    await later(wait);
    return reply;
  }

  const stopIntercepting = await intercept(options, baseUrl, answer);
  return {
    baseUrl,
    submissions: () => JSON.parse(model.submissions()),
    next: (outcome = {}) => model.nextOutcome(outcome.fail ?? undefined),
    outcome: (kind, taskId, outcome = {}) => model.setOutcome(kind, taskId, outcome.fail ?? undefined),
    faults: (faults = {}) => model.setFaults(JSON.stringify(faults)),
    advance: (ms) => {
      offset += Math.max(0, ms);
    },
    reset: () => {
      model.reset();
      offset = 0;
    },
    stop: async () => {
      await stopIntercepting();
      model.free();
      model = null;
    },
  };
}

/** Route requests for `baseUrl` to `answer`: through the worker in a
 * browser, by wrapping `fetch` where there is none; what undoes it. */
async function intercept(options, baseUrl, answer) {
  const container = globalThis.navigator?.serviceWorker;
  if (container && options.intercept !== "fetch") {
    return throughWorker(container, options.worker ?? TEST_WORKER_URL, baseUrl, options.paths ?? null, answer);
  }
  return wrappingFetch(baseUrl, options.paths ?? null, answer);
}

/** The worker registered and controlling this page, told `baseUrl`; its
 * requests answered here. */
async function throughWorker(container, worker, baseUrl, paths, answer) {
  const onMessage = async (event) => {
    if (event.data?.type !== REQUEST) return;
    const { method, path, headers, body } = event.data;
    const reply = await answer(method, path, headers, new Uint8Array(body ?? new ArrayBuffer(0)));
    event.ports[0]?.postMessage(reply, [reply.body.buffer]);
  };
  container.addEventListener("message", onMessage);
  await container.register(worker);
  await container.ready;
  if (!container.controller) {
    // The worker claims the page as it activates.
    await new Promise((resolve) => container.addEventListener("controllerchange", resolve, { once: true }));
  }
  await ask(container.controller, { type: START, baseUrl, paths });
  return async () => {
    container.removeEventListener("message", onMessage);
    if (container.controller) await ask(container.controller, { type: STOP });
  };
}

/** Send `message` to `worker` and wait for its word back. */
function ask(worker, message) {
  const channel = new MessageChannel();
  const answered = new Promise((resolve) => {
    channel.port1.onmessage = () => resolve();
  });
  worker.postMessage(message, [channel.port2]);
  return answered;
}

/** `fetch` wrapped: requests for `baseUrl` answered by `answer`, any
 * other passed on. */
function wrappingFetch(baseUrl, paths, answer) {
  const original = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (!isServices(request.url, baseUrl, paths)) return original(input, init);
    const body = ["GET", "HEAD"].includes(request.method) ? new Uint8Array(0) : new Uint8Array(await request.arrayBuffer());
    const reply = await answer(request.method, request.url.slice(baseUrl.length), Object.fromEntries(request.headers), body);
    if (reply.dropped) throw new TypeError("fetch failed: the test service dropped the connection (a fault)");
    return toResponse(request.method, reply);
  };
  return async () => {
    globalThis.fetch = original;
  };
}

/** Whether `url` is the test service's: under `baseUrl`, and under one of
 * `paths` when they are given. */
function isServices(url, baseUrl, paths) {
  if (!url.startsWith(baseUrl + "/")) return false;
  const path = url.slice(baseUrl.length);
  return paths === null || paths.some((prefix) => path.startsWith(prefix));
}

/** A reply to a `method` request as a `Response` (no body where HTTP has none). */
function toResponse(method, reply) {
  const empty = method === "HEAD" || reply.status === 204;
  return new Response(empty ? null : reply.body, {
    status: reply.status,
    headers: { ...reply.headers, "cache-control": "no-store" },
  });
}
