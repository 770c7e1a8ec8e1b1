// Where calls go and the token they carry: `{ baseUrl, token?, getToken? }`,
// checked by the client module (an `Error` with `kind: "options"` naming
// the field), the token asked for before each call.
import { baseUrlOf, isPageToken } from "../media_gen_client.js";

export class Connection {
  constructor(options) {
    /** The base URL, without a trailing slash ("" for this page's origin). */
    this.baseUrl = baseUrlOf(options);
    this.getToken = typeof options.getToken === "function" ? options.getToken : null;
    this.fixedToken = typeof options.token === "string" && options.token !== "" ? options.token : null;
    /** The page token the last call carried: what the relay's stream names
     * in its address (an `EventSource` sends no `Authorization`). */
    this.pageToken = null;
  }

  /** Whether calls carry a token (given, or from `getToken`). */
  get carriesToken() {
    return this.getToken !== null || this.fixedToken !== null;
  }

  /** The token a call carries now; a `getToken` that throws or gives no
   * string means none for that call. */
  async token() {
    let token = this.fixedToken;
    if (this.getToken !== null) {
      try {
        const given = await this.getToken();
        token = typeof given === "string" && given !== "" ? given : null;
      } catch {
        token = null;
      }
    }
    this.pageToken = token !== null && isPageToken(token) ? token : null;
    return token;
  }
}
