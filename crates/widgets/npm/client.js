// The client entry (`@media-gen/widgets/client`): the typed client, the
// validation rules, `watch`, `upload` and the errors. The client's I/O is
// here, in JavaScript (`client/`); its rules and decisions are the small
// client module's. No views: a page that only calls the service loads
// only this.
import init from "./media_gen_client.js";

export {
  shownUrl,
  validate,
  validateImageGenerate,
  validateImageToVideo,
  validateVideoTranslate,
} from "./media_gen_client.js";
export { createClient, MediaGenClient, TaskWatch } from "./client/media-gen-client.js";

/** Load the client module; call (and await) once before anything else. */
export default init;

const ERROR_KINDS = ["network", "timeout", "http", "business", "shape", "aborted", "options"];

/** Whether `value` is an error this package threw or rejected with. */
export function isMediaGenError(value) {
  return value instanceof Error && ERROR_KINDS.includes(value.kind) && typeof value.retryable === "boolean";
}

/** The errors this package throws and rejects with, for `instanceof`:
 * `error instanceof MediaGenError` is `isMediaGenError(error)`, whichever
 * of the package's modules made the error. */
export class MediaGenError extends Error {
  static [Symbol.hasInstance](value) {
    return isMediaGenError(value);
  }
}
