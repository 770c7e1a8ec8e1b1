// The Service Worker of `@media-gen/widgets/testing`: serve it from your
// site's root (copy it from node_modules/@media-gen/widgets/, or let your
// dev server serve it there). It answers nothing itself: each request a
// page makes to its test service's base URL is handed to that page, where
// the service model answers it; every other request goes to the network
// as always. Self-contained: no import, so it works wherever it is served.
const REQUEST = "media-gen-test:request";

/** The base URL each page (client id) started a test service at, and the
 * paths under it the service answers (none: all of them). */
const bases = new Map();

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("message", (event) => {
  const id = event.source?.id;
  if (event.data?.type === "media-gen-test:start" && id) {
    bases.set(id, { base: event.data.baseUrl, paths: event.data.paths ?? null });
  }
  if (event.data?.type === "media-gen-test:stop" && id) bases.delete(id);
  event.ports[0]?.postMessage("done");
});

self.addEventListener("fetch", (event) => {
  const started = bases.get(event.clientId);
  if (!started) return;
  const { base, paths } = started;
  const url = event.request.url;
  if (!url.startsWith(base + "/")) return;
  const path = url.slice(base.length);
  if (paths !== null && !paths.some((prefix) => path.startsWith(prefix))) return;
  event.respondWith(answered(event, base));
});

/** The page's answer to `event`'s request, as a `Response`. */
async function answered(event, base) {
  const request = event.request;
  const client = await self.clients.get(event.clientId);
  if (!client) return Response.error();
  const body = ["GET", "HEAD"].includes(request.method) ? null : await request.arrayBuffer();
  const channel = new MessageChannel();
  const reply = new Promise((resolve) => {
    channel.port1.onmessage = (message) => resolve(message.data);
  });
  const message = {
    type: REQUEST,
    method: request.method,
    path: request.url.slice(base.length),
    headers: Object.fromEntries(request.headers),
    body,
  };
  client.postMessage(message, body ? [channel.port2, body] : [channel.port2]);
  const answer = await reply;
  if (answer.dropped) return Response.error();
  // Readable by the page whatever its origin: the page asked for it.
  const headers = {
    ...answer.headers,
    "cache-control": "no-store",
    "access-control-allow-origin": "*",
    "access-control-expose-headers": "*",
  };
  const empty = request.method === "HEAD" || answer.status === 204;
  return new Response(empty ? null : answer.body, { status: answer.status, headers });
}
