/**
 * `startSimulator`: the local Wavix API on node:http. Per request: latency, faults, authentication
 * (seed part 5), routing, scope and feature checks, the operation, the request log.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_SIM_API_KEY, demoSeed } from "./demo";
import { defaultFaultBody, FaultEngine, validateRule } from "./faults";
import { badRequest, forbidden, json, notFound, type SimResponse, unauthorized, ValidationFailure, validationError } from "./http";
import { matchRoute, type RouteContext } from "./routes";
import { SeededRandom } from "./rng";
import { SimStore } from "./store";
import { checkRequest } from "./request-schemas";
import { applyVariations, type SimVariation } from "./variations";
import { recordViolation, violationsRecorded, type ContractViolation } from "./violations";
import { checkResponse, type ResponseSchemaName } from "../client/response-schemas";
import type { FaultRule, Scope, ScopeLevel, SimApiKey, SimRateLimit, SimRequestLogEntry, SimSeed, SimulatorOptions } from "./types";

/** A running simulator. */
export interface Simulator {
  /** Base URL, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  url: string;
  port: number;
  /** The in-memory account; tests may read and mutate it. */
  store: SimStore;
  /** Requests answered (or dropped: status 0), in completion order. Never holds a key. */
  log: SimRequestLogEntry[];
  /**
   * Contract violations this simulator saw: requests breaking `schemas/api/*.request.schema.json`
   * (unless expected) and, when responses are checked, answers of its own breaking the response
   * schemas. The test suite's global check collects the same from every process.
   */
  violations: ContractViolation[];
  /** Replace the fault rules; their counters start again. */
  setFaults(rules: FaultRule[]): void;
  /**
   * From now on, requests breaking the request schemas are sent on purpose (see the option
   * `expectBadRequests`): still answered 400, not recorded by the suite's contract check.
   */
  expectBadRequests(on?: boolean): void;
  /**
   * Resolves once no request is being handled (none waiting out a delay or latency, none being
   * answered): a test whose client went away mid-request (a killed process) waits here, so a
   * request it held cannot land in the next test's log.
   */
  idle(): Promise<void>;
  /** Stop listening, drop open connections and pending asynchronous changes. */
  close(): Promise<void>;
}

/** Largest request body read, so a runaway client cannot exhaust memory. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

interface Principal {
  org: number;
  restricted?: Partial<Record<Scope, ScopeLevel>>;
}

function resolveSeed(seed: SimulatorOptions["seed"]): SimSeed {
  if (seed === undefined || seed === "demo") return demoSeed();
  if (seed === "empty") return {};
  return structuredClone(seed);
}

/** The query string with any `appid` value replaced, so the log never holds a key (seed 5.8). */
export function redactQuery(rawQuery: string): string {
  return rawQuery.replace(/(^|&)(appid=)[^&]*/gi, "$1$2REDACTED");
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error("request body too large"));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, response: SimResponse, extraHeaders: Record<string, string>): void {
  res.writeHead(response.status, {
    ...extraHeaders,
    "content-type": response.contentType,
    "content-length": String(Buffer.byteLength(response.raw)),
  });
  res.end(response.raw);
}

/** A token bucket of `perSecond` holding at most `burst` (SimulatorOptions.rateLimit). */
function rateLimiter(limit: SimRateLimit): { take(): boolean } {
  const { perSecond } = limit;
  const burst = limit.burst ?? perSecond;
  if (!(perSecond > 0) || !(burst >= 1)) throw new Error(`rateLimit needs perSecond > 0 and burst >= 1, got ${perSecond} and ${burst}`);
  const r = limit.retryAfterSeconds;
  if (r !== undefined && r !== null && !(Number.isInteger(r) && r >= 0)) throw new Error(`rateLimit.retryAfterSeconds must be a whole number of seconds or null, got ${r}`);
  let tokens = burst;
  let last = performance.now();
  return {
    take() {
      const now = performance.now();
      tokens = Math.min(burst, tokens + ((now - last) / 1000) * perSecond);
      last = now;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}

/** Start the simulator; resolves once it listens. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const store = new SimStore(resolveSeed(options.seed));
  const keys: SimApiKey[] = options.apiKeys ?? [{ key: DEFAULT_SIM_API_KEY }];
  const faults = new FaultEngine(options.faults ?? [], new SeededRandom((store.rng.int(2 ** 31) ^ 0x5eed) >>> 0));
  const latencyMs = options.latencyMs ?? 0;
  const limiter = options.rateLimit === undefined ? undefined : rateLimiter(options.rateLimit);
  const asyncDelayMs = options.asyncDelayMs ?? 300;
  const maxPerPage = options.maxPerPage ?? 100;
  const log: SimRequestLogEntry[] = [];
  const variations: ReadonlySet<SimVariation> = new Set(options.variations ?? []);
  let badRequestsExpected = options.expectBadRequests ?? false;
  const violations: ContractViolation[] = [];
  const checkResponses = options.checkResponses ?? violationsRecorded();
  const violated = (v: ContractViolation): void => {
    violations.push(v);
    recordViolation(v);
  };
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const schedule = (ms: number, fn: () => void): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!closed) fn();
    }, ms);
    timers.add(timer);
  };

  function authenticate(req: IncomingMessage, query: URLSearchParams): Principal | SimResponse {
    const header = req.headers.authorization;
    let key: string | undefined;
    if (header !== undefined) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!m) return unauthorized("Unauthenticated: the Authorization header must be `Bearer <API key>`");
      key = m[1];
    } else {
      key = query.get("appid") ?? undefined;
    }
    if (!key) return unauthorized("Unauthenticated: API key missing");
    const configured = keys.find((k) => k.key === key);
    if (configured) return { org: configured.organization ?? store.masterId, restricted: configured.restricted };
    // Seed 5.11: each sub-account has its own API key, which authenticates as that sub-account.
    const sub = store.subAccountByKey(key);
    if (sub) {
      if (sub.data.status === "disabled") return forbidden("The sub-account is disabled");
      return { org: sub.data.id };
    }
    return unauthorized("Unauthenticated: invalid API key");
  }

  function dispatch(req: IncomingMessage, method: string, path: string, query: URLSearchParams, bodyText: string): SimResponse {
    const who = authenticate(req, query);
    if ("status" in who) return who;
    let found: ReturnType<typeof matchRoute>;
    try {
      found = matchRoute(method, path);
    } catch {
      found = undefined; // a malformed %-escape in the path
    }
    if (!found) return notFound(`No route for ${method} ${path}`);
    const { route, params } = found;
    const needed: "read" | "write" = method === "GET" ? "read" : "write";
    if (who.restricted) {
      // Seed 5.3-5.4: a restricted key has one level per resource; Write includes Read.
      const level = who.restricted[route.resource] ?? "none";
      const ok = needed === "read" ? level === "read" || level === "write" : level === "write";
      if (!ok) {
        return forbidden(`Forbidden: ${method} ${path} requires scope ${route.resource}:${needed}, which this API key lacks`);
      }
    }
    if (store.isFeatureDisabled(who.org, route.resource)) {
      return forbidden("Request failed. The feature is disabled for the account.");
    }
    let body: unknown;
    if (bodyText.trim() !== "" && method !== "GET") {
      try {
        body = JSON.parse(bodyText);
      } catch {
        return badRequest("The request body is not valid JSON");
      }
    }
    const status = route.validationStatus ?? 400;
    // Every request is checked against schemas/api/*.request.schema.json, as the real API would.
    const violation = checkRequest(method, path, query, body);
    if (violation) {
      if (!badRequestsExpected) {
        const fields = Object.entries(violation.errors).map(([f, r]) => `${f}: ${r}`).join("; ");
        violated({ kind: "request", method, path, message: `${violation.operation}: ${fields}` });
      }
      return validationError(violation.errors, undefined, status);
    }
    if (options.refuseUrlClears && method === "PATCH" && path.startsWith("/v1/numbers") && body !== null && typeof body === "object") {
      // The official update schemas have no null: a strict server refuses a clear (docs/CONTRACT.md part 4).
      const errors: Record<string, string> = {};
      for (const f of ["sms_relay_url", "call_status_url"]) if ((body as Record<string, unknown>)[f] === null) errors[f] = "must be a valid URI";
      if (Object.keys(errors).length > 0) return validationError(errors, undefined, status);
    }
    const ctx: RouteContext = { store, org: who.org, params, query, body, maxPerPage, asyncDelayMs, schedule, variations, profilePutReplaces: options.profilePutReplaces === true };
    let response: SimResponse;
    try {
      response = route.handle(ctx);
    } catch (err) {
      if (err instanceof ValidationFailure) return validationError(err.errors, err.message, status);
      return json(500, { success: false, message: "Internal simulator error" });
    }
    if (response.status < 200 || response.status >= 300 || route.response === undefined) return response;
    if (checkResponses) {
      // The simulator's own answers must match the response schemas (before any variation).
      const problems = checkResponse(route.response as ResponseSchemaName, JSON.parse(response.raw));
      if (problems.length > 0) {
        violated({ kind: "response", method, path, message: problems.map((p) => p.text).join("; ") });
      }
    }
    if (variations.size === 0) return response;
    return json(response.status, applyVariations(route.response, JSON.parse(response.raw), variations));
  }

  function handleControl(res: ServerResponse, method: string, path: string, bodyText: string): void {
    if (path === "/__sim/log" && method === "GET") return send(res, json(200, log), {});
    if (path === "/__sim/log" && method === "DELETE") {
      log.length = 0;
      return send(res, json(200, { success: true }), {});
    }
    if (path === "/__sim/state" && method === "GET") return send(res, json(200, store.dump()), {});
    if (path === "/__sim/faults" && method === "GET") return send(res, json(200, faults.rules), {});
    if (path === "/__sim/faults" && method === "PUT") {
      try {
        const parsed: unknown = JSON.parse(bodyText || "[]");
        const rules = (Array.isArray(parsed) ? parsed : (parsed as { rules?: unknown }).rules) as FaultRule[];
        if (!Array.isArray(rules)) throw new Error("body must be an array of fault rules or {rules: [...]}");
        rules.forEach(validateRule);
        faults.setRules(rules);
        return send(res, json(200, { success: true, rules: faults.rules }), {});
      } catch (err) {
        return send(res, badRequest(err instanceof Error ? err.message : "bad fault rules"), {});
      }
    }
    return send(res, notFound(`No route for ${method} ${path}`), {});
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = new Date().toISOString();
    const method = (req.method ?? "GET").toUpperCase();
    const url = new URL(req.url ?? "/", "http://simulator.invalid");
    const path = url.pathname;
    let bodyText: string;
    try {
      bodyText = await readBody(req);
    } catch {
      req.socket.destroy();
      return;
    }
    // Control endpoints are never faulted, delayed or logged (docs/CONTRACT.md part 7 brief).
    if (path === "/__sim" || path.startsWith("/__sim/")) {
      if (options.control) return handleControl(res, method, path, bodyText);
      return send(res, notFound(`No route for ${method} ${path}`), {});
    }
    const authKind: SimRequestLogEntry["auth"] =
      req.headers.authorization !== undefined
        ? /^Bearer\s/i.test(req.headers.authorization)
          ? "bearer"
          : "none"
        : url.searchParams.has("appid")
          ? "appid"
          : "none";
    const record = (status: number): void => {
      const who = authenticate(req, url.searchParams);
      log.push({ method, path, query: redactQuery(url.search.slice(1)), status, at, auth: authKind, ...("org" in who ? { org: who.org } : {}) });
    };
    // Seed 5.8: `appid` still works but is deprecated; say so on every such answer.
    const extraHeaders: Record<string, string> = authKind === "appid" ? { deprecation: "true" } : {};

    // The rate limit decides on arrival (a refusal costs no work), answers after the latency.
    const refused = limiter !== undefined && !limiter.take();
    if (latencyMs > 0) await sleep(latencyMs);
    if (closed) return;
    if (refused) {
      const retryAfter = options.rateLimit?.retryAfterSeconds === undefined ? 1 : options.rateLimit.retryAfterSeconds;
      record(429);
      send(res, json(429, defaultFaultBody(429)), retryAfter === null ? extraHeaders : { ...extraHeaders, "retry-after": String(retryAfter) });
      return;
    }
    const { delayMs, decision } = faults.evaluate(method, path);
    if (delayMs > 0) await sleep(delayMs);
    if (closed) return;
    if (decision.kind === "drop") {
      record(0);
      req.socket.destroy();
      return;
    }
    if (decision.kind === "status") {
      const rule = decision.rule;
      const status = rule.status ?? 503;
      const headers: Record<string, string> = { ...extraHeaders };
      if (rule.retryAfter !== undefined) headers["retry-after"] = rule.retryAfter;
      const response: SimResponse =
        rule.body !== undefined
          ? { status, raw: rule.body, contentType: rule.contentType ?? "application/json" }
          : json(status, defaultFaultBody(status));
      record(status);
      send(res, response, headers);
      return;
    }
    const response = dispatch(req, method, path, url.searchParams, bodyText);
    if (decision.kind === "commit-then-drop") {
      // The work is done (a create committed); the client never learns it.
      record(0);
      req.socket.destroy();
      return;
    }
    record(response.status);
    send(res, response, extraHeaders);
  }

  let handling = 0;
  let idleWaiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    handling++;
    handle(req, res)
      .catch(() => {
        if (!res.headersSent) send(res, json(500, { success: false, message: "Internal simulator error" }), {});
        else res.destroy();
      })
      .finally(() => {
        if (--handling === 0) {
          const waiters = idleWaiters;
          idleWaiters = [];
          for (const w of waiters) w();
        }
      });
  });
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    store,
    log,
    violations,
    setFaults(rules: FaultRule[]): void {
      faults.setRules(rules);
    },
    expectBadRequests(on = true): void {
      badRequestsExpected = on;
    },
    idle(): Promise<void> {
      return handling === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve));
    },
    close(): Promise<void> {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
