// The testing entry (`@media-gen/widgets/testing`): the service as a model,
// run in this page or in Node, so the client, `watch` and both widgets
// work with no server and no network. See the README, "Try it with no
// server".

/** The base URL the test service answers at unless told otherwise. */
export declare const TEST_BASE_URL: string;
/** Where the Service Worker is served unless told otherwise (the site's root). */
export declare const TEST_WORKER_URL: string;

/** Faults injected on purpose, as shares of the `/v1` calls (0 to 1,
 * together at most 1), as the sandbox's `/sandbox/faults` takes them. */
export interface TestFaults {
  /** Answered 500 after the work is done (a submit's tasks are made). */
  http_500?: number;
  /** Answered 503 before any work. */
  http_503?: number;
  /** Answered 429 with `Retry-After` before any work. */
  http_429?: number;
  /** The `Retry-After` seconds of a 429 (default 1). */
  retry_after_secs?: number;
  /** The connection dropped after the work is done. */
  drop_connection?: number;
  /** A malformed body after the work is done. */
  malformed_body?: number;
  /** A business error (a non-zero `code` in HTTP 200) before any work. */
  business_error?: number;
  /** Milliseconds every call is held back (at most 60,000). */
  latency_ms?: number;
  /** Only the next this many calls are faulted. */
  limit?: number | null;
}

/** How a test service starts. */
export interface TestServiceOptions {
  /** Where it answers (default `https://media-gen.test`, a host that
   * resolves nowhere: nothing can leave by mistake). Give the widgets and
   * the client this as their `baseUrl`. */
  baseUrl?: string;
  /** How fast tasks run: `"instant"` (ended at the first read; the
   * default), `"realistic"` (about four seconds, as the service), or
   * milliseconds. */
  speed?: "instant" | "realistic" | number;
  /** Faults from the start. */
  faults?: TestFaults;
  /** The same seed gives the same task ids. */
  seed?: number;
  /** Only requests under these paths of `baseUrl` are the service's (for
   * a service at a site's own origin, beside its files); default: all. */
  paths?: string[];
  /** Where the Service Worker is served (default `/media-gen-test-worker.js`). */
  worker?: string;
  /** `"worker"` (in a browser, the default) or `"fetch"` (wrap `fetch`
   * only, as in Node: result files an `<img>` loads are not answered). */
  intercept?: "worker" | "fetch";
}

/** A submit as the service received it. */
export interface TestSubmission {
  /** The call's kind. */
  kind: "image_to_video" | "video_translate" | "image_generate" | string;
  /** Its body, as sent. */
  body: unknown;
}

/** How a task ends: `{ fail: "message" }`, or `{}` to succeed. */
export interface TestOutcome {
  fail?: string;
}

/** A running test service. */
export interface TestService {
  /** Its base URL. */
  readonly baseUrl: string;
  /** Every submit received, oldest first, each body exactly as sent. */
  submissions(): TestSubmission[];
  /** The next task made ends so, whatever its request says. */
  next(outcome?: TestOutcome): void;
  /** Task `taskId` of `kind` ends so; whether it is known. */
  outcome(kind: string, taskId: string, outcome?: TestOutcome): boolean;
  /** Inject these faults from now on (throws naming what is wrong). */
  faults(faults?: TestFaults): void;
  /** Move its clock `ms` on: for a page under a fake clock. */
  advance(ms: number): void;
  /** Forget every task, submission and fault set since the start. */
  reset(): void;
  /** Stop answering: the page's requests go to the network again. */
  stop(): Promise<void>;
}

/** Start a test service; resolves once the page's requests to its base
 * URL reach it (rejects naming a wrong option). */
export declare function startTestService(options?: TestServiceOptions): Promise<TestService>;
