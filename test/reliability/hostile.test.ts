/**
 * The invariants of issue #13, each checked against a hostile server (test/helpers/hostile-server.ts)
 * in front of the real simulator, whose store is the referee: no duplicate sub-account, no setting
 * lost, no write from a partial or stale view, bounded reads. `WRITE_RELIABILITY_DOC=1` writes the
 * measured rows into docs/RELIABILITY.md (the `hostile` block).
 */
import { execFileSync, spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readdirSync, readFileSync, statSync } from "node:fs";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { IncompleteListingError, WavixClient, type WavixClientOptions } from "../../src/client";
import { parseDesiredState } from "../../src/config";
import type { DesiredState } from "../../src/config/types";
import { applyPlan, computePlan, IncompletePlanError } from "../../src/plan";
import { exportAccount } from "../../src/resources/export";
import { audit, type AuditReport } from "../../src/audit";
import { startSimulator, type SimSeed, type Simulator } from "../../src/simulator";
import { demoSeed } from "../../src/simulator/demo";
import { BIN, runCli, scratch, writeYaml } from "../helpers/cli";
import { lyingPagination, startHostileServer, type HostileServer, type PaginationLie } from "../helpers/hostile-server";
import { replaceDocBlock } from "./doc-block";
import { duplicates, MASTER_KEY } from "./scenario";

interface Row {
  condition: string;
  outcome: string;
  requests: number;
  writes: number;
  duplicates: number;
}
const rows: Row[] = [];

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

/** 153 sub-accounts ("Beta Sales" last, so on page 2 at 100 a page) and 150 numbers (two pages). */
function bigSeed(): SimSeed {
  const subAccounts: NonNullable<SimSeed["subAccounts"]> = [];
  for (let i = 1; i <= 152; i++) subAccounts.push({ id: 3000 + i, name: `Tenant ${String(i).padStart(3, "0")}`, api_key: `sub-key-${i}-Zx` });
  subAccounts.push({
    id: 3153,
    name: "Beta Sales",
    api_key: "sub-key-beta-Qw",
    status: "disabled",
    default_destinations: { sms_endpoint: "https://beta.example/sms", dlr_endpoint: "https://beta.example/dlr" },
  });
  const numbers: NonNullable<SimSeed["numbers"]> = [];
  for (let i = 1; i <= 150; i++) numbers.push({ id: i, number: `1555100${String(i).padStart(4, "0")}`, sms_enabled: false });
  return { subAccounts, numbers };
}

/** Beta Sales exists on page 2 (status managed, endpoints not); New Co does not; a number on page 2. */
const YAML = `version: 1
sub_accounts:
  - name: Beta Sales
    status: disabled
  - name: New Co
numbers:
  - number: "15551000149"
    sms_enabled: true
`;

function desired(text = YAML): DesiredState {
  const r = parseDesiredState(text, "wavix.yaml");
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.state;
}

async function world(seed: SimSeed = bigSeed()): Promise<{ sim: Simulator; proxy: HostileServer }> {
  const sim = await startSimulator({ port: 0, seed, apiKeys: [{ key: MASTER_KEY }], asyncDelayMs: 10 });
  opened.push(sim);
  const proxy = await startHostileServer(sim.url);
  opened.push(proxy);
  return { sim, proxy };
}

function client(url: string, options: WavixClientOptions = {}): WavixClient {
  return new WavixClient({
    apiKey: MASTER_KEY,
    baseUrl: url,
    requestsPerSecond: Number.POSITIVE_INFINITY,
    timeoutMs: 5_000,
    retry: { backoffBaseMs: 5, backoffLimitMs: 20 },
    ...options,
  });
}

const writesOf = (p: HostileServer) => p.requests.filter((r) => r.method !== "GET").length;

/** Plan then apply; a thrown error is an outcome. */
async function run(url: string, text = YAML, options: WavixClientOptions = {}) {
  const c = client(url, options);
  try {
    const prepared = await computePlan(c, desired(text));
    const result = await applyPlan(c, prepared, { waitSeconds: 5, pollBaseMs: 10 });
    return { prepared, result, error: undefined as unknown };
  } catch (error) {
    return { prepared: undefined, result: undefined, error };
  }
}

describe("complete before destructive or creating: lying pagination", () => {
  const cases: Array<{ mode: PaginationLie; label: string; trusted: boolean; message?: RegExp }> = [
    { mode: "claims-one-page", label: "`total_pages: 1` beside `total: 153`", trusted: true },
    { mode: "no-pagination", label: "`pagination` missing", trusted: true },
    { mode: "empty-after-page-1", label: "page 2 comes back empty", trusted: false, message: /page 2 came back empty after 100 of the (153|150) items/ },
    { mode: "repeats-page-1", label: "every page repeats page 1 (`current_page` rewritten)", trusted: false, message: /page 2 repeats id \d+, already read on an earlier page/ },
  ];
  for (const c of cases) {
    it(`${c.label}: ${c.trusted ? "reads on to the first empty page and finds Beta Sales and the number" : "stops with an error naming the listing; nothing written"}`, async () => {
      const { sim, proxy } = await world();
      proxy.set(lyingPagination(c.mode));
      const r = await run(proxy.url);
      const dup = duplicates(sim);
      expect(dup).toBe(0);
      if (c.trusted) {
        expect(r.error).toBeUndefined();
        const creates = r.prepared!.plan.changes.filter((x) => x.action === "create").map((x) => x.key);
        expect(creates).toEqual(["New Co"]);
        expect(r.prepared!.plan.problems).toEqual([]);
        expect(r.result!.ok).toBe(true);
        expect(sim.store.numbers.get(149)!.data.sms_enabled).toBe(true);
      } else {
        expect(r.error).toBeInstanceOf(IncompleteListingError);
        const message = (r.error as Error).message;
        expect(message).toMatch(c.message!);
        expect(message).toMatch(/^GET \/v1\/(sub-organizations|numbers)\?per_page=100: listing incomplete: .*refusing to act on a partial view/);
        expect(writesOf(proxy)).toBe(0);
      }
      rows.push({
        condition: `lying pagination: ${c.label}`,
        outcome: c.trusted
          ? "read on to the first empty page; Beta Sales adopted, number found; converged"
          : `plan stops: \`${(r.error as Error).message.split(": listing incomplete: ")[1].split(";")[0]}\`; no write`,
        requests: proxy.requests.length,
        writes: writesOf(proxy),
        duplicates: dup,
      });
    });
  }

  it("through the CLI: apply stops with exit 1, one error line naming the listing, no stack trace, nothing written", async () => {
    const { sim, proxy } = await world();
    proxy.set(lyingPagination("empty-after-page-1", ["/v1/sub-organizations"]));
    const file = writeYaml(scratch(), "wavix.yaml", YAML);
    const r = await runCli(["apply", "-f", file, "--auto-approve"], { WAVIX_API_KEY: MASTER_KEY, WAVIX_BASE_URL: proxy.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "Error: GET /v1/sub-organizations?per_page=100: listing incomplete: page 2 came back empty after 100 of the 153 items it claims; refusing to act on a partial view of the account\n",
    );
    expect(writesOf(proxy)).toBe(0);
    expect(duplicates(sim)).toBe(0);
  });

  it("a listing whose claims exceed the page bound fails at once: export allocates nothing from `total_pages: 1e9`", async () => {
    const { sim, proxy } = await world();
    proxy.set({
      rewrite: (req, status, body) =>
        req.path === "/v1/numbers" && status === 200 ? { ...(body as object), pagination: { current_page: 1, per_page: 100, total: 1e11, total_pages: 1e9 } } : body,
    });
    const heap0 = process.memoryUsage().heapUsed;
    const error = await exportAccount(client(proxy.url)).then(() => undefined, (e: unknown) => e);
    const heapMb = (process.memoryUsage().heapUsed - heap0) / 2 ** 20;
    expect(error).toBeInstanceOf(IncompleteListingError);
    expect((error as Error).message).toMatch(/claims 1000000000 pages, more than the page bound of 2000 \(maxPages\)/);
    expect(proxy.requests.filter((r) => r.path === "/v1/numbers").length).toBe(1);
    expect(heapMb).toBeLessThan(100);
    rows.push({ condition: "`total_pages: 1e9` on the number listing (export)", outcome: "fails on page 1: claims more than the page bound (2000); nothing allocated from the claim", requests: proxy.requests.length, writes: 0, duplicates: duplicates(sim) });
  });
});

describe("bounded reads", () => {
  /** Page p of a listing that never ends: 100 new sub-accounts a page, and it always claims one more page. */
  function endless(claims: boolean) {
    return {
      before: (req: { method: string; path: string; query: URLSearchParams }) => {
        if (req.method !== "GET" || req.path !== "/v1/sub-organizations") return;
        const p = Number(req.query.get("page") ?? 1);
        const items = Array.from({ length: 100 }, (_, i) => ({
          id: p * 1000 + i,
          name: `Endless ${p}-${i}`,
          api_key: "k",
          master_organization: 1000,
          status: "enabled",
          created_at: "2026-01-01T00:00:00Z",
          default_destinations: null,
        }));
        return { status: 200, body: claims ? { sub_organizations: items, pagination: { current_page: p, per_page: 100, total: (p + 1) * 100, total_pages: p + 1 } } : { sub_organizations: items } };
      },
    };
  }

  it("an endless pagination that keeps claiming one more page stops where its first page's claims end", async () => {
    const { sim, proxy } = await world();
    proxy.set(endless(true));
    const r = await run(proxy.url);
    expect(r.error).toBeInstanceOf(IncompleteListingError);
    expect((r.error as Error).message).toMatch(/300 items read by page 3, more than the 200 it claims/);
    const pages = proxy.requests.filter((x) => x.path === "/v1/sub-organizations").length;
    // Three pages, read twice (a listing that changed while read gets one more reading).
    expect(pages).toBe(6);
    expect(writesOf(proxy)).toBe(0);
    rows.push({ condition: "endless pagination, claiming one more page each time", outcome: "stops at page 3 (past the first page's claim of 200 items), read twice; no write", requests: proxy.requests.length, writes: 0, duplicates: duplicates(sim) });
  });

  it("an endless pagination that claims nothing stops at the page bound, memory flat", async () => {
    const { sim, proxy } = await world();
    proxy.set(endless(false));
    const heap0 = process.memoryUsage().heapUsed;
    const r = await run(proxy.url, YAML, { maxPages: 300 });
    const heapMb = (process.memoryUsage().heapUsed - heap0) / 2 ** 20;
    expect(r.error).toBeInstanceOf(IncompleteListingError);
    expect((r.error as Error).message).toMatch(/still not at its end after 300 pages \(30000 items\): the page bound \(maxPages\)/);
    expect(proxy.requests.filter((x) => x.path === "/v1/sub-organizations").length).toBe(300);
    expect(writesOf(proxy)).toBe(0);
    rows.push({ condition: "endless pagination, no claims (`maxPages: 300`)", outcome: `stops at the page bound, 300 requests, not read again; heap ${heapMb >= 0 ? "+" : ""}${heapMb.toFixed(0)} MB; no write`, requests: proxy.requests.length, writes: 0, duplicates: duplicates(sim) });
  });

  it("a huge body is read as a stream and abandoned at the size cap (default 16 MiB), not read whole", async () => {
    const { sim, proxy } = await world();
    const total = 600 * 2 ** 20;
    proxy.set({
      before: (req) => {
        if (req.path !== "/v1/numbers") return;
        return {
          write: (res) => {
            res.writeHead(200, { "content-type": "application/json" });
            res.write('{"items":[],"pad":"');
            const chunk = Buffer.alloc(1 << 16, 0x61);
            let sent = 0;
            let closed = false;
            res.on("close", () => (closed = true));
            const pump = (): void => {
              while (!closed && sent < total) {
                sent += chunk.length;
                if (!res.write(chunk)) return void res.once("drain", pump);
              }
              if (!closed) res.end('"}');
            };
            pump();
          },
        };
      },
    });
    const r = await run(proxy.url);
    expect((r.error as Error).message).toMatch(/GET \/v1\/numbers\?page=1&per_page=100: response body larger than 16777216 bytes \(maxResponseBytes\); not read further/);
    await new Promise((done) => setTimeout(done, 50));
    const streamedMb = proxy.streamedBytes.value / 2 ** 20;
    expect(streamedMb).toBeLessThan(100);
    expect(writesOf(proxy)).toBe(0);
    rows.push({ condition: "600 MB body on the number listing", outcome: `refused at 16 MiB (server got to write ${streamedMb.toFixed(0)} MB before the client hung up); no write`, requests: proxy.requests.length, writes: 0, duplicates: duplicates(sim) });
  });

  it("a redirect to another origin is not followed, and its answer is never acted on", async () => {
    const { sim, proxy } = await world();
    const evil = await startHostileServer(sim.url, { before: () => ({ status: 200, body: { sub_organizations: [], pagination: { current_page: 1, per_page: 100, total: 0, total_pages: 0 } } }) });
    opened.push(evil);
    proxy.set({ before: (req) => (req.path === "/v1/sub-organizations" ? { status: 302, headers: { location: `${evil.url}/v1/sub-organizations?page=1` } } : undefined) });
    const r = await run(proxy.url);
    expect((r.error as Error).message).toBe(`GET /v1/sub-organizations?page=1&per_page=100: redirected (302) to another origin, ${evil.url}/v1/sub-organizations: not followed`);
    expect(evil.requests).toEqual([]);
    expect(writesOf(proxy)).toBe(0);
    rows.push({ condition: "302 to another origin answering an empty list", outcome: "plan stops naming the redirect; the other host gets no request; no write", requests: proxy.requests.length, writes: 0, duplicates: duplicates(sim) });
  });

  it("a redirect within the origin is followed", async () => {
    const { proxy } = await world();
    const c = client(proxy.url);
    proxy.set({ before: (req) => (req.path === "/v1/calls/webhooks" && req.method === "GET" && req.n === 1 ? { status: 307, headers: { location: "/v1/calls/webhooks" } } : undefined) });
    await expect(c.listCallWebhooks()).resolves.toEqual([]);
    expect(proxy.requests.map((x) => `${x.method} ${x.path}?${x.query}`)).toEqual(["GET /v1/calls/webhooks?", "GET /v1/calls/webhooks?"]);
  });
});

describe("two runs changing different fields of one sub-account (issue #22: a silent lost update under jitter)", () => {
  it("run B's PUT, built from a read taken before run A's write, lands 600 ms late after A's read-back: A writes its field again, both changes stay", async () => {
    const { sim, proxy } = await world();
    const beta = [...sim.store.subAccounts.values()].find((x) => x.data.name === "Beta Sales")!;
    // B's first PUT is held 600 ms before it reaches the server (jitter); every other request is not.
    let puts = 0;
    let bPutArrived!: () => void;
    const bPutSeen = new Promise<void>((resolve) => (bPutArrived = resolve));
    proxy.set({
      before: async (req) => {
        if (req.method !== "PUT") return;
        if (++puts === 1) {
          bPutArrived();
          await new Promise((r) => setTimeout(r, 600));
        }
      },
    });
    const B = "version: 1\nsub_accounts:\n  - name: Beta Sales\n    default_destinations:\n      sms_endpoint: https://beta.example/sms-b\n";
    const A = "version: 1\nsub_accounts:\n  - name: Beta Sales\n    default_destinations:\n      dlr_endpoint: https://beta.example/dlr-a\n";
    const runB = run(proxy.url, B);
    await bPutSeen;
    const a = await run(proxy.url, A);
    const b = await runB;
    expect(a.error).toBeUndefined();
    expect(b.error).toBeUndefined();
    expect(a.result!.results.map((r) => r.outcome)).toEqual(["ok"]);
    expect(b.result!.results.map((r) => r.outcome)).toEqual(["ok"]);
    const dd = sim.store.subAccounts.get(beta.data.id)!.data.default_destinations;
    expect(dd).toEqual({ sms_endpoint: "https://beta.example/sms-b", dlr_endpoint: "https://beta.example/dlr-a" });
    rows.push({ condition: "two runs change different fields of one sub-account; one PUT held 600 ms (lands after the other's read-back)", outcome: "the other run looks again after 1 s, writes its field again merged onto the record: both changes kept, both exit 0", requests: proxy.requests.length, writes: writesOf(proxy), duplicates: duplicates(sim) });
  });
});

describe("ids from the server are checked before they shape a request (issue #22)", () => {
  for (const [label, bad] of [
    ["`..` (would send PATCH /v1/)", ".."],
    ["an id past 2^53 (rounded to another id by JSON parsing)", 9007199254740993],
  ] as const) {
    it(`a number listed with ${label}: refused naming the request, nothing sent with it`, async () => {
      const { sim, proxy } = await world();
      proxy.set({
        rewrite: (req, status, body) => {
          if (status !== 200 || req.method !== "GET" || req.path !== "/v1/numbers") return body;
          const o = body as { items: Array<{ id: unknown; number: string }> };
          return { ...o, items: o.items.map((n) => (n.number === "15551000149" ? { ...n, id: bad } : n)) };
        },
      });
      const r = await run(proxy.url, "version: 1\nnumbers:\n  - number: \"15551000149\"\n    sms_enabled: true\n");
      const text = r.error ? String((r.error as Error).message) : JSON.stringify(r.result?.results);
      expect(text).toMatch(/refusing to send PATCH \/v1\/numbers(\/\{id\})? with the id/);
      expect(proxy.requests.filter((x) => x.method !== "GET")).toEqual([]);
      expect(proxy.requests.some((x) => x.path === "/v1/" || x.path === "/v1")).toBe(false);
      rows.push({ condition: `number listed with ${label}`, outcome: "refused before sending, naming the request; no write", requests: proxy.requests.length, writes: writesOf(proxy), duplicates: duplicates(sim) });
    });
  }
});

describe("a created sub-account is recognised by its id (issue #22: created again on every apply)", () => {
  const FILE = "version: 1\nsub_accounts:\n  - name: R&D Team\n";

  it("a server that keeps the name otherwise (HTML-escaped): exit 1 naming the id and the name kept, no promise that a re-run helps", async () => {
    const { sim, proxy } = await world();
    proxy.set({
      before: (req) => {
        if (req.method === "POST" && req.path === "/v1/sub-organizations") req.body = req.body.replace("R&D", "R&amp;D");
      },
    });
    const file = writeYaml(scratch(), "wavix.yaml", FILE);
    const r = await runCli(["apply", "-f", file, "--auto-approve"], { WAVIX_API_KEY: MASTER_KEY, WAVIX_BASE_URL: proxy.url });
    const made = [...sim.store.subAccounts.values()].find((x) => x.data.name === "R&amp;D Team")!;
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(`sub-account "R&D Team" was created (id ${made.data.id}), but the API keeps its name as "R&amp;D Team", so it will never match by name.`);
    expect(r.stdout + r.stderr).toContain(`pin this one with \`id: ${made.data.id}\``);
    expect(r.stdout + r.stderr).not.toContain("a re-run finishes the rest");
    expect(r.stdout + r.stderr).toContain("a re-run will not fix it");
    expect(proxy.requests.filter((x) => x.method === "POST")).toHaveLength(1);
    rows.push({ condition: "server keeps a created sub-account's name otherwise (escaped)", outcome: "recognised by id: exit 1 naming the id and the name kept, asks for an id: pin; no re-run promised", requests: proxy.requests.length, writes: writesOf(proxy), duplicates: duplicates(sim) });
  });

  it("a consistent listing that ends early after the create: exit 1 naming the id, never 'a re-run finishes the rest'", async () => {
    const { sim, proxy } = await world();
    let created = false;
    proxy.set({
      before: (req) => {
        if (req.method === "POST" && req.path === "/v1/sub-organizations") created = true;
      },
      // After the create, every listing leaves the newest sub-account out and says so consistently.
      rewrite: (req, status, body) => {
        if (!created || status !== 200 || req.method !== "GET" || req.path !== "/v1/sub-organizations") return body;
        const o = body as { sub_organizations: Array<{ name: string }>; pagination?: Record<string, number> };
        const kept = o.sub_organizations.filter((x) => x.name !== "R&D Team");
        const p = o.pagination;
        return { ...o, sub_organizations: kept, ...(p ? { pagination: { ...p, total: p.total - 1 } } : {}) };
      },
    });
    const file = writeYaml(scratch(), "wavix.yaml", FILE);
    const r = await runCli(["apply", "-f", file, "--auto-approve"], { WAVIX_API_KEY: MASTER_KEY, WAVIX_BASE_URL: proxy.url });
    const made = [...sim.store.subAccounts.values()].find((x) => x.data.name === "R&D Team")!;
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(`sub-account "R&D Team" was created (id ${made.data.id}), but the listing read after the run does not show it (the listing ended early).`);
    expect(r.stdout + r.stderr).not.toContain("a re-run finishes the rest");
    rows.push({ condition: "consistent sub-account listing that ends early after a create", outcome: "recognised by id (GET by id): exit 1 naming the id, asks for an id: pin; no re-run promised", requests: proxy.requests.length, writes: writesOf(proxy), duplicates: duplicates(sim) });
  });
});

describe("redirects through the CLI's own network (issue #22: a stack trace on every redirect)", () => {
  it("mid-apply: same-origin redirects are followed, a cross-origin one is refused for that number only, no stack trace", async () => {
    const seed = bigSeed();
    const { sim, proxy } = await world(seed);
    const evil = await startHostileServer(sim.url);
    opened.push(evil);
    // Each PATCH is answered first by a redirect carrying a body (the socket is still sending it when
    // the client moves on): numbers 1 and 2 within the origin, number 3 to another origin.
    const seen = new Set<string>();
    proxy.set({
      before: (req) => {
        if (req.method !== "PATCH" || seen.has(req.path)) return undefined;
        seen.add(req.path);
        const to = req.path === "/v1/numbers/3" ? `${evil.url}${req.path}` : req.path === "/v1/numbers/1" || req.path === "/v1/numbers/2" ? req.path : undefined;
        if (to === undefined) return undefined;
        return {
          write: (res) => {
            res.writeHead(307, { location: to, "content-type": "text/html" });
            res.write("<html>" + "x".repeat(64 * 1024));
            setTimeout(() => res.end("</html>"), 30);
          },
        };
      },
    });
    const numbers = [1, 2, 3, 4].map((i) => `  - number: "1555100${String(i).padStart(4, "0")}"\n    call_status_url: https://hooks.example/status/${i}\n`).join("");
    const file = writeYaml(scratch(), "wavix.yaml", `version: 1\nnumbers:\n${numbers}`);
    const r = await runCli(["apply", "-f", file, "--auto-approve", "--concurrency", "1"], { WAVIX_API_KEY: MASTER_KEY, WAVIX_BASE_URL: proxy.url });
    expect(r.stdout + r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    expect(r.stdout + r.stderr).not.toContain("ERR_INVALID_STATE");
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain("redirected (307) to another origin");
    expect(evil.requests).toEqual([]);
    const written = [1, 2, 3, 4].filter((id) => sim.store.numbers.get(id)?.data.call_status_url === `https://hooks.example/status/${id}`);
    expect(written).toEqual([1, 2, 4]);
    rows.push({ condition: "mid-apply redirects through the CLI (307 same origin ×2, 307 to another origin ×1)", outcome: "same-origin followed, the cross-origin number failed by name, the rest written; exit 1, no stack trace", requests: proxy.requests.length, writes: writesOf(proxy), duplicates: duplicates(sim) });
  });
});

describe("adopt at create", () => {
  const NEW_ONLY = "version: 1\nsub_accounts:\n  - name: New Co\n    default_destinations:\n      sms_endpoint: https://new.example/sms\n";

  it("someone creates the name between the plan's read and the create: adopted, no POST, no duplicate", async () => {
    const { sim, proxy } = await world();
    const c = client(proxy.url);
    const prepared = await computePlan(c, desired(NEW_ONLY));
    expect(prepared.plan.changes.map((x) => `${x.action} ${x.key}`)).toEqual(["create New Co"]);
    // A person in the portal, while the operator reads the plan.
    const theirs = sim.store.createSubAccount(sim.store.masterId, { name: "New Co", default_destinations: { sms_endpoint: null, dlr_endpoint: "https://theirs.example/dlr" } });
    const result = await applyPlan(c, prepared, { pollBaseMs: 10 });
    expect(result.results).toEqual([{ kind: "sub_account", key: "New Co", action: "create", outcome: "ok", adopted: true, id: theirs.id }]);
    expect(proxy.requests.filter((x) => x.method === "POST")).toEqual([]);
    const rec = sim.store.subAccounts.get(theirs.id)!.data;
    expect(rec.default_destinations).toEqual({ sms_endpoint: "https://new.example/sms", dlr_endpoint: "https://theirs.example/dlr" });
    expect(duplicates(sim)).toBe(0);
    rows.push({ condition: "race create: the name created by someone else after the plan", outcome: "read by name before the POST: adopted (no POST), made as declared, their unmanaged endpoint kept; exit 0", requests: proxy.requests.length, writes: writesOf(proxy), duplicates: 0 });
  });

  it("someone creates the name while our POST is in flight: ours, the newer, is disabled and renamed, theirs adopted; exit 0, said", async () => {
    const { sim, proxy } = await world();
    let theirs = 0;
    proxy.set({
      before: (req) => {
        if (req.method === "POST" && req.path === "/v1/sub-organizations" && theirs === 0) {
          theirs = sim.store.createSubAccount(sim.store.masterId, { name: "New Co", default_destinations: { sms_endpoint: null, dlr_endpoint: null } }).id;
        }
      },
    });
    const r = await run(proxy.url, NEW_ONLY);
    const res = r.result!.results[0];
    expect(r.result!.ok).toBe(true);
    const ours = [...sim.store.subAccounts.values()].map((x) => x.data).find((x) => x.id !== theirs && x.name.startsWith("New Co"))!;
    expect(ours).toMatchObject({ name: `New Co (duplicate ${ours.id})`, status: "disabled" });
    expect(sim.store.subAccounts.get(theirs)!.data).toMatchObject({ name: "New Co", status: "enabled", default_destinations: { sms_endpoint: "https://new.example/sms" } });
    expect(res).toMatchObject({ outcome: "ok", adopted: true, id: theirs });
    expect(res.twin).toBe(`another run made it at the same moment; this run's twin (id ${ours.id}) was disabled and renamed "New Co (duplicate ${ours.id})"; id ${theirs} is kept (no duplicate)`);
    rows.push({ condition: "race create: a twin made while our POST is in flight", outcome: "twin check after the create: ours (newer) disabled and renamed \"New Co (duplicate ID)\", theirs adopted and made as declared; exit 0, said", requests: proxy.requests.length, writes: writesOf(proxy), duplicates: duplicates(sim) });
  });

  it("two applies at once: each POSTs after its read found nothing; the newer twin is disabled and renamed by the run that made it, both exit 0", async () => {
    const { sim, proxy } = await world();
    // Hold each create until the other run's create arrives (at most 5 s), so both read before either commits.
    const waiting: Array<() => void> = [];
    proxy.set({
      before: async (req) => {
        if (req.method !== "POST" || req.path !== "/v1/sub-organizations") return;
        if (waiting.length === 0) {
          await new Promise<void>((go) => {
            waiting.push(go);
            setTimeout(go, 5_000);
          });
        } else waiting.splice(0).forEach((go) => go());
      },
    });
    const file = writeYaml(scratch(), "wavix.yaml", NEW_ONLY);
    const env = { WAVIX_API_KEY: MASTER_KEY, WAVIX_BASE_URL: proxy.url };
    const [a, b] = await Promise.all([runCli(["apply", "-f", file, "--auto-approve"], env), runCli(["apply", "-f", file, "--auto-approve"], env)]);
    const made = [...sim.store.subAccounts.values()].map((x) => x.data).filter((x) => x.name.startsWith("New Co")).sort((x, y) => x.id - y.id);
    expect(proxy.requests.filter((r) => r.method === "POST" && r.path === "/v1/sub-organizations")).toHaveLength(2);
    expect(made.map((x) => [x.name, x.status])).toEqual([
      ["New Co", "enabled"],
      [`New Co (duplicate ${made[1].id})`, "disabled"],
    ]);
    for (const run of [a, b]) {
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout + run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    }
    expect(a.stdout + b.stdout).toContain(`this run's twin (id ${made[1].id}) was disabled and renamed "New Co (duplicate ${made[1].id})"; id ${made[0].id} is kept`);
    rows.push({ condition: "two applies at once, both creating New Co (CLI)", outcome: "both exit 0; the run whose create is newer disables and renames its own (\"New Co (duplicate ID)\") and says so", requests: proxy.requests.length, writes: writesOf(proxy), duplicates: duplicates(sim) });

    // A third run, serialised after them, has nothing to do: the name names one sub-account again.
    const c = await runCli(["apply", "-f", file, "--auto-approve"], env);
    expect(c.code, c.stdout + c.stderr).toBe(0);
    expect(c.stdout).toContain("No changes.");
  });

  it("two applies serialised (one after the other): one creates, the other has nothing to do", async () => {
    const { sim, proxy } = await world();
    const file = writeYaml(scratch(), "wavix.yaml", NEW_ONLY);
    const env = { WAVIX_API_KEY: MASTER_KEY, WAVIX_BASE_URL: proxy.url };
    const a = await runCli(["apply", "-f", file, "--auto-approve"], env);
    const b = await runCli(["apply", "-f", file, "--auto-approve"], env);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(b.stdout).toContain("No changes.");
    expect(duplicates(sim)).toBe(0);
  });
});

describe("retry what is safe", () => {
  it("a webhook upsert that commits and then loses its connection is sent again and converges", async () => {
    const { sim, proxy } = await world();
    let dropped = 0;
    proxy.set({ after: (req) => (req.method === "POST" && req.path === "/v1/calls/webhooks" && dropped++ < 2 ? "drop" : undefined) });
    const r = await run(proxy.url, "version: 1\ncall_webhooks:\n  on-call: https://hooks.example/on\n");
    expect(r.error).toBeUndefined();
    expect(r.result!.ok).toBe(true);
    expect(proxy.requests.filter((x) => x.method === "POST").length).toBe(3);
    expect(sim.store.webhooksOf(sim.store.masterId).get("on-call")).toBe("https://hooks.example/on");
    rows.push({ condition: "webhook upsert commits, then the connection drops (twice)", outcome: "retried like a PUT (3 POSTs), read back; converged", requests: proxy.requests.length, writes: writesOf(proxy), duplicates: duplicates(sim) });
  });
});

describe("write from a fresh read", () => {
  const STATUS_ONLY = "version: 1\nsub_accounts:\n  - name: Beta Sales\n    status: enabled\n";
  const SMS_ONLY = "version: 1\nsub_accounts:\n  - name: Beta Sales\n    default_destinations:\n      sms_endpoint: https://b.example/sms\n";

  it("drift mid-run: two files planned from the same state, applied one after the other; neither loses", async () => {
    const { sim, proxy } = await world();
    const c = client(proxy.url);
    const planA = await computePlan(c, desired(STATUS_ONLY));
    const planB = await computePlan(c, desired(SMS_ONLY));
    // Meanwhile a person changes a field neither file manages.
    sim.store.subAccounts.get(3153)!.data.default_destinations = { sms_endpoint: "https://beta.example/sms", dlr_endpoint: "https://person.example/dlr" };
    expect((await applyPlan(c, planA)).ok).toBe(true);
    expect((await applyPlan(c, planB)).ok).toBe(true);
    const rec = sim.store.subAccounts.get(3153)!.data;
    expect(rec.status).toBe("enabled");
    expect(rec.default_destinations).toEqual({ sms_endpoint: "https://b.example/sms", dlr_endpoint: "https://person.example/dlr" });
    // Each PUT was preceded by a GET of that sub-account and followed by one.
    const seq = proxy.requests.filter((x) => x.path === "/v1/sub-organizations/3153").map((x) => x.method);
    expect(seq).toEqual(["GET", "PUT", "GET", "GET", "PUT", "GET"]);
    rows.push({ condition: "drift mid-run: two files on one sub-account, plus a person's edit", outcome: "each PUT merged onto a GET made just before it, read back after: all three changes kept", requests: proxy.requests.length, writes: writesOf(proxy), duplicates: duplicates(sim) });
  });

  for (const field of ["status", "default_destinations"] as const) {
    it(`a record missing \`${field}\` is never the base of a PUT: clear error, no write`, async () => {
      const { sim, proxy } = await world();
      const strip = (x: unknown) => {
        if (x && typeof x === "object" && "api_key" in x) {
          const { [field]: _drop, ...rest } = x as Record<string, unknown>;
          return rest;
        }
        return x;
      };
      proxy.set({
        rewrite: (req, status, body) => {
          if (status !== 200 || !req.path.startsWith("/v1/sub-organizations")) return body;
          const o = body as Record<string, unknown>;
          return Array.isArray(o.sub_organizations) ? { ...o, sub_organizations: o.sub_organizations.map(strip) } : strip(o);
        },
      });
      const before = JSON.stringify(sim.store.subAccounts.get(3153)!.data);
      const r = await run(proxy.url, field === "status" ? SMS_ONLY : STATUS_ONLY);
      const res = r.result!.results.find((x) => x.key === "Beta Sales")!;
      expect(res.outcome).toBe("failed");
      expect(res.error).toBe(`sub-account 3153: the API's record lacks ${field}, which a PUT would reset to defaults; not written`);
      expect(proxy.requests.filter((x) => x.method === "PUT")).toEqual([]);
      expect(JSON.stringify(sim.store.subAccounts.get(3153)!.data)).toBe(before);
      rows.push({ condition: `sub-account record missing \`${field}\``, outcome: "item failed, `…lacks " + field + ", which a PUT would reset to defaults; not written`; exit 1", requests: proxy.requests.length, writes: writesOf(proxy), duplicates: duplicates(sim) });
    });
  }
});

describe("say what is happening", () => {
  it("--timeout abandons a hung request and retries it; each long silence (timeout or wait) prints one line on stderr", async () => {
    const { proxy } = await world();
    let hung = false;
    let limited = false;
    proxy.set({
      before: async (req) => {
        if (req.path === "/v1/sub-organizations" && !hung) {
          hung = true;
          await new Promise((done) => setTimeout(done, 4_000));
        }
        if (req.path === "/v1/numbers" && !limited) {
          limited = true;
          return { status: 429, headers: { "retry-after": "2" }, body: { success: false, message: "Too many requests" } };
        }
      },
    });
    const file = writeYaml(scratch(), "wavix.yaml", "version: 1\nsub_accounts:\n  - name: Beta Sales\n    status: disabled\nnumbers:\n  - number: \"15551000001\"\n    sms_enabled: false\n");
    const r = await runCli(["plan", "-f", file, "--timeout", "2"], { WAVIX_API_KEY: MASTER_KEY, WAVIX_BASE_URL: proxy.url });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("No changes.");
    expect(proxy.requests.filter((x) => x.path === "/v1/sub-organizations").length).toBe(3);
    const lines = r.stderr.split("\n").filter((l) => l.startsWith("Retrying")).sort();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Retrying GET \/v1\/numbers\?page=1&per_page=100 \(attempt 2 of 5\) after 429 rate limited: waiting [2-3]\.\d s$/);
    expect(lines[1]).toMatch(/^Retrying GET \/v1\/sub-organizations\?page=1&per_page=100 \(attempt 2 of 5\) after no answer in 2\.0 s: waiting 0\.\d s$/);
  });

  it("WAVIX_TIMEOUT is read, and a bad value is a clear error before any request", async () => {
    const { proxy } = await world();
    const file = writeYaml(scratch(), "wavix.yaml", "version: 1\nsub_accounts:\n  - name: Beta Sales\n");
    const bad = await runCli(["plan", "-f", file], { WAVIX_API_KEY: MASTER_KEY, WAVIX_BASE_URL: proxy.url, WAVIX_TIMEOUT: "soon" });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('Error: WAVIX_TIMEOUT takes a number of seconds greater than 0, got "soon".\n');
    expect(proxy.requests).toEqual([]);
    const flag = await runCli(["plan", "-f", file, "--timeout", "0"], { WAVIX_API_KEY: MASTER_KEY, WAVIX_BASE_URL: proxy.url });
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain('--timeout takes a number greater than 0, got "0"');
  });

  it("WAVIX_MAX_PAGES sets the page bound: a 2-page listing refused at 1, with a clear error", async () => {
    const { proxy } = await world();
    const file = writeYaml(scratch(), "wavix.yaml", "version: 1\nsub_accounts:\n  - name: Beta Sales\n");
    const env = { WAVIX_API_KEY: MASTER_KEY, WAVIX_BASE_URL: proxy.url };
    const r = await runCli(["plan", "-f", file], { ...env, WAVIX_MAX_PAGES: "1" });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "Error: GET /v1/sub-organizations?per_page=100: listing incomplete: it claims 2 pages, more than the page bound of 1 (maxPages); refusing to act on a partial view of the account\n",
    );
    const bad = await runCli(["plan", "-f", file], { ...env, WAVIX_MAX_PAGES: "lots" });
    expect(bad.stderr).toBe('Error: WAVIX_MAX_PAGES takes a whole number of at least 1, got "lots".\n');
  });
});

// ---- issue #22: the audit, export and input edges against a hostile server ----

/** The demo account with `n` brands (clones of the demo's scored brand, ids B0001…) and its 2FA service. */
function auditSeed(n: number): SimSeed {
  const demo = demoSeed();
  const template = demo.brands![0];
  const brands = Array.from({ length: n }, (_, i) => {
    const id = `B${String(i + 1).padStart(4, "0")}`;
    return { ...template, brand_id: id, vettings: template.vettings!.map((v) => ({ ...v, vetting_id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, "0")}` })) };
  });
  return { ...demo, brands };
}

const SERVICE = "7204a030201211ee9fb47d093f2f127c";
const TWO_FA = { sessions: [], services: [{ service_id: SERVICE, from: "2026-11-01", to: "2026-11-21" }] };
const AUDIT_NOW = new Date("2026-11-26T11:00:00Z");

/** The demo service over `days` days of November, with `perDay` sessions a day (half of them verified). */
function busySeed(days: number, perDay: number): SimSeed {
  const demo = demoSeed();
  const sessions = Array.from({ length: days * perDay }, (_, i) => {
    const day = 1 + Math.floor(i / perDay);
    const t = Date.parse(`2026-11-${String(day).padStart(2, "0")}T08:00:00Z`) + (i % perDay) * 60_000;
    const at = (s: number) => new Date(t + s * 1000).toISOString();
    const verified = i % 2 === 0;
    return {
      session_id: `b0${String(i).padStart(30, "0")}`,
      phone_number: "15551230001",
      status: verified ? "verified" : "failed",
      created_at: at(0),
      // The listing's charge is its events' (the headline figures come from the listing).
      charge: "0.0475",
      events: [
        { created_at: at(1), event: "Code sent via SMS", status: "success" as const, charge: "0.0475", error: null },
        { created_at: at(20), event: "Verification", status: verified ? ("success" as const) : ("failed" as const), charge: "0", error: null },
      ],
    };
  });
  return { ...demo, twoFaServices: [{ service_id: SERVICE, service_name: "Busy", sessions }] };
}

/** The report's figures, without the parts that name when it was made. */
const figuresOf = (r: AuditReport) => ({ current: r.two_fa.current, previous: r.two_fa.previous, daily: r.two_fa.daily, sessions: r.two_fa.sessions });

describe("issue #22: the audit", () => {
  it("brands: all is read 100 a page through the checked walk (150 brands: 2 listing requests)", async () => {
    const { sim, proxy } = await world(auditSeed(150));
    const report = await audit(client(proxy.url), { ten_dlc: { brands: "all" } });
    expect(report.ten_dlc.brands).toHaveLength(150);
    const listings = proxy.requests.filter((r) => r.path === "/v3/10dlc/brands");
    expect(listings.map((r) => r.query.get("per_page"))).toEqual(["100", "100"]);
    rows.push({ condition: "audit `brands: all` over 150 brands", outcome: "read 100 a page through the checked walk: 2 listing requests, 150 brands reported", requests: proxy.requests.length, writes: writesOf(proxy), duplicates: duplicates(sim) });
  });

  it("a brand listing cut to 25 a page that ignores `page` is consistent but short: refused, not 25 of 150 brands", async () => {
    const { sim, proxy } = await world(auditSeed(150));
    proxy.set({
      before: (req) => {
        if (req.path !== "/v3/10dlc/brands") return;
        req.forward.set("page", "1");
        req.forward.set("per_page", "25");
      },
      rewrite: (req, status, body) => {
        if (req.path !== "/v3/10dlc/brands" || status !== 200) return body;
        const { pagination: _p, ...rest } = body as Record<string, unknown>;
        return { ...rest, pagination: { current_page: Number(req.query.get("page") ?? 1), per_page: 25 } };
      },
    });
    const error = await audit(client(proxy.url), { ten_dlc: { brands: "all" } }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(IncompleteListingError);
    expect((error as Error).message).toMatch(/^GET \/v3\/10dlc\/brands\?per_page=100: listing incomplete: page 2 repeats id B0001/);
    rows.push({ condition: "audit: brand listing cut to 25 a page (`per_page: 25`), `page` ignored", outcome: "refused (`page 2 repeats id B0001`), not reported as 25 of 150 brands", requests: proxy.requests.length, writes: 0, duplicates: duplicates(sim) });
  });

  it("a 2FA session listed without session_id is skipped with a finding, never `/session/undefined/events`", async () => {
    const { sim, proxy } = await world(auditSeed(1));
    proxy.set({
      rewrite: (req, status, body) => {
        // The piece of the listing that holds 2026-11-03 (the demo's verified session).
        const piece = req.path.endsWith("/sessions") && req.query.get("from")! <= "2026-11-03" && req.query.get("to")! >= "2026-11-03";
        if (!piece || status !== 200 || !Array.isArray(body)) return body;
        return body.map((x: Record<string, unknown>, i: number) => {
          if (i !== 0) return x;
          const { session_id: _id, ...rest } = x;
          return rest;
        });
      },
    });
    const report = await audit(client(proxy.url), { two_fa: TWO_FA });
    expect(proxy.requests.map((r) => r.path).filter((p) => p.includes("undefined"))).toEqual([]);
    expect(report.two_fa.sessions).toHaveLength(1);
    expect(report.findings.map((f) => [f.code, f.subject])).toEqual([["session_without_id", SERVICE]]);
    expect(report.findings[0].message).toMatch(/1 session\(s\) listed without a session_id \(created "2026-11-03T10:00:00.000Z"\)/);
    rows.push({ condition: "audit: a 2FA session listed without `session_id` (optional in the official schema)", outcome: "skipped with a `session_without_id` finding; no `/session/undefined/events` request", requests: proxy.requests.length, writes: 0, duplicates: duplicates(sim) });
  });

  it("an event status outside success, failed and pending is a finding, not silently dropped", async () => {
    const { sim, proxy } = await world(auditSeed(1));
    proxy.set({
      rewrite: (req, status, body) =>
        req.path.endsWith("/events") && status === 200 && Array.isArray(body) ? body.map((e: Record<string, unknown>) => (e.event === "Verification" ? { ...e, status: "expired" } : e)) : body,
    });
    // The events are read (--events): the listing alone gives each session's figures.
    const report = await audit(client(proxy.url), { two_fa: TWO_FA }, { events: true });
    const unknown = report.findings.filter((f) => f.code === "unknown_event_status");
    expect(unknown).toHaveLength(2);
    expect(unknown[0].message).toMatch(/1 event\(s\) with status "expired", not success, failed or pending/);
    expect(report.two_fa.events_by_status).toEqual({ success: 3, failed: 0, pending: 0 });
    rows.push({ condition: "audit: 2FA events with status `expired`", outcome: "an `unknown_event_status` finding per session; the events kept, counted in no status total", requests: proxy.requests.length, writes: 0, duplicates: duplicates(sim) });
  });

  it("a 10-year 2FA window (one GET per session, thousands) is refused before any request, naming the line", async () => {
    const { sim, proxy } = await world(auditSeed(1));
    const file = writeYaml(scratch(), "wavix.yaml", `version: 1\naudit:\n  two_fa:\n    services:\n      - service_id: ${SERVICE}\n        from: "2016-01-01"\n        to: "2025-12-31"\n`);
    const r = await runCli(["audit", "-f", file], { WAVIX_API_KEY: MASTER_KEY, WAVIX_BASE_URL: proxy.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}:7:13: the window spans 3653 days, more than 366: the audit reads each session's events with one request`);
    expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    expect(proxy.requests).toEqual([]);
    rows.push({ condition: "audit: a 2FA window of 10 years", outcome: "refused before any request (`the window spans 3653 days, more than 366`), naming file, line and column", requests: 0, writes: 0, duplicates: duplicates(sim) });
  });
});

describe("issue #30: the 2FA sessions listing lies and lags", () => {
  const BUSY = { sessions: [], services: [{ service_id: SERVICE, from: "2026-11-01", to: "2026-11-07" }] };
  /** The sessions listings asked: one per period, the period's days and one more on each side (issue #35). */
  const LISTINGS = [
    ["2026-10-31", "2026-11-08"],
    ["2026-10-24", "2026-11-01"],
  ];
  const listingsOf = (p: HostileServer) => p.requests.filter((r) => r.path.endsWith("/sessions")).map((r) => [r.query.get("from"), r.query.get("to")]);

  it("a listing that ignores from/to (every session, whatever day is asked): the same report, each session read once, a warning", async () => {
    const { sim: honestSim } = await world(busySeed(7, 20));
    const honest = await audit(client(honestSim.url), { two_fa: BUSY }, { now: AUDIT_NOW, events: true });
    const { sim, proxy } = await world(busySeed(7, 20));
    proxy.set({
      before: (req) => {
        if (!req.path.endsWith("/sessions")) return;
        req.forward.set("from", "2026-10-01");
        req.forward.set("to", "2026-11-30");
      },
    });
    // With --events, so that each session's events are read (once each) as well as listed.
    const report = await audit(client(proxy.url), { two_fa: BUSY }, { now: AUDIT_NOW, events: true });
    expect(figuresOf(report)).toEqual(figuresOf(honest));
    expect(report.two_fa.current.sessions).toBe(140);
    expect(report.complete).toBe(true);
    expect(listingsOf(proxy)).toEqual(LISTINGS);
    const events = proxy.requests.filter((r) => r.path.endsWith("/events")).map((r) => r.path);
    expect(new Set(events).size).toBe(events.length);
    expect(events).toHaveLength(140);
    // The period's listing (10-31..11-08) holds all 140 on days it asked: nothing to say. The previous
    // period's (10-24..11-01) lists all 140 of November, none in that period, 120 of them on days it
    // was not asked about (the 20 of 11-01 are its edge day's, expected): a warning.
    expect(report.findings.map((f) => [f.code, f.subject])).toEqual([["session_outside_window", SERVICE]]);
    expect(report.findings[0].message).toMatch(/^previous period: 2FA service \w+: the API listed 120 session\(s\) created outside the period, on days it was not asked about \(b0\d+ created 2026-11-02T08:00:00.000Z, /);
    rows.push({ condition: "audit: the sessions listing ignores `from`/`to` (all of November for every period asked)", outcome: "the same report as an honest server: sessions outside the period left out, each session's events read once (`--events`); a `session_outside_window` warning", requests: proxy.requests.length, writes: writesOf(proxy), duplicates: duplicates(sim) });
  });

  it("a listing that repeats sessions (within a listing, another day's later on, and across listings): each counted and read once", async () => {
    const { sim: honestSim } = await world(busySeed(7, 20));
    const honest = await audit(client(honestSim.url), { two_fa: BUSY }, { now: AUDIT_NOW, events: true });
    const { sim, proxy } = await world(busySeed(7, 20));
    let previousListing: unknown[] = [];
    proxy.set({
      rewrite: (req, status, body) => {
        if (!req.path.endsWith("/sessions") || status !== 200 || !Array.isArray(body)) return body;
        // Five repeated at once, the first of each day again at the end, and the listing before this one.
        const out = [...body, ...body.slice(0, 5), ...body.filter((_, i) => i % 20 === 0), ...previousListing];
        previousListing = body;
        return out;
      },
    });
    const report = await audit(client(proxy.url), { two_fa: BUSY }, { now: AUDIT_NOW, events: true });
    expect(listingsOf(proxy)).toEqual(LISTINGS);
    expect(report.two_fa.current.sessions).toBe(140);
    expect(report.two_fa.previous.sessions).toBe(0);
    expect(new Set(report.two_fa.sessions.map((x) => x.session_id)).size).toBe(140);
    expect(figuresOf(report)).toEqual(figuresOf(honest));
    const events = proxy.requests.filter((r) => r.path.endsWith("/events")).map((r) => r.path);
    expect(events).toHaveLength(140);
    expect(new Set(events).size).toBe(140);
    rows.push({ condition: "audit: the sessions listing repeats sessions within a listing and from the listing before", outcome: "each session counted and its events read once (140 of 140, `--events`); the same report as an honest server", requests: proxy.requests.length, writes: 0, duplicates: duplicates(sim) });
  });

  it("a listing that lags (slow answers, 429 with Retry-After, a dropped connection): the same report, each listing asked until answered", async () => {
    const { sim: honestSim } = await world(busySeed(7, 20));
    const honest = await audit(client(honestSim.url), { two_fa: BUSY }, { now: AUDIT_NOW });
    const { sim, proxy } = await world(busySeed(7, 20));
    const seen = new Map<string, number>();
    proxy.set({
      before: async (req) => {
        if (!req.path.endsWith("/sessions")) return;
        const day = req.query.get("from")!;
        const n = (seen.get(day) ?? 0) + 1;
        seen.set(day, n);
        // One listing per period: the period's (from 10-31) answers 429 first, then lags 300 ms;
        // the previous period's (from 10-24) drops its first connection.
        if (n === 1 && day === "2026-10-31") return { status: 429, headers: { "retry-after": "0" }, body: { success: false, message: "Too many requests" } };
        if (n === 2 && day === "2026-10-31") await new Promise((r) => setTimeout(r, 300));
        if (n === 1 && day === "2026-10-24") return { drop: true };
      },
    });
    const report = await audit(client(proxy.url), { two_fa: BUSY }, { now: AUDIT_NOW });
    expect(figuresOf(report)).toEqual(figuresOf(honest));
    expect(report.complete).toBe(true);
    expect([seen.get("2026-10-31"), seen.get("2026-10-24")]).toEqual([2, 2]);
    // Each listing asked twice; the previous period's is asked beside the period's (listingAnswers,
    // src/audit/collect.ts), so their retries may interleave.
    const byDays = (l: readonly (string | null)[][]) => l.map((x) => x.join(" ")).sort();
    expect(byDays(listingsOf(proxy))).toEqual(byDays([LISTINGS[0], LISTINGS[0], LISTINGS[1], LISTINGS[1]]));
    // The headline figures are the listings': no events asked without --events.
    expect(proxy.requests.filter((r) => r.path.endsWith("/events"))).toEqual([]);
    rows.push({ condition: "audit: the sessions listing answers 429 (Retry-After), drops a connection, lags 300 ms", outcome: "each listing asked again until answered; the same report as an honest server", requests: proxy.requests.length, writes: 0, duplicates: duplicates(sim) });
  });

  it("listing items with only session_id (no field is required by the official schema): placed by their first event, the same report", async () => {
    const { sim: honestSim } = await world(busySeed(7, 20));
    const honest = await audit(client(honestSim.url), { two_fa: BUSY }, { now: AUDIT_NOW, events: true });
    const bare = await startSimulator({ port: 0, seed: busySeed(7, 20), apiKeys: [{ key: MASTER_KEY }], variations: ["optional-fields-absent"] });
    opened.push(bare);
    // Without --events: a listing that gives no status or charge has its sessions' events read.
    const report = await audit(client(bare.url), { two_fa: BUSY }, { now: AUDIT_NOW });
    // The figures come from the events here, from the listing there; the listing gave no name or time.
    const same = (r: AuditReport) => ({ ...figuresOf(r), sessions: r.two_fa.sessions.map(({ service_name: _n, created_at: _c, figures_from: _f, ...x }) => x) });
    expect(same(report)).toEqual(same(honest));
    expect(new Set(report.two_fa.sessions.map((x) => `${x.figures_from} ${x.events_read}`))).toEqual(new Set(["events read"]));
    expect(report.findings).toEqual(honest.findings);
    expect(report.complete).toBe(true);
    rows.push({ condition: "audit: 2FA listing items with `session_id` only (variation `optional-fields-absent`)", outcome: "each placed by its first event, its figures from its events; the same figures as with every field", requests: bare.log.length, writes: 0, duplicates: duplicates(bare) });
  });

  it("listing items with only session_id, on the edge days the two periods' listings share: each session placed once, in its own period, not a gap of time", async () => {
    const seed = busySeed(7, 20);
    const late = { ...seed.twoFaServices![0].sessions[1], session_id: `b1${"0".padStart(30, "0")}`, created_at: "2026-10-31T23:00:00.000Z" };
    late.events = late.events.map((e, i) => ({ ...e, created_at: `2026-10-31T23:00:${i === 0 ? "01" : "20"}.000Z` }));
    seed.twoFaServices![0].sessions.unshift(late);
    const bare = await startSimulator({ port: 0, seed, apiKeys: [{ key: MASTER_KEY }], variations: ["optional-fields-absent"] });
    opened.push(bare);
    const report = await audit(client(bare.url), { two_fa: BUSY }, { now: AUDIT_NOW });
    expect(report.two_fa.current.sessions).toBe(140);
    // 10-31 (the period's listing's edge day) and 11-01 (the previous period's) are listed by both:
    // the events read for the period place them; the previous period reads no events.
    expect(report.two_fa.previous.sessions).toBe(1);
    expect(report.findings.filter((f) => f.code === "session_time_unknown")).toEqual([]);
    // Its outcome the bare listing does not give, and no events are read for the previous period: a gap.
    expect(report.gaps.items.map((g) => [g.code, g.subject])).toEqual([["invalid_charge", late.session_id], ["session_status_unknown", late.session_id]]);
  });

  it("a listed session whose events are not found: the listing's status and charge count, marked not_found, a gap naming it; exit 1 unless --allow-incomplete", async () => {
    const { sim, proxy } = await world(busySeed(1, 3));
    const lost = `b0${"0".padStart(30, "0")}`;
    proxy.set({ before: (req) => (req.path === `/v1/two-fa/session/${lost}/events` ? { status: 404, body: { success: false, message: "not found" } } : undefined) });
    const TWO_FA_DAY = { sessions: [], services: [{ service_id: SERVICE, from: "2026-11-01", to: "2026-11-01" }] };
    const report = await audit(client(proxy.url), { two_fa: TWO_FA_DAY }, { now: AUDIT_NOW, events: true });
    // The listing says verified (0.0475): it still counts, as verified, with its charge.
    expect(report.two_fa.current).toMatchObject({ sessions: 3, verified: 2, not_verified: 1, charge_total: "0.1425" });
    const s = report.two_fa.sessions.find((x) => x.session_id === lost)!;
    expect(s).toMatchObject({ verified: true, charge_total: "0.0475", figures_from: "listing", events_read: "not_found", events: [] });
    expect(report.two_fa.sessions.filter((x) => x.session_id !== lost).map((x) => x.events_read)).toEqual(["read", "read"]);
    expect(report.findings.map((f) => [f.code, f.subject])).toContainEqual(["session_events_not_found", lost]);
    expect(report.complete).toBe(false);
    expect(report.gaps).toMatchObject({ count: 1, by_code: { session_events_not_found: 1 } });
    expect(report.gaps.items.map((g) => g.subject)).toEqual([lost]);
    // The CLI: the report is written and says so; exit 1, or 0 with --allow-incomplete.
    const dir = scratch();
    const file = writeYaml(dir, "wavix.yaml", `version: 1\naudit:\n  two_fa:\n    services:\n      - service_id: ${SERVICE}\n        from: "2026-11-01"\n        to: "2026-11-01"\n`);
    const env = { WAVIX_API_KEY: MASTER_KEY, WAVIX_BASE_URL: proxy.url };
    const strict = await runCli(["audit", "-f", file, "--events", "--format", "json"], env, dir);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain("the report is NOT complete");
    expect(JSON.parse(strict.stdout)).toMatchObject({ complete: false, gaps: { count: 1 } });
    const accepted = await runCli(["audit", "-f", file, "--events", "--format", "json", "--allow-incomplete"], env, dir);
    expect(accepted.code).toBe(0);
    expect(JSON.parse(accepted.stdout)).toMatchObject({ complete: false, two_fa: { current: { sessions: 3, verified: 2, not_verified: 1 } } });
    rows.push({ condition: "audit: a listed 2FA session whose events answer 404 (`--events`)", outcome: "counted with the listing's status and charge (`events_read: not_found`), a `session_events_not_found` gap naming it; `complete: false`, exit 1 unless `--allow-incomplete`", requests: proxy.requests.length, writes: 0, duplicates: duplicates(sim) });
  });
});

describe("issue #22: export", () => {
  it("a webhook event type the file cannot declare is left out with a warning: the exported file passes validate", async () => {
    const { sim, proxy } = await world({ ...bigSeed(), callWebhooks: [{ event_type: "on-call", url: "https://hooks.example/on" }] });
    proxy.set({
      rewrite: (req, status, body) =>
        req.path === "/v1/calls/webhooks" && status === 200 && Array.isArray(body) ? [...body, { event_type: "on-transcript", url: "https://hooks.example/tr" }] : body,
    });
    const dir = scratch();
    const out = `${dir}/exported.yaml`;
    const r = await runCli(["export", "--out", out], { WAVIX_API_KEY: MASTER_KEY, WAVIX_BASE_URL: proxy.url });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Warning: call webhook for event type "on-transcript" not exported: the file knows only on-call, post-call');
    const text = readFileSync(out, "utf8");
    expect(text).toContain("on-call: https://hooks.example/on");
    expect(text).not.toContain("on-transcript");
    const v = await runCli(["validate", "-f", out]);
    expect(v.stderr).toBe("");
    expect(v.code).toBe(0);
    rows.push({ condition: "export: the webhook listing holds an event type the file cannot declare (`on-transcript`)", outcome: "left out with one warning naming it; the exported file passes `validate`", requests: proxy.requests.length, writes: writesOf(proxy), duplicates: duplicates(sim) });
  });

  /** The CLI with its stdout on `fd` (e.g. /dev/full). */
  function exportTo(fd: number, args: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
    return new Promise((done) => {
      const child = spawn(process.execPath, [BIN, "export", ...args], { env: { ...process.env, ...env }, stdio: ["ignore", fd, "pipe"] });
      let stderr = "";
      child.stderr!.on("data", (d) => (stderr += d));
      child.on("close", (code) => done({ code: code ?? -1, stderr }));
    });
  }

  it.skipIf(!existsSync("/dev/full"))("a full disk (ENOSPC, /dev/full) is one clear line, no stack trace, exit 1; `--out /dev/full` stays the device, no temporary file left", async () => {
    const { sim, proxy } = await world();
    const env = { WAVIX_API_KEY: MASTER_KEY, WAVIX_BASE_URL: proxy.url };
    const fd = openSync("/dev/full", "w");
    let piped: { code: number; stderr: string };
    try {
      piped = await exportTo(fd, [], env);
    } finally {
      closeSync(fd);
    }
    expect(piped.code).toBe(1);
    expect(piped.stderr).toBe("Error: cannot write standard output: no space left on the device\n");
    const before = readdirSync("/dev").filter((f) => f.startsWith(".full."));
    const out = await runCli(["export", "--out", "/dev/full"], env).finally(() => {
      // Were the device ever replaced by a file (a regression, as root), put it back for the machine.
      if (!statSync("/dev/full").isCharacterDevice()) execFileSync("sh", ["-c", "rm -f /dev/full && mknod -m 666 /dev/full c 1 7"]);
    });
    expect(out.code).toBe(1);
    expect(out.stderr).toBe("Error: cannot write /dev/full: no space left on the device\n");
    // Written in place: a rename would have replaced the device with a regular file (as root).
    expect(statSync("/dev/full").isCharacterDevice()).toBe(true);
    expect(readdirSync("/dev").filter((f) => f.startsWith(".full."))).toEqual(before);
    rows.push({ condition: "export to a full disk (stdout and `--out` on /dev/full, ENOSPC)", outcome: "one line (`cannot write standard output: no space left on the device`), no stack trace, exit 1; the device not replaced, no temporary file left", requests: proxy.requests.length, writes: 0, duplicates: duplicates(sim) });
  });
});

describe("issue #22: malformed records name the request", () => {
  const listingOf = (path: string, edit: (items: unknown[]) => unknown) => ({
    rewrite: (req: { path: string; method: string }, status: number, body: unknown) => {
      if (req.path !== path || req.method !== "GET" || status !== 200) return body;
      const o = body as Record<string, unknown>;
      const key = Array.isArray(o.items) ? "items" : "sub_organizations";
      return { ...o, [key]: edit(o[key] as unknown[]) };
    },
  });
  const cases: Array<{ label: string; behaviour: ReturnType<typeof listingOf>; message: RegExp }> = [
    { label: "a null item in the number listing", behaviour: listingOf("/v1/numbers", (items) => [null, ...items.slice(1)]), message: /^GET \/v1\/numbers\?page=1&per_page=100: expected a JSON object with an "items" array of records, got null at items\[0\] \(200\)$/ },
    { label: "a null item in the sub-account listing", behaviour: listingOf("/v1/sub-organizations", (items) => [...items.slice(0, 5), null]), message: /^GET \/v1\/sub-organizations\?page=1&per_page=100: expected a JSON object with a "sub_organizations" array of records, got null at sub_organizations\[5\] \(200\)$/ },
    { label: "a number's `destination` that is not a list (`5`)", behaviour: listingOf("/v1/numbers", (items) => items.map((n) => ({ ...(n as object), destination: 5 }))), message: /^GET \/v1\/numbers\?page=1&per_page=100: expected items\[0\]\.destination to be an array or null, got number \(200\)$/ },
  ];
  for (const c of cases) {
    it(`${c.label}: an error naming the request, not a TypeError; no write`, async () => {
      const { sim, proxy } = await world();
      proxy.set(c.behaviour);
      const r = await run(proxy.url);
      expect(r.error).toBeInstanceOf(Error);
      expect((r.error as Error).message).not.toMatch(/Cannot read properties|is not iterable|is not a function/);
      expect((r.error as Error).message).toMatch(c.message);
      expect(writesOf(proxy)).toBe(0);
      rows.push({ condition: `malformed record: ${c.label}`, outcome: `plan stops naming the request (\`${(r.error as Error).message.replace(/ \(200\)$/, "")}\`); no write`, requests: proxy.requests.length, writes: 0, duplicates: duplicates(sim) });
    });
  }
});

describe("issue #22: drift notices", () => {
  it("a property the API added is noted once per field and kind (quietly), and a key echoed as a property name is scrubbed", async () => {
    const { sim, proxy } = await world();
    const add = (n: unknown) => ({ ...(n as object), carrier_hint: "x", [MASTER_KEY]: true });
    proxy.set({
      rewrite: (req, status, body) => {
        if (status !== 200 || !req.path.startsWith("/v1/numbers")) return body;
        const o = body as Record<string, unknown>;
        return Array.isArray(o.items) ? { ...o, items: o.items.map(add) } : "number" in o ? add(o) : body;
      },
    });
    const file = writeYaml(scratch(), "wavix.yaml", 'version: 1\nnumbers:\n  - number: "15551000149"\n    sms_enabled: true\n');
    const env = { WAVIX_API_KEY: MASTER_KEY, WAVIX_BASE_URL: proxy.url };
    const verbose = await runCli(["apply", "-f", file, "--auto-approve"], { ...env, WAVIX_SYNC_VERBOSE: "1" });
    expect(verbose.code).toBe(0);
    expect(verbose.stdout + verbose.stderr).not.toContain(MASTER_KEY);
    const notes = verbose.stderr.split("\n").filter((l) => l.includes("carrier_hint"));
    // Listing pages, the PATCH's answer and the read-back all carry it: one note.
    expect(notes).toEqual(['Note: GET /v1/numbers: response addition: number: new property "carrier_hint" (not in the documented schema; ignored)']);
    expect(verbose.stderr).toContain('number: new property "[REDACTED]"');
    expect(verbose.stderr).not.toMatch(/^Warning: .*response drift/m);
    const quiet = await runCli(["plan", "-f", file], env);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe("");
    rows.push({ condition: "every number answer carries a new property `carrier_hint` and one named by the API key (CLI, `WAVIX_SYNC_VERBOSE=1`)", outcome: "one `Note:` per field and kind, the key's name `[REDACTED]`; without verbose nothing printed; exit 0", requests: proxy.requests.length, writes: writesOf(proxy), duplicates: duplicates(sim) });
  });
});

describe("issue #22: a whole-request deadline", () => {
  it("a server dripping a byte every 100 ms is abandoned at the request's deadline, not after 5 attempts × the timeout", async () => {
    const { sim, proxy } = await world();
    proxy.set({
      before: (req) => {
        if (req.path !== "/v1/sub-organizations") return;
        return {
          write: (res) => {
            res.writeHead(200, { "content-type": "application/json" });
            res.write('{"sub_organizations": [');
            const drip = setInterval(() => res.write(" "), 100);
            res.on("close", () => clearInterval(drip));
          },
        };
      },
    });
    const started = Date.now();
    const r = await run(proxy.url, YAML, { timeoutMs: 1_000, deadlineMs: 2_500 });
    const seconds = (Date.now() - started) / 1000;
    expect((r.error as Error).name).toBe("TimeoutError");
    expect((r.error as Error).message).toMatch(/^GET \/v1\/sub-organizations\?page=1&per_page=100: no complete answer within the request deadline of 2\.5 s \([23] attempts; last: timed out after \d+ ms\)$/);
    const attempts = proxy.requests.filter((x) => x.path === "/v1/sub-organizations").length;
    // Without the deadline: 5 attempts × 1 s.
    expect(attempts).toBeLessThanOrEqual(3);
    expect(seconds).toBeLessThan(4);
    expect(writesOf(proxy)).toBe(0);
    rows.push({ condition: "a server dripping a byte every 100 ms (timeout 1 s, `deadlineMs` 2.5 s; default 4 × the timeout)", outcome: `abandoned at the deadline after ${attempts} attempts (${seconds.toFixed(1)} s, not 5 × 1 s), naming the request and the deadline; no write`, requests: proxy.requests.length, writes: 0, duplicates: duplicates(sim) });
  });
});

describe("tenants' numbers read with their own keys (issue #20)", () => {
  const TENANT_KEYS = Array.from({ length: 12 }, (_, i) => `tenant-key-${i + 1}-Hq7`);
  /** 12 sub-accounts; tenant 1 owns 150 numbers (two pages), the others 3 each; the master 2. */
  function tenantSeed(): SimSeed {
    const subAccounts = TENANT_KEYS.map((k, i) => ({ id: 5001 + i, name: `Tenant ${i + 1}`, api_key: k }));
    const numbers: NonNullable<SimSeed["numbers"]> = [
      { id: 1, number: "15552000001", sms_enabled: false },
      { id: 2, number: "15552000002", sms_enabled: false },
    ];
    for (let j = 1; j <= 150; j++) numbers.push({ id: 10_000 + j, number: `1555301${String(j).padStart(4, "0")}`, organization: 5001, sms_enabled: false } as never);
    for (let i = 2; i <= 12; i++) {
      for (let j = 1; j <= 3; j++) numbers.push({ id: i * 100 + j, number: `15553${String(i).padStart(2, "0")}${String(j).padStart(4, "0")}`, organization: 5000 + i, sms_enabled: false } as never);
    }
    return { subAccounts, numbers };
  }
  function tenantYaml(): string {
    const lines = ["version: 1", "numbers:", '  - number: "15552000001"', "    sms_enabled: true"];
    lines.push('  - number: "15553010149"', "    sub_account: Tenant 1", "    sms_enabled: true");
    for (let i = 2; i <= 12; i++) for (let j = 1; j <= 3; j++) lines.push(`  - number: "15553${String(i).padStart(2, "0")}${String(j).padStart(4, "0")}"`, `    sub_account: Tenant ${i}`, "    sms_enabled: true");
    return lines.join("\n") + "\n";
  }
  const keyOf = (req: { headers: Record<string, unknown> }) => String(req.headers.authorization ?? "").replace(/^Bearer /, "");
  const noKeys = (text: string) => {
    for (const k of [MASTER_KEY, ...TENANT_KEYS]) expect(text).not.toContain(k);
  };

  it("a tenant's listing that lies (page 2 empty): the plan stops naming the listing, no key in the message, nothing written", async () => {
    const { sim, proxy } = await world(tenantSeed());
    const lie = lyingPagination("empty-after-page-1", ["/v1/numbers"]);
    proxy.set({ rewrite: (req, status, body) => (keyOf(req) === TENANT_KEYS[0] ? lie.rewrite!(req, status, body) : body) });
    // 149 is on page 2 of Tenant 1's two-page listing: one number missing from page 1, so the whole listing is read.
    const r = await run(proxy.url, tenantYaml());
    expect(r.error).toBeInstanceOf(IncompleteListingError);
    expect((r.error as Error).message).toMatch(/^GET \/v1\/numbers\?per_page=100: listing incomplete: page 2 came back empty after 100 of the 150 items/);
    noKeys((r.error as Error).message);
    expect(writesOf(proxy)).toBe(0);
    expect(sim.store.numbers.get(10_149)!.data.sms_enabled).toBe(false);
    rows.push({ condition: "a tenant's number listing (its own key) comes back empty on page 2", outcome: "plan stops naming the listing (no key in it); no write", requests: proxy.requests.length, writes: 0, duplicates: duplicates(sim) });
  });

  it("a tenant's key refused (401): its numbers are an error naming the sub-account; nothing is written from the incomplete plan", async () => {
    const { sim, proxy } = await world(tenantSeed());
    proxy.set({
      before: (req) => (keyOf(req) === TENANT_KEYS[2] ? { status: 401, body: { success: false, error: true, message: "Unauthenticated" } } : undefined),
    });
    const c = client(proxy.url);
    const prepared = await computePlan(c, desired(tenantYaml()));
    const problems = prepared.plan.problems;
    expect(problems.map((p) => p.key).sort()).toEqual(["15553030001", "15553030002", "15553030003"]);
    expect(problems[0].message).toMatch(/^the API refused sub-account "Tenant 3" \(id 5003\)'s key: /);
    noKeys(JSON.stringify(problems));
    // The other owners' numbers could be planned, but no write is made from an incomplete plan
    // (docs/GUARD-RAILS.md): the engine refuses, and the server sees no write at all.
    const before = [1, 10_149, 1201, 301].map((id) => sim.store.numbers.get(id)!.data.sms_enabled);
    await expect(applyPlan(c, prepared, { waitSeconds: 5, pollBaseMs: 10 })).rejects.toThrow(IncompletePlanError);
    expect(writesOf(proxy)).toBe(0);
    expect([1, 10_149, 1201, 301].map((id) => sim.store.numbers.get(id)!.data.sms_enabled)).toEqual(before);
    expect(before.slice(0, 3)).not.toContain(true);
    rows.push({ condition: "one tenant's key answered 401", outcome: "that tenant's numbers reported (sub-account named, no key); nothing written from the incomplete plan", requests: proxy.requests.length, writes: writesOf(proxy), duplicates: duplicates(sim) });
  });

  it("slow tenants: the reads of 12 tenants stay within the client's concurrency bound", async () => {
    const { sim, proxy } = await world(tenantSeed());
    let inFlight = 0;
    let most = 0;
    proxy.set({
      before: async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((done) => setTimeout(done, 30));
        inFlight--;
      },
    });
    const c = client(proxy.url, { concurrency: 4 });
    const { plan } = await computePlan(c, desired(tenantYaml()));
    expect(plan.problems).toEqual([]);
    expect(plan.changes).toHaveLength(1 + 1 + 11 * 3);
    expect(most).toBeLessThanOrEqual(4);
    // One sub-account listing, the master's page, and each tenant's pages (Tenant 1: two).
    expect(proxy.requests.length).toBe(1 + 1 + 2 + 11);
    rows.push({ condition: "12 tenants read through a server that lags 30 ms a request (concurrency 4)", outcome: `at most ${most} requests in flight; one page per tenant (two for 150 numbers)`, requests: proxy.requests.length, writes: 0, duplicates: duplicates(sim) });
  });
});

afterAll(() => {
  if (process.env.WRITE_RELIABILITY_DOC !== "1") return;
  replaceDocBlock("hostile", [
    "| condition | outcome | requests | writes | duplicates |",
    "|---|---|---:|---:|---:|",
    ...rows.map((r) => `| ${r.condition} | ${r.outcome.replace(/\|/g, "\\|")} | ${r.requests} | ${r.writes} | ${r.duplicates} |`),
  ]);
});
