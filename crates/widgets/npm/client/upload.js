// `client.upload`: a file to the site's gateway (tus 1.0, resumable, in
// pieces), each `XMLHttpRequest` here (the one browser call that reports
// an upload's bytes as they leave). Whether the service would take the file
// and every step of the upload (what to send, what each answer means, how
// long to wait, when to give up) are the client module's: the contract's
// `media_type` and its upload machine, which the app's uploader drives too.
// This file only carries the steps out.
import { judgeFile, sniffBytes, UploadPlan, uploadError, uploadName } from "../media_gen_client.js";
import { sleep } from "./call.js";
import { offersOf } from "./offers.js";

/** An upload that ended: `kind` `"http"` (refused), `"network"` or `"aborted"`. */
class Ended {
  constructor(error) {
    this.error = error;
  }
}

/** Whether `failure` is the network failing (waited out), not an end. */
function isNetwork(failure) {
  return failure instanceof Ended && failure.error.kind === "network";
}

/** The gateway's refusal out of an answer: its message, which names the rule. */
function refused(answer) {
  let msg;
  try {
    const body = JSON.parse(answer.responseText);
    if (typeof body?.msg === "string") msg = body.msg;
  } catch {
    // Not the error envelope: its status says it.
  }
  return new Ended(uploadError("http", answer.status, msg));
}

/** One request; resolves to the finished `XMLHttpRequest`, rejects `Ended`. */
function request(method, url, headers, body, signal, onProgress) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new Ended(uploadError("aborted")));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open(method, url, true);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    const abort = () => xhr.abort();
    const done = () => signal?.removeEventListener("abort", abort);
    xhr.onload = () => {
      done();
      resolve(xhr);
    };
    xhr.onerror = xhr.ontimeout = () => {
      done();
      reject(new Ended(uploadError("network")));
    };
    xhr.onabort = () => {
      done();
      reject(new Ended(uploadError("aborted")));
    };
    if (onProgress) xhr.upload.onprogress = (event) => onProgress(event.loaded);
    signal?.addEventListener("abort", abort, { once: true });
    xhr.send(body ?? null);
  });
}

/** `Upload-Offset`, read. */
function offsetOf(xhr) {
  const offset = Number.parseInt(xhr.getResponseHeader("Upload-Offset") ?? "", 10);
  return Number.isSafeInteger(offset) && offset >= 0 ? offset : undefined;
}

/** Upload `file` through `client` (see `MediaGenClient.upload`). */
export async function upload(client, file, options) {
  const on = (name) => (typeof options?.[name] === "function" ? options[name] : null);
  const tell = { progress: on("onProgress"), created: on("onCreated"), waiting: on("onWaiting") };
  const signal = options?.signal ?? undefined;
  const resume = typeof options?.resume === "string" ? options.resume : null;
  const connection = client.connection;
  const offered = (await offersOf(connection, signal)).uploads();
  const size = file.size;
  const head = new Uint8Array(await file.slice(0, sniffBytes()).arrayBuffer());
  const [type, extension] = judgeFile(head, size, offered.maxVideoBytes);
  const name = typeof file.name === "string" && file.name !== "" ? file.name : `file.${extension}`;
  try {
    return { ...(await sendFile(connection, offered.path, file, name, resume, signal, tell)), type };
  } catch (failure) {
    if (failure instanceof Ended) throw failure.error;
    throw failure;
  }
}

/** The headers every tus request carries: the version, and the token. */
async function tusHeaders(connection) {
  const headers = { "Tus-Resumable": "1.0.0" };
  const token = await connection.token();
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/** The bytes of `file`, from where the gateway stands to the end: `{ url, expiresAt }`. */
async function sendFile(connection, path, file, name, resume, signal, tell) {
  const size = file.size;
  const plan = new UploadPlan(size, resume ?? undefined);
  // The last answer: a refusal's message is read from it.
  let last = null;
  const hear = (step) => {
    for (const [what, value] of step.news) {
      if (what === "created") tell.created?.(value);
      else if (what === "progress") tell.progress?.(value, size);
      else tell.waiting?.(value);
    }
  };
  // One request of the plan's; the plan's next step from what it got.
  const send = async (method, url, headers, body, onProgress) => {
    try {
      last = await request(method, url, headers, body, signal, onProgress);
    } catch (failure) {
      if (!isNetwork(failure)) throw failure;
      return plan.next(null);
    }
    return plan.next({
      status: last.status,
      offset: offsetOf(last),
      location: last.getResponseHeader("Location") ?? undefined,
      expires: last.getResponseHeader("Upload-Expires") ?? undefined,
    });
  };
  try {
    let step = plan.next(undefined);
    for (;;) {
      hear(step);
      switch (step.kind) {
        case "done":
          return { url: step.url, expiresAt: step.expires ? new Date(step.expires) : null };
        case "fail":
          if (step.why === "network") throw new Ended(uploadError("network"));
          if (step.why === "no-address") {
            throw new Ended(uploadError("http", last?.status, "the gateway named no upload address"));
          }
          throw last === null ? new Ended(uploadError("http")) : refused(last);
        case "wait":
          try {
            await sleep(step.ms, signal);
          } catch {
            throw new Ended(uploadError("aborted"));
          }
          step = plan.next("waited");
          break;
        case "create": {
          const headers = await tusHeaders(connection);
          headers["Upload-Length"] = String(size);
          headers["Upload-Metadata"] = `filename ${btoa(uploadName(name))}`;
          step = await send("POST", connection.baseUrl + path, headers, null);
          break;
        }
        case "ask":
          step = await send("HEAD", step.url, await tusHeaders(connection), null);
          break;
        default: {
          const { url, from, to } = step;
          const headers = await tusHeaders(connection);
          headers["Upload-Offset"] = String(from);
          headers["Content-Type"] = "application/offset+octet-stream";
          step = await send("PATCH", url, headers, file.slice(from, to), (sent) => tell.progress?.(from + sent, size));
        }
      }
    }
  } finally {
    plan.free();
  }
}
