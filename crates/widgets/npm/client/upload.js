// `client.upload`: a file to the site's gateway (tus 1.0, resumable, in
// pieces), each `XMLHttpRequest` here (the one browser call that reports
// an upload's bytes as they leave). Whether the service would take the file,
// what each answer means and how long to wait are the client module's
// (the contract's `tus` and `media_type`, the app's uploader's rules too).
import {
  afterHead,
  afterPatch,
  chunkBytes,
  judgeFile,
  sniffBytes,
  uploadError,
  uploadMade,
  uploadName,
  uploadWait,
} from "../media_gen_client.js";
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
  const report = (sent) => tell.progress?.(sent, size);
  const create = async () => {
    const headers = await tusHeaders(connection);
    headers["Upload-Length"] = String(size);
    headers["Upload-Metadata"] = `filename ${btoa(uploadName(name))}`;
    const made = await request("POST", connection.baseUrl + path, headers, null, signal);
    const location = made.getResponseHeader("Location");
    if (!uploadMade(made.status)) throw refused(made);
    if (!location) throw new Ended(uploadError("http", made.status, "the gateway named no upload address"));
    return location;
  };
  // Where the upload stands: its offset, `null` when gone, `undefined` when the gateway cannot say now.
  const stands = async (url) => {
    const asked = await request("HEAD", url, await tusHeaders(connection), null, signal);
    switch (afterHead(asked.status)) {
      case "stands":
        return offsetOf(asked) ?? 0;
      case "gone":
        return null;
      case "passing":
        return undefined;
      default:
        throw refused(asked);
    }
  };
  let url = resume;
  let offset = 0;
  if (url !== null) {
    const at = await stands(url).catch((failure) => {
      if (isNetwork(failure)) return undefined;
      throw failure;
    });
    if (at === undefined) throw new Ended(uploadError("network"));
    if (at === null) url = null;
    else offset = at;
  }
  if (url === null) url = await create();
  tell.created?.(url);
  report(offset);
  let failures = 0;
  let expires = null;
  const chunk = chunkBytes();
  while (offset < size) {
    const end = Math.min(offset + chunk, size);
    const headers = await tusHeaders(connection);
    headers["Upload-Offset"] = String(offset);
    headers["Content-Type"] = "application/offset+octet-stream";
    const from = offset;
    let after;
    let answer = null;
    try {
      answer = await request("PATCH", url, headers, file.slice(offset, end), signal, (sent) => report(from + sent));
      after = afterPatch(answer.status);
    } catch (failure) {
      if (!isNetwork(failure)) throw failure;
      after = "wait";
    }
    if (after === "kept") {
      offset = offsetOf(answer) ?? end;
      expires = answer.getResponseHeader("Upload-Expires");
      if (failures > 0) tell.waiting?.(false);
      failures = 0;
      continue;
    }
    if (after === "refused") throw refused(answer);
    if (after === "wait") {
      failures += 1;
      const wait = uploadWait(failures);
      if (wait === undefined) throw new Ended(uploadError("network"));
      tell.waiting?.(true);
      try {
        await sleep(wait, signal);
      } catch {
        throw new Ended(uploadError("aborted"));
      }
    }
    // Where the gateway stands decides where to go on from.
    let at;
    try {
      at = await stands(url);
    } catch (failure) {
      if (!isNetwork(failure)) throw failure;
    }
    if (at === null) {
      url = await create();
      tell.created?.(url);
      offset = 0;
    } else if (at !== undefined) {
      offset = at;
    }
    report(offset);
  }
  tell.waiting?.(false);
  return { url, expiresAt: expires ? new Date(expires) : null };
}
