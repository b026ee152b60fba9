/**
 * The default network of the client: a `fetch`-shaped function over node:http/https with
 * keep-alive sockets. Node's built-in fetch (undici) costs about three times the CPU per listing
 * page (measured for issue #15: 100 pages of 100 numbers, 330 ms of CPU against 105 ms), which is
 * most of a 10,000-number plan's time once the file is read, and of an export of 100,000.
 *
 * It does what the client needs of fetch and no more: method, headers, a string body, an
 * AbortSignal (a timeout aborts the request, headers or body), redirects as fetch does them
 * (`follow` at most 20, `manual` hands back the 3xx, `error` refuses), and a standard `Response`
 * whose body streams (so a reader may stop early: cancelling it destroys the socket). Sockets are
 * kept alive per origin; idle ones do not hold the process open.
 * Left out: request streams, cookies, caching, proxies from the environment, HTTP/2.
 */
import http from "node:http";
import https from "node:https";
import type { FetchLike } from "./request";

const agents = {
  "http:": new http.Agent({ keepAlive: true, scheduling: "lifo" }),
  "https:": new https.Agent({ keepAlive: true, scheduling: "lifo" }),
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/**
 * The request's headers as a plain object, names in lower case. A plain object or a list of pairs
 * (what the client sends) is read as it is: the global `Headers` is undici's, and its first use
 * loads all of undici (40–80 ms and some 9 MB of a CLI run that never needs it).
 */
function headersOf(init: RequestInit): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (name: string, value: string): void => {
    // As Headers: the name in lower case, the value without surrounding whitespace.
    const k = name.toLowerCase();
    const v = value.trim();
    out[k] = k in out ? `${out[k]}, ${v}` : v;
  };
  const given = init.headers as { forEach?: unknown } | undefined | null;
  if (given === undefined || given === null) return out;
  if (Array.isArray(given)) for (const [k, v] of given as [string, string][]) add(k, String(v));
  // A Headers instance (the caller has loaded undici already): its own iteration.
  else if (typeof given.forEach === "function") (given as Headers).forEach((v, k) => add(k, v));
  else for (const [k, v] of Object.entries(given as unknown as Record<string, string>)) add(k, String(v));
  return out;
}

/**
 * The response's headers, read-only, with what the client and its callers use of `Headers`
 * (`get`, `has`, iteration), built from the raw pairs without loading undici (see {@link headersOf}).
 * Names are case-insensitive; repeated fields are joined with ", " as `Headers.get` does.
 */
class ResponseHeaders {
  readonly #map = new Map<string, string>();
  constructor(raw: readonly string[]) {
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i].toLowerCase();
      const prev = this.#map.get(name);
      this.#map.set(name, prev === undefined ? raw[i + 1] : `${prev}, ${raw[i + 1]}`);
    }
  }
  get(name: string): string | null {
    return this.#map.get(name.toLowerCase()) ?? null;
  }
  has(name: string): boolean {
    return this.#map.has(name.toLowerCase());
  }
  forEach(fn: (value: string, name: string, headers: this) => void): void {
    for (const [k, v] of this.entries()) fn(v, k, this);
  }
  /** Sorted by name, as `Headers` iterates. */
  entries(): IterableIterator<[string, string]> {
    return [...this.#map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))[Symbol.iterator]();
  }
  keys(): IterableIterator<string> {
    return [...this.entries()].map(([k]) => k)[Symbol.iterator]();
  }
  values(): IterableIterator<string> {
    return [...this.entries()].map(([, v]) => v)[Symbol.iterator]();
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/** One exchange, no redirect handling. */
function exchange(url: URL, method: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal | undefined): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const lib = url.protocol === "https:" ? https : url.protocol === "http:" ? http : undefined;
    if (!lib) return reject(new TypeError(`unsupported protocol ${url.protocol}`));
    const sendHeaders = { ...headers };
    if (body !== undefined) sendHeaders["content-length"] = String(Buffer.byteLength(body));
    const req = lib.request(url, { method, headers: sendHeaders, agent: agents[url.protocol as "http:" | "https:"] });
    const onAbort = (): void => {
      req.destroy(abortReason(signal as AbortSignal) as Error);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    req.on("response", (res) => {
      // The timeout still covers the body: abort destroys the response stream too.
      const drop = (): void => signal?.removeEventListener("abort", onAbort);
      if (signal) {
        const abortBody = (): void => {
          res.destroy(abortReason(signal) as Error);
        };
        signal.removeEventListener("abort", onAbort);
        signal.addEventListener("abort", abortBody, { once: true });
        res.once("close", () => signal.removeEventListener("abort", abortBody));
      } else drop();
      resolve(res);
    });
    req.on("error", (err) => {
      signal?.removeEventListener("abort", onAbort);
      reject(signal?.aborted ? abortReason(signal) : new TypeError("fetch failed", { cause: err }));
    });
    req.end(body);
  });
}

/**
 * The body as a web stream, with backpressure (the socket pauses while 16 chunks wait unread) and
 * cancel (destroys the socket). Lighter than `Readable.toWeb`, which doubled the cost of a page.
 */
function bodyStream(res: http.IncomingMessage): ReadableStream<Uint8Array> {
  // Once the stream is cancelled, closed or errored, its controller refuses every call with
  // ERR_INVALID_STATE, thrown from inside the socket's event handler: an uncaught exception that
  // killed the CLI on every redirect and at the body cap (issue #22). So the handlers stop first.
  let settled = false;
  const stop = (): void => {
    settled = true;
    res.removeAllListeners("data");
    res.removeAllListeners("end");
    res.removeAllListeners("aborted");
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const fail = (err: Error): void => {
          if (settled) return;
          stop();
          controller.error(new TypeError("terminated", { cause: err }));
        };
        res.on("data", (chunk: Buffer) => {
          if (settled) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 1) <= 0) res.pause();
        });
        res.on("end", () => {
          if (settled) return;
          stop();
          controller.close();
        });
        // As fetch: a body cut short fails the read with a TypeError.
        res.on("error", fail);
        res.on("aborted", () => fail(new Error("connection closed mid-body")));
      },
      pull() {
        res.resume();
      },
      cancel() {
        stop();
        res.destroy();
      },
    },
    new CountQueuingStrategy({ highWaterMark: 16 }),
  );
}

/**
 * The part of `Response` the client and its callers use: status, headers, url, a streaming `body`
 * and `text`/`json`/`arrayBuffer`. `text()` without touching `body` collects the socket's buffers
 * and decodes once, which is most of the saving over undici's Response.
 */
class NodeResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly url: string;
  readonly redirected = false;
  readonly type = "basic";
  readonly #res: http.IncomingMessage;
  readonly #nullBody: boolean;
  #stream: ReadableStream<Uint8Array> | undefined;
  #used = false;

  constructor(res: http.IncomingMessage, url: URL, method: string) {
    this.#res = res;
    this.status = res.statusCode ?? 0;
    this.ok = this.status >= 200 && this.status < 300;
    this.statusText = res.statusMessage ?? "";
    this.url = url.href;
    this.headers = new ResponseHeaders(res.rawHeaders) as unknown as Headers;
    this.#nullBody = this.status === 204 || this.status === 304 || this.status < 200 || method === "HEAD";
    if (this.#nullBody) res.resume();
    // Until someone reads the body, an error on it must not go unhandled.
    res.on("error", () => undefined);
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#nullBody) return null;
    this.#stream ??= bodyStream(this.#res);
    return this.#stream;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const buf = await this.#bytes();
    return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    const text = (await this.#bytes()).toString("utf8");
    // As fetch's text(): a UTF-8 byte-order mark is dropped.
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  #bytes(): Promise<Buffer> {
    if (this.#used) return Promise.reject(new TypeError("Body is unusable: Body has already been read"));
    this.#used = true;
    if (this.#nullBody) return Promise.resolve(Buffer.alloc(0));
    if (this.#stream) return new Response(this.#stream).arrayBuffer().then((b) => Buffer.from(b));
    const res = this.#res;
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
      // As fetch: a body cut short (or a timeout mid-body) fails the read.
      res.on("error", (err) => reject(new TypeError("terminated", { cause: err })));
      res.on("aborted", () => reject(new TypeError("terminated", { cause: new Error("connection closed mid-body") })));
      res.on("close", () => {
        if (!res.complete) reject(new TypeError("terminated", { cause: new Error("connection closed mid-body") }));
      });
    });
  }
}

/** `fetch`, for what the client uses of it, over node:http(s) with keep-alive. */
export const nodeHttpFetch: FetchLike = async (input, init) => {
  let url = new URL(input);
  let method = (init.method ?? "GET").toUpperCase();
  let body = typeof init.body === "string" ? init.body : init.body == null ? undefined : String(init.body);
  const headers = headersOf(init);
  const signal = init.signal ?? undefined;
  const mode = init.redirect ?? "follow";
  for (let hops = 0; ; hops++) {
    const res = await exchange(url, method, headers, body, signal);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (!REDIRECTS.has(status) || location === undefined || mode === "manual") return new NodeResponse(res, url, method) as unknown as Response;
    res.resume();
    if (mode === "error") throw new TypeError("fetch failed", { cause: new Error(`redirect to ${location} refused (redirect: "error")`) });
    if (hops >= MAX_REDIRECTS) throw new TypeError("fetch failed", { cause: new Error("redirect count exceeded") });
    const next = new URL(location, url);
    // As fetch: 303 turns anything but HEAD into GET; 301/302 turn POST into GET; the body goes.
    if ((status === 303 && method !== "HEAD") || ((status === 301 || status === 302) && method === "POST")) {
      method = "GET";
      body = undefined;
      delete headers["content-type"];
    }
    // As fetch: credentials are not carried to another origin.
    if (next.origin !== url.origin) delete headers.authorization;
    url = next;
  }
};
