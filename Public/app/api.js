// The JSON API client: one function per route of docs/API.md, errors as ApiError.
//
// Every request carries the bearer token when one is known. A 401 asks the page for the
// token (all requests waiting on that answer share one prompt), keeps it, and retries; a
// token the server refuses is forgotten, and the person is asked again.

const TOKEN_KEY = "hlsq.token";

/**
 * A refused or failed request: the API's `{"error": {code, message, reason?, field?}}`,
 * or a network failure (status 0, code "network").
 */
export class ApiError extends Error {
  /**
   * @param {number} status HTTP status, 0 when the server could not be reached
   * @param {{code: string, message: string, reason?: string, field?: string, diagnostics?: object[]}} body
   */
  constructor(status, body) {
    super(body.message);
    this.name = "ApiError";
    this.status = status;
    this.code = body.code;
    this.reason = body.reason ?? null;
    this.field = body.field ?? null;
    this.diagnostics = body.diagnostics ?? [];
  }
}

/** @returns {string|null} the token kept in this browser, if any */
export function storedToken() {
  return localStorage.getItem(TOKEN_KEY);
}

/** @param {string|null} token the token to keep, or null to forget it */
export function storeToken(token) {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
}

/**
 * Creates the client.
 * @param {{askForToken: () => Promise<string>}} options `askForToken` is called on a 401
 *   and resolves with the token the person typed.
 */
export function createApi({ askForToken }) {
  let pendingTokenRequest = null;

  function tokenPrompt(refused) {
    pendingTokenRequest ??= askForToken(refused).then((token) => {
      storeToken(token);
      return token;
    }).finally(() => { pendingTokenRequest = null; });
    return pendingTokenRequest;
  }

  /**
   * Sends one request; resolves with the parsed JSON (null for 204), rejects with ApiError.
   * @param {string} method
   * @param {string} path
   * @param {{json?: unknown, text?: string, contentType?: string}} [options]
   */
  async function request(method, path, options = {}) {
    const headers = { Accept: "application/json" };
    const token = storedToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    let body;
    if (options.json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(options.json);
    } else if (options.text !== undefined) {
      headers["Content-Type"] = options.contentType ?? "text/plain";
      body = options.text;
    }
    let response;
    try {
      response = await fetch(path, { method, headers, body });
    } catch (error) {
      throw new ApiError(0, { code: "network", message: `The server did not answer (${error.message}).` });
    }
    if (response.status === 401) {
      if (token && storedToken() === token) storeToken(null);
      await tokenPrompt(Boolean(token));
      return request(method, path, options);
    }
    if (response.status === 204) return null;
    const type = response.headers.get("Content-Type") ?? "";
    const payload = type.includes("json") ? await response.json().catch(() => null) : await response.text();
    if (!response.ok) {
      const error = payload?.error ?? {
        code: `http${response.status}`,
        message: `${method} ${path} answered ${response.status} ${response.statusText}`,
      };
      throw new ApiError(response.status, error);
    }
    return payload;
  }

  const queuePath = (queueId) => `/api/queues/${encodeURIComponent(queueId)}`;
  const itemPath = (queueId, itemId) => `${queuePath(queueId)}/items/${encodeURIComponent(itemId)}`;

  return {
    request,
    /** @returns {Promise<{queues: object[]}>} */
    listQueues: () => request("GET", "/api/queues"),
    /** @param {string} queueId @returns {Promise<object>} the queue snapshot */
    getQueue: (queueId) => request("GET", queuePath(queueId)),
    /** @param {string} name */
    createQueue: (name) => request("POST", "/api/queues", { json: { name } }),
    /** @param {string} queueId @param {object} changes name and settings members */
    updateQueue: (queueId, changes) => request("PATCH", queuePath(queueId), { json: changes }),
    /** @param {string} queueId */
    deleteQueue: (queueId) => request("DELETE", queuePath(queueId)),
    /**
     * @param {string} queueId
     * @param {{url: string, title?: string, after?: string|null, index?: number}} item
     */
    addItem: (queueId, item) => request("POST", `${queuePath(queueId)}/items`, { json: item }),
    /** @returns {Promise<object>} the full item */
    getItem: (queueId, itemId) => request("GET", itemPath(queueId, itemId)),
    /** @param {object} changes title, preferences, selectedMedia or loop */
    updateItem: (queueId, itemId, changes) => request("PATCH", itemPath(queueId, itemId), { json: changes }),
    removeItem: (queueId, itemId) => request("DELETE", itemPath(queueId, itemId)),
    /** @param {{after?: string|null, index?: number}} position */
    moveItem: (queueId, itemId, position) => request("POST", `${itemPath(queueId, itemId)}/move`, { json: position }),
    /**
     * Imports a playlist given as text (with an optional base URL for relative entries)
     * or by URL.
     * @param {string} queueId
     * @param {{text?: string, url?: string, base?: string, after?: string}} source
     */
    importPlaylist: (queueId, source) => request("POST", `${queuePath(queueId)}/import`, { json: source }),
    /** @returns {string} the export URL (a plain link; the browser downloads it) */
    exportURL: (queueId) => `${queuePath(queueId)}/export.m3u8`,
    /**
     * @param {string} queueId
     * @param {{command: string}} command play, pause, advance, previous, jump, seek, skip, setRate…
     */
    command: (queueId, command) => request("POST", `${queuePath(queueId)}/commands`, { json: command }),
  };
}
