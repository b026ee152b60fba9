/**
 * A hostile Wavix API: an HTTP proxy on a random loopback port in front of the real simulator, that
 * lies, lags, drops and races on request (issue #13). Each test sets a `Behaviour`; every request is
 * recorded (method, path, query) so tests can count what the client sent.
 *
 * Faithful to: the wire as the client meets it (HTTP/1.1 over loopback, real sockets, status codes,
 * headers, chunked bodies, connections destroyed mid-request), and the account's state: whatever the
 * proxy does not answer itself goes to the simulator, so writes really commit and the simulator's
 * store is the referee of duplicates and lost settings.
 * Leaves out: TLS, HTTP/2 and keep-alive subtleties; request bodies are forwarded as read (no
 * streaming upload); a rewritten answer is re-serialised JSON (so header `content-length` is fresh).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ProxyRequest {
  method: string;
  /** Path without the query. */
  path: string;
  /** The query as the client sent it. */
  query: URLSearchParams;
  /** The query forwarded to the simulator (a `before` hook may change it). */
  forward: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** 1-based count of requests seen so far, this one included. */
  n: number;
}

/** An answer the proxy gives itself instead of forwarding. */
export type Reply =
  | { status: number; headers?: Record<string, string>; body?: unknown }
  | { drop: true }
  | { write: (res: http.ServerResponse) => void };

export interface Behaviour {
  /** Before forwarding: may wait (lag, a barrier), change the account (a race) or answer itself. */
  before?: (req: ProxyRequest) => Promise<Reply | void> | Reply | void;
  /** Rewrites a JSON answer of the simulator (lies). Return the body to send. */
  rewrite?: (req: ProxyRequest, status: number, body: unknown) => unknown;
  /** After forwarding: e.g. drop the connection although the write committed. */
  after?: (req: ProxyRequest, status: number) => "drop" | void;
}

export interface HostileServer {
  url: string;
  requests: ProxyRequest[];
  set(behaviour: Behaviour): void;
  /** Bytes the proxy managed to write for answers it streamed itself (`write` replies). */
  streamedBytes: { value: number };
  close(): Promise<void>;
}

export async function startHostileServer(upstream: string, behaviour: Behaviour = {}): Promise<HostileServer> {
  let current = behaviour;
  const requests: ProxyRequest[] = [];
  const streamedBytes = { value: 0 };
  const server = http.createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on("data", (c: Buffer) => chunks.push(c));
    raw.on("end", () => {
      const url = new URL(raw.url ?? "/", "http://proxy");
      const req: ProxyRequest = {
        method: raw.method ?? "GET",
        path: url.pathname,
        query: new URLSearchParams(url.searchParams),
        forward: new URLSearchParams(url.searchParams),
        headers: raw.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        n: requests.length + 1,
      };
      requests.push(req);
      handle(req, url, res, current, streamedBytes).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    streamedBytes,
    set(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  async function handle(req: ProxyRequest, url: URL, res: http.ServerResponse, b: Behaviour, counter: { value: number }): Promise<void> {
    const own = await b.before?.(req);
    if (own) {
      if ("drop" in own) return void res.destroy();
      if ("write" in own) {
        const write = res.write.bind(res);
        res.write = ((chunk: Buffer | string, ...rest: never[]) => {
          counter.value += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
          return write(chunk, ...rest);
        }) as typeof res.write;
        return own.write(res);
      }
      res.writeHead(own.status, { "content-type": "application/json", ...own.headers });
      return void res.end(own.body === undefined ? undefined : JSON.stringify(own.body));
    }
    const headers: Record<string, string> = {};
    for (const name of ["authorization", "content-type", "accept"]) {
      const v = req.headers[name];
      if (typeof v === "string") headers[name] = v;
    }
    const search = req.forward.toString();
    const answer = await fetch(`${upstream}${url.pathname}${search ? `?${search}` : ""}`, {
      method: req.method,
      headers,
      body: req.body === "" ? undefined : req.body,
      redirect: "manual",
    });
    let text = await answer.text();
    const type = answer.headers.get("content-type") ?? "application/json";
    if (b.rewrite && type.includes("json") && text !== "") {
      text = JSON.stringify(b.rewrite(req, answer.status, JSON.parse(text)));
    }
    if (b.after?.(req, answer.status) === "drop") return void res.destroy();
    const out: Record<string, string> = { "content-type": type };
    const retryAfter = answer.headers.get("retry-after");
    if (retryAfter !== null) out["retry-after"] = retryAfter;
    res.writeHead(answer.status, out);
    res.end(text);
  }
}

// ---- behaviours the reliability tests use ----

/** The list property of a listing answer, if the request is a listing. */
function listOf(body: unknown): unknown[] | undefined {
  if (body === null || typeof body !== "object") return undefined;
  const o = body as Record<string, unknown>;
  const list = o.items ?? o.sub_organizations;
  return Array.isArray(list) ? list : undefined;
}

export type PaginationLie = "claims-one-page" | "empty-after-page-1" | "no-pagination" | "repeats-page-1";

/**
 * Lying pagination on the listings at `paths` (issue #13, item 1): `total_pages` says 1 while
 * `total` is true; pages after the first come back empty; `pagination` is missing; every page is page
 * 1 again (with `current_page` rewritten to the page asked, so only the repeated ids give it away).
 */
export function lyingPagination(mode: PaginationLie, paths: readonly string[] = ["/v1/numbers", "/v1/sub-organizations"]): Behaviour {
  return {
    before: (req) => {
      if (mode === "repeats-page-1" && req.method === "GET" && paths.includes(req.path)) {
        req.forward.set("page", "1");
      }
    },
    rewrite: (req, status, body) => {
      if (status !== 200 || req.method !== "GET" || !paths.includes(req.path) || listOf(body) === undefined) return body;
      const o = { ...(body as Record<string, unknown>) };
      const p = (o.pagination ?? {}) as Record<string, unknown>;
      const asked = Number(req.query.get("page") ?? 1);
      if (mode === "claims-one-page") o.pagination = { ...p, total_pages: 1 };
      if (mode === "no-pagination") delete o.pagination;
      if (mode === "empty-after-page-1" && asked > 1) {
        for (const k of ["items", "sub_organizations"]) if (Array.isArray(o[k])) o[k] = [];
      }
      if (mode === "repeats-page-1") o.pagination = { ...p, current_page: asked };
      return o;
    },
  };
}
