// One call to the service: `fetch` with a per-attempt timeout, the caller's
// `AbortSignal`, and waits between attempts; whether the answer holds what
// was asked, whether to try again and the error to end with are the client
// module's (`Call`: the contract's envelope rules and retry plan).
import { Call, abortedError, relayHeader } from "../media_gen_client.js";

/** Wait `ms`, or reject with the cancelled-call error when `signal` aborts. */
export function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortedError());
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(abortedError());
    };
    signal?.addEventListener("abort", stop, { once: true });
  });
}

/** `promise`, or the cancelled-call error as soon as `signal` aborts. */
export function untilAborted(promise, signal) {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortedError());
  return new Promise((resolve, reject) => {
    const stop = () => reject(abortedError());
    signal.addEventListener("abort", stop, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", stop));
  });
}

/** The answer's JSON as the browser reads it (`undefined` when it is none). */
function json(bytes) {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

/**
 * Send one call to `connection`'s `path`: `expect` says what the answer
 * holds (`"languages"`, `"task"`, `"capabilities"`, or a kind for its
 * submit), `body` is a submit's JSON. Resolves to `{ data, taskIds,
 * uploads, relay }`; rejects with the package's error.
 */
export async function send(connection, expect, path, body, signal) {
  const url = connection.baseUrl + path;
  const call = new Call(expect, url, Date.now());
  try {
    for (;;) {
      if (signal?.aborted) throw abortedError();
      const token = await connection.token();
      const headers = { Accept: "application/json" };
      if (token !== null) headers.Authorization = `Bearer ${token}`;
      if (call.isSubmit) headers["Content-Type"] = "application/json";
      const timeout = AbortSignal.timeout(call.attemptMs);
      let response = null;
      let bytes = null;
      let wait;
      try {
        response = await fetch(url, {
          method: call.isSubmit ? "POST" : "GET",
          headers,
          body: call.isSubmit ? body : undefined,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        bytes = new Uint8Array(await response.arrayBuffer());
      } catch {
        if (signal?.aborted) throw abortedError();
        // Throws the call's end when the plan gives up.
        wait = call.failed(timeout.aborted, Date.now(), Math.random());
      }
      if (bytes !== null) {
        const body = json(bytes);
        wait = call.answered(response.status, response.headers.get("retry-after") ?? undefined, body, Date.now(), Math.random());
        if (wait === undefined) {
          return {
            data: body?.data,
            taskIds: call.taskIds(),
            uploads: expect === "capabilities" ? offer(call) : null,
            relay: response.headers.get(relayHeader()),
          };
        }
      }
      await sleep(wait, signal);
    }
  } finally {
    call.free();
  }
}

/** Where a `/capabilities` answer says the site takes uploads, as a
 * function giving it, or throwing the error naming `baseUrl` if none. */
function offer(call) {
  try {
    const offered = call.uploads();
    return () => offered;
  } catch (error) {
    return () => {
      throw error;
    };
  }
}
