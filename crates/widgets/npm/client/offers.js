// What a site offers beyond the documented calls (`/capabilities`), asked
// once per page for each site: the widgets' build, a submit form's file
// controls and every upload read the same answer. An ask that fails is not
// kept: the next one asks again.
import { capabilitiesPath } from "../media_gen_client.js";
import { send, untilAborted } from "./call.js";

/** Each site's answer (a Promise of `send`'s result), by base URL. */
const asked = new Map();

/** The answer of `connection`'s site to `/capabilities`: `{ data, uploads }`
 * as `send` gives it. `signal` stops this caller's wait, not the ask others
 * share. */
export function offersOf(connection, signal) {
  const site = connection.baseUrl;
  let answer = asked.get(site);
  if (answer === undefined) {
    answer = send(connection, "capabilities", capabilitiesPath(), undefined, undefined);
    asked.set(site, answer);
    answer.catch(() => {
      if (asked.get(site) === answer) asked.delete(site);
    });
  }
  return untilAborted(answer, signal);
}
