/**
 * Issue #35: an audit that never passes incomplete data off as complete, at the API's minimum of
 * requests. Against the real simulator behind a hostile proxy (test/helpers/hostile-server.ts) that
 * answers as the official document allows and our simulator does not on its own: a listed
 * session whose events answer 404, event charges and statuses the audit cannot read, a sessions
 * listing whose days are the account's (America/New_York), a brand of the account whose vettings
 * answer 404. The proxy's request log is the referee of what was asked.
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator, type SimSeed, type Simulator } from "../../src/simulator";
import { demoSeed } from "../../src/simulator/demo";
import { WavixClient } from "../../src/client";
import { audit, computeAudit, computeTenDlc, readBrandVettings, readTwoFaEvents, runWindow, type AuditReport } from "../../src/audit";
import type { BrandVetting } from "../../src/client/types";
import { startHostileServer, type HostileServer, type ProxyRequest } from "../helpers/hostile-server";
import { createRateLimitedServer } from "../helpers/rate-limited-server";
import { runCli } from "../helpers/cli";

const KEY = "sim-demo-key";
/** Ten sessions on 2026-11-10, two of them failed, each charged 0.05 (listing and events agree). */
const TEN = "7e57a030201211ee9fb47d093f2f0010";
const sid = (i: number) => `7e57${String(i).padStart(28, "0")}`;
/** A verified session of TEN whose events the proxy answers 404. */
const LOST = sid(3);
const NOW = new Date("2026-11-22T10:00:00Z");
/** Item 3's services, each with its own window. */
const S1 = "5100a030201211ee9fb47d093f2f0001";
const S2 = "5200a030201211ee9fb47d093f2f0002";

function seed(): SimSeed {
  const demo = demoSeed();
  const sessions = Array.from({ length: 10 }, (_, i) => {
    const verified = i >= 2;
    const t = Date.parse("2026-11-10T12:00:00Z") + i * 60_000;
    const at = (s: number) => new Date(t + s * 1000).toISOString();
    return {
      session_id: sid(i),
      phone_number: "15551230001",
      status: verified ? "verified" : "failed",
      created_at: at(0),
      charge: "0.05",
      events: [
        { created_at: at(1), event: "Code sent via SMS", status: "success" as const, charge: "0.05", error: null },
        { created_at: at(30), event: "Verification", status: verified ? ("success" as const) : ("failed" as const), charge: "0", error: verified ? null : "Invalid code" },
      ],
    };
  });
  // Two services with their own windows (item 3): S1 audited 11-01..21, S2 11-15..21.
  const at = (id: string, when: string) => ({
    session_id: id.padEnd(32, "0"),
    phone_number: "15551230001",
    status: "verified",
    created_at: when,
    charge: "0.01",
    events: [{ created_at: when, event: "Verification", status: "success" as const, charge: "0.01", error: null }],
  });
  const mixed = [
    { service_id: S1, service_name: "S1", sessions: [at("51a", "2026-10-20T12:00:00Z"), at("51b", "2026-11-02T12:00:00Z"), at("51c", "2026-11-10T12:00:00Z")] },
    { service_id: S2, service_name: "S2", sessions: [at("52a", "2026-11-05T12:00:00Z"), at("52b", "2026-11-09T12:00:00Z"), at("52c", "2026-11-12T12:00:00Z"), at("52d", "2026-11-16T12:00:00Z")] },
  ];
  return { ...demo, twoFaServices: [...(demo.twoFaServices ?? []), { service_id: TEN, service_name: "Ten", sessions }, ...mixed] };
}

let sim: Simulator;
let proxy: HostileServer;
let dir: string;
let log: ProxyRequest[] = [];

/** The official 404 body shape. */
const notFound = { status: 404, body: { success: false, message: "Not found" } };

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: seed() });
  proxy = await startHostileServer(sim.url);
  dir = await mkdtemp(join(tmpdir(), "wavix-audit-complete-"));
}, 120_000);
afterAll(async () => {
  await proxy?.close();
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  log = [];
});

/** The proxy: LOST's events answer 404; `more` adds behaviour; every request is logged. */
function behave(more: { rewrite?: (req: ProxyRequest, status: number, body: unknown) => unknown } = {}): void {
  proxy.set({
    before: (req) => {
      log.push(req);
      if (req.path === `/v1/two-fa/session/${LOST}/events`) return notFound;
      return undefined;
    },
    ...more,
  });
}

const client = () => new WavixClient({ apiKey: KEY, baseUrl: proxy.url });
const auditClient = (c: WavixClient) => ({
  getAccountProfile: () => c.getAccountProfile(),
  listTwoFaEvents: (id: string) => c.listTwoFaEvents(id),
  listTwoFaSessions: (s: string, f: string, t: string) => c.listTwoFaSessions(s, f, t),
  listBrandVettings: (id: string) => c.listBrandVettings(id),
  iterateBrandPages: () => c.iterateBrandPages({ perPage: 100 }),
});

async function yaml(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text, "utf8");
  return file;
}

const TEN_YAML = `version: 1
audit:
  two_fa:
    services: [{ service_id: ${TEN}, from: "2026-11-10", to: "2026-11-10" }]
    max_failure_ratio: 0.2
`;

describe("item 1: the data sources return their findings and say whether they are complete", () => {
  it("readTwoFaEvents: a session whose events answer 404 keeps the listing's figures, a gap; bad charges and statuses are findings", async () => {
    behave({
      rewrite: (req, status, body) => {
        // Session 4's events: a charge with a decimal comma and a status the API does not document.
        if (status === 200 && req.path === `/v1/two-fa/session/${sid(4)}/events`) {
          return (body as { charge: string; status: string }[]).map((e, i) => (i === 0 ? { ...e, charge: "0,0475" } : { ...e, status: "delivered" }));
        }
        return body;
      },
    });
    const r = await readTwoFaEvents(auditClient(client()), { services: [{ serviceId: TEN, from: "2026-11-10", to: "2026-11-10" }] });
    const lost = r.sessions.find((s) => s.sessionId === LOST)!;
    expect(lost).toMatchObject({ verified: true, chargeTotal: "0.05", figuresFrom: "listing", eventsRead: "not_found", events: [] });
    expect(r.complete).toBe(false);
    expect(r.findings.filter((f) => f.gap).map((f) => [f.code, f.subject]).sort()).toEqual(
      [
        ["invalid_charge", sid(4)],
        ["session_events_not_found", LOST],
        ["unknown_event_status", sid(4)],
      ].sort(),
    );
    expect(r.gapCount).toBe(3);
    // The listing's figures stand: 8 of 10 verified, every charge counted.
    expect([r.verified, r.notVerified, r.unknown, r.chargeTotal]).toEqual([8, 2, 0, "0.50"]);
  });

  it("readBrandVettings: a brand of the account whose vettings answer 404 is a gap, not a failure", async () => {
    proxy.set({ before: (req) => (req.path === "/v3/10dlc/brands/BPEND01/vettings" ? notFound : undefined) });
    const r = await readBrandVettings(auditClient(client()), { brands: "all" });
    expect(r.complete).toBe(false);
    expect(r.findings).toContainEqual(expect.objectContaining({ code: "brand_vettings_not_found", subject: "BPEND01", gap: true }));
    expect(r.brands.map((b) => b.brandId)).toContain("B6AI7PA");
    expect(r.brands.map((b) => b.brandId)).not.toContain("BPEND01");
  });
});

describe("item 2: unreadable events are never a failed verification; an incomplete run exits non-zero", () => {
  it("with --events, 2 of 10 stay 2 of 10 (no threshold tripped), every format says NOT complete, exit 1; --allow-incomplete exits 0", async () => {
    behave();
    const file = await yaml("ten.yaml", TEN_YAML);
    const out = join(dir, "ten-out");
    const env = { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: proxy.url };
    const r = await runCli(["audit", "-f", file, "--events", "--format", "json", "--out", out], env, dir);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain("audit: the report is NOT complete: 1 data gap (1 session_events_not_found)");
    const report = JSON.parse(r.stdout) as AuditReport;
    expect(report.complete).toBe(false);
    expect(report.gaps).toEqual({ count: 1, by_code: { session_events_not_found: 1 }, items: [expect.objectContaining({ code: "session_events_not_found", subject: LOST })] });
    expect(report.two_fa.services[0].current).toEqual({ sessions: 10, verified: 8, not_verified: 2, unknown: 0, failure_ratio: "0.200000", charge_total: "0.50" });
    expect(report.findings.map((f) => f.code)).not.toContain("two_fa_failure_ratio_exceeded");
    expect(report.two_fa.sessions.find((s) => s.session_id === LOST)).toMatchObject({ verified: true, charge_total: "0.05", figures_from: "listing", events_read: "not_found" });
    // The other formats say so too.
    const csv = (await readFile(join(out, "report.csv"), "utf8")).split("\r\n");
    const col = (name: string) => csv[1].split(",")[csv[0].split(",").indexOf(name)];
    expect([col("complete"), col("gap_count"), col("gap_codes")]).toEqual(["false", "1", "session_events_not_found"]);
    expect(await readFile(join(out, "audit.md"), "utf8")).toContain("- **Completeness:** NOT complete: 1 data gap (1 session\\_events\\_not\\_found)");
    expect(await readFile(join(out, "audit.html"), "utf8")).toContain('data-complete="false" data-gaps="1"');

    const accepted = await runCli(["audit", "-f", file, "--events", "--format", "json", "--allow-incomplete"], env, dir);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stderr).toContain("(accepted: --allow-incomplete)");
  });
});

describe("item 3: each service is compared with its own previous period", () => {
  it("S1 on 11-01..21 and S2 on 11-15..21: S2's previous period is 11-08..14, and the report claims no common one", () => {
    const s = (id: string, service: string, at: string) => ({ session_id: id, service_id: service, created_at: at, status: "verified", charge: "0.01" });
    const r = computeAudit(
      { sessions: [s("a", S1, "2026-11-02T00:00:00Z"), s("b", S2, "2026-11-16T00:00:00Z")], previous: [s("c", S2, "2026-11-10T00:00:00Z"), s("d", S1, "2026-10-20T00:00:00Z")], brands: [] },
      { two_fa: { sessions: [], services: [{ service_id: S1, from: "2026-11-01", to: "2026-11-21" }, { service_id: S2, from: "2026-11-15", to: "2026-11-21" }] } },
      { now: NOW, accountId: 1 },
    );
    expect(r.previous_period).toBeNull();
    expect(r.two_fa.services.map((x) => [x.service_id, x.previous_period, x.previous.sessions])).toEqual([
      [S1, { from: "2026-10-11T00:00:00Z", to: "2026-11-01T00:00:00Z" }, 1],
      [S2, { from: "2026-11-08T00:00:00Z", to: "2026-11-15T00:00:00Z" }, 1],
    ]);
    // A session of S2 on 11-10 counts in S2's previous period only.
    expect(r.two_fa.services[1].listed_days).toEqual({ current: { from: "2026-11-14", to: "2026-11-22" }, previous: { from: "2026-11-07", to: "2026-11-15" } });
  });
});

describe("item 3 against the simulator: the mixed windows", () => {
  it("S1 on 11-01..21 and S2 on 11-15..21, no run period: each listed for its own periods, S2's sessions of 11-08..14 only in its previous period", async () => {
    behave();
    const config = {
      two_fa: {
        sessions: [],
        services: [
          { service_id: S1, from: "2026-11-01", to: "2026-11-21" },
          { service_id: S2, from: "2026-11-15", to: "2026-11-21" },
        ],
      },
    };
    const r = await audit(client(), config, { now: NOW });
    const listed = log.filter((q) => q.path.endsWith("/sessions")).map((q) => `${q.path.split("/")[4].slice(0, 4)} ${q.query.get("from")}..${q.query.get("to")}`);
    // Current periods first (a day more on each side), then each service's own previous period.
    expect(listed).toEqual(["5100 2026-10-31..2026-11-22", "5200 2026-11-14..2026-11-22", "5100 2026-10-10..2026-11-01", "5200 2026-11-07..2026-11-15"]);
    expect(r.previous_period).toBeNull();
    const byService = Object.fromEntries(r.two_fa.services.map((x) => [x.service_id.slice(0, 4), [x.current.sessions, x.previous.sessions]]));
    // S1: 11-02 and 11-10 now, 10-20 before. S2: 11-16 now; 11-09 and 11-12 before; 11-05 in neither.
    expect(byService).toEqual({ "5100": [2, 1], "5200": [1, 2] });
    expect(r.two_fa.current.sessions).toBe(3);
    expect(r.two_fa.sessions.map((x) => x.session_id.slice(0, 3)).sort()).toEqual(["51b", "51c", "52d"]);
  });
});

describe("item 4: a listing whose days are the account's zone loses nothing", () => {
  it("asks a day more on each side and keeps the sessions by created_at", async () => {
    // The listing answers by New York days: a session of 2026-11-10T02:00Z is on New York's 11-09.
    const nyDay = (iso: string) => new Date(Date.parse(iso) - 5 * 3_600_000).toISOString().slice(0, 10);
    const sessions = [
      { at: "2026-11-10T02:00:00Z", id: "a" },
      { at: "2026-11-10T23:30:00Z", id: "b" },
      { at: "2026-11-11T03:00:00Z", id: "c" }, // New York's 11-10, UTC's 11-11: outside the period
      { at: "2026-11-09T23:00:00Z", id: "d" }, // before the period
    ].map(({ at, id }) => ({ created_at: at, session_id: `200${id}`.padEnd(32, "0"), phone_number: "1", destination_country: "US", status: "verified", charge: "0.01", service_id: TEN, service_name: "Zone" }));
    proxy.set({
      before: (req) => {
        log.push(req);
        if (req.path !== `/v1/two-fa/service/${TEN}/sessions`) return undefined;
        const from = req.query.get("from")!;
        const to = req.query.get("to")!;
        const items = sessions.filter((s) => nyDay(s.created_at) >= from && nyDay(s.created_at) <= to);
        return items.length === 0 ? notFound : { status: 200, body: items };
      },
    });
    const report = await audit(client(), { two_fa: { sessions: [], services: [{ service_id: TEN }] } }, { now: NOW, window: runWindow({ from: "2026-11-10", to: "2026-11-10" }, NOW) });
    expect(report.two_fa.sessions.map((s) => s.session_id[3])).toEqual(["a", "b"]);
    const asked = log.filter((r) => r.path.endsWith("/sessions")).map((r) => `${r.query.get("from")}..${r.query.get("to")}`);
    // the current period's listing and the previous one's go out together: in either order
    expect(asked.sort()).toEqual(["2026-11-08..2026-11-10", "2026-11-09..2026-11-11"]);
    expect(report.methodology.join(" ")).toContain("one more day on each side");
    // Asking only the UTC day (what the audit did before) would have lost session a.
    expect(sessions.filter((s) => nyDay(s.created_at) === "2026-11-10").map((s) => s.session_id[3])).toEqual(["b", "c"]);
  });
});

describe("item 5: the request deadline does not count the client's own pacing queue", () => {
  it("against a 50 requests/s limiter that answers 429 with Retry-After: 1, every request completes within its deadline (--timeout 2)", async () => {
    const server = await createRateLimitedServer({ ratePerSecond: 50, burst: 5, retryAfterSeconds: 1, holdMs: 20, body: [] });
    try {
      // Each request's own attempts take milliseconds; the queue behind the pacer (after 429s, the
      // whole family waits Retry-After and then goes at a lowered rate) takes seconds. Counted
      // against the deadline, it failed requests that the server never saw late ("timed out after 1 ms").
      const c = new WavixClient({ apiKey: KEY, baseUrl: server.url, timeoutMs: 2000, concurrency: 8 });
      const results = await Promise.allSettled(Array.from({ length: 400 }, () => c.listBrandVettings("B1")));
      const failed = results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason));
      expect(failed).toEqual([]);
      expect(server.counts.limited).toBeGreaterThan(0);
      // Counted as the answers arrive (an answer the client stopped waiting for is not seen).
      expect(c.stats.rateLimited).toBeGreaterThan(0);
      expect(c.stats.rateLimited).toBeLessThanOrEqual(server.counts.limited);
    } finally {
      await server.close();
    }
  }, 120_000);
});

describe("item 5: pacing that tracks a server's rate limit", () => {
  it("the audit against the simulator limited to 50 requests/s (429, Retry-After: 1): the same report as without the limit, the same requests answered, few refusals, none failed by time queued (timeout 1 s)", async () => {
    // 150 brands of the account (a vettings listing each) besides the 2FA listings: some 160
    // requests, three seconds' worth at 50/s, so the limit is met many times over.
    const base = seed();
    const template = base.brands![0];
    const brands = Array.from({ length: 150 }, (_, k) => ({
      ...template,
      brand_id: `BRL${String(k).padStart(4, "0")}`,
      vettings: [{ ...template.vettings![0], vetting_id: `00000000-0000-4000-8000-${String(k).padStart(12, "0")}`, vetting_score: 60 + (k % 40) }],
    }));
    const accountSeed = { ...base, brands: [...base.brands!, ...brands] };
    const free = await startSimulator({ port: 0, seed: accountSeed });
    const limited = await startSimulator({ port: 0, seed: accountSeed, rateLimit: { perSecond: 50, burst: 5, retryAfterSeconds: 1 } });
    try {
      const config = { two_fa: { sessions: [], services: [{ service_id: TEN, from: "2026-11-10", to: "2026-11-10" }] }, ten_dlc: { brands: "all" as const, min_vetting_score: 75 } };
      const expected = await audit(new WavixClient({ apiKey: KEY, baseUrl: free.url }), config, { now: NOW });
      // A 1 s timeout gives each request 4 s for its attempts, about the whole run: counted from
      // the queue behind the pacer (as before issue #35), the last requests would fail.
      const c = new WavixClient({ apiKey: KEY, baseUrl: limited.url, timeoutMs: 1000 });
      const got = await audit(c, config, { now: NOW });
      const figures = (r: AuditReport) => ({ complete: r.complete, gaps: r.gaps, findings: r.findings, two_fa: r.two_fa, ten_dlc: r.ten_dlc });
      expect(figures(got)).toEqual(figures(expected));
      const refused = limited.log.filter((e) => e.status === 429).length;
      expect(limited.log.filter((e) => e.status !== 429).map((e) => `${e.method} ${e.path}`).sort()).toEqual(free.log.map((e) => `${e.method} ${e.path}`).sort());
      expect(refused).toBeGreaterThan(0);
      // The limit learned: a refusal now and then, not one a round (a fifth of the requests at most).
      expect(refused).toBeLessThanOrEqual(free.log.length / 5);
      expect(c.stats).toEqual({ requests: limited.log.length, retries: refused, rateLimited: refused });
    } finally {
      await free.close();
      await limited.close();
    }
  }, 120_000);
});

describe("item 6: headline figures at the minimum of requests", () => {
  it("one profile, one listing per service and period; events only with --events and never for the previous period", async () => {
    behave();
    const config = { two_fa: { sessions: [], services: [{ service_id: TEN, from: "2026-11-10", to: "2026-11-10" }] } };
    const head = await audit(client(), config, { now: NOW });
    expect(log.map((r) => r.path)).toEqual(["/v1/profile", `/v1/two-fa/service/${TEN}/sessions`, `/v1/two-fa/service/${TEN}/sessions`]);
    expect(head.two_fa.current).toMatchObject({ sessions: 10, verified: 8, charge_total: "0.50" });
    expect(head.complete).toBe(true);
    log = [];
    await audit(client(), config, { now: NOW, events: true });
    const events = log.filter((r) => r.path.endsWith("/events"));
    expect(events).toHaveLength(10);
    expect(log).toHaveLength(13);
  });
});

describe("item 7: provenance and integrity", () => {
  it("states the API root, a key fingerprint (never the key), the runner, request counts; --out has a manifest; a failed run removes the stale report", async () => {
    behave();
    const file = await yaml("ten.yaml", TEN_YAML);
    const out = join(dir, "prov-out");
    const env = { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: proxy.url, GITHUB_ACTIONS: "true", GITHUB_RUN_ID: "4242", GITHUB_REPOSITORY: "acme/infra", CI: "true" };
    const r = await runCli(["audit", "-f", file, "--format", "json", "--out", out], env, dir);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as AuditReport;
    expect(report.source).toEqual({
      api_root: proxy.url,
      key_fingerprint: `sha256:${createHash("sha256").update(KEY).digest("hex").slice(0, 16)}`,
      requests: { total: 3, retries: 0, rate_limited: 0 },
    });
    expect(report.runner).toMatchObject({ kind: "github", ci: { GITHUB_RUN_ID: "4242", GITHUB_REPOSITORY: "acme/infra" } });
    expect(r.stdout + r.stderr).not.toContain(KEY);
    expect(report.format_version).toBe(2);
    expect(report.methodology.length).toBeGreaterThan(5);

    // The report validates against the published JSON Schema.
    const schema = JSON.parse(await readFile(join(__dirname, "..", "..", "schemas", "audit-report.schema.json"), "utf8")) as object;
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    // And an incomplete one too (with its events and gaps).
    const events = (await audit(client(), { two_fa: { sessions: [], services: [{ service_id: TEN, from: "2026-11-10", to: "2026-11-10" }] } }, { now: NOW, events: true })) as AuditReport;
    expect(validate(JSON.parse(JSON.stringify(events))), JSON.stringify(validate.errors)).toBe(true);

    // manifest.sha256 holds every file's SHA-256, in sha256sum's format.
    const manifest = await readFile(join(out, "manifest.sha256"), "utf8");
    const files = (await readdir(out)).filter((f) => f !== "manifest.sha256").sort();
    expect(files).not.toContain("events.csv"); // events were not read: no empty table passed off as "no events"
    const lines = manifest.trim().split("\n");
    expect(lines.map((l) => l.slice(66)).sort()).toEqual(files);
    for (const l of lines) expect(l.slice(0, 64)).toBe(createHash("sha256").update(await readFile(join(out, l.slice(66)))).digest("hex"));

    // A failed run into the same --out leaves none of the earlier report behind.
    await writeFile(join(out, "notes.txt"), "mine");
    proxy.set({ before: (req) => (req.path.endsWith("/sessions") ? { status: 400, body: { success: false, message: "Validation failed", errors: { from: ["invalid"] } } } : undefined) });
    const failed = await runCli(["audit", "-f", file, "--format", "json", "--out", out], env, dir);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("removed");
    expect(await readdir(out)).toEqual(["notes.txt"]);
  });

  it("a run that fails once its sessions are final (the previous period's listing refused) leaves neither report files nor the temporary files written ahead", async () => {
    behave();
    const file = await yaml("ten.yaml", TEN_YAML);
    const out = join(dir, "ahead-out");
    const env = { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: proxy.url };
    const ok = await runCli(["audit", "-f", file, "--events", "--allow-incomplete", "--out", out], env, dir);
    expect(ok.code, ok.stderr).toBe(0);
    expect(await readdir(out)).toContain("events.csv");
    // The period's listing answers; the previous period's (asked after it) is refused: by then
    // sessions.csv, events.csv and audit.json's sessions were being written ahead.
    let listings = 0;
    proxy.set({ before: (req) => (req.path.endsWith("/sessions") && ++listings > 1 ? { status: 400, body: { success: false, message: "Validation failed", errors: { from: ["invalid"] } } } : undefined) });
    const failed = await runCli(["audit", "-f", file, "--events", "--allow-incomplete", "--out", out], env, dir);
    expect(failed.code).toBe(1);
    expect(listings).toBe(2);
    expect(failed.stderr).toContain("removed");
    expect(await readdir(out)).toEqual([]);
    // Into folders that did not exist: the failed run takes away the folders it made for them.
    listings = 0;
    const fresh = join(dir, "made-by-the-run", "report");
    const failedFresh = await runCli(["audit", "-f", file, "--events", "--allow-incomplete", "--out", fresh], env, dir);
    expect(failedFresh.code).toBe(1);
    expect(listings).toBe(2);
    expect(existsSync(join(dir, "made-by-the-run"))).toBe(false);
  });
});

describe("item 8: 10DLC", () => {
  const v = (id: string, status: string, score: number | null, created: string): BrandVetting =>
    ({ evp_id: "AEGIS", vetting_id: id, vetting_token: null, vetting_score: score, vetting_class: "STANDARD", vetting_status: status, create_date: created, vetted_date: null, reasons: [] }) as unknown as BrandVetting;

  it("an effective score from an EXPIRED vetting while the newest FAILED is an error finding", () => {
    const r = computeTenDlc([{ brand_id: "B1", vettings: [v("v1", "EXPIRED", 90, "2026-01-01T00:00:00Z"), v("v2", "FAILED", null, "2026-11-01T00:00:00Z")] }], 75, NOW);
    expect(r.value[0].effective_score).toBe(90);
    expect(r.findings).toContainEqual(expect.objectContaining({ severity: "error", code: "vetting_newest_failed", subject: "B1" }));
  });

  it("equal timestamps are ordered by vetting_id, whatever order the API sent them in", () => {
    const a = v("v-a", "ACTIVE", 80, "2026-11-01T00:00:00Z");
    const b = v("v-b", "ACTIVE", 60, "2026-11-01T00:00:00Z");
    for (const order of [[a, b], [b, a]]) {
      const r = computeTenDlc([{ brand_id: "B1", vettings: order }], undefined, NOW);
      expect([r.value[0].effective_score, r.value[0].previous_score, r.value[0].score_fell]).toEqual([60, 80, true]);
      expect(r.value[0].vettings.map((x) => x.vetting_id)).toEqual(["v-a", "v-b"]);
    }
  });

  it("max_vetting_age_days: an older newest scored vetting is an error finding", () => {
    const brands = [{ brand_id: "B1", vettings: [v("v1", "ACTIVE", 90, "2025-11-01T00:00:00Z")] }];
    expect(computeTenDlc(brands, undefined, NOW, 365).findings).toContainEqual(expect.objectContaining({ severity: "error", code: "vetting_too_old", subject: "B1" }));
    expect(computeTenDlc(brands, undefined, NOW, 400).findings).toEqual([]);
  });

  it("brands: all with one brand's vettings answering 404: the report is made, with the gap", async () => {
    proxy.set({ before: (req) => (req.path === "/v3/10dlc/brands/BPEND01/vettings" ? notFound : undefined) });
    const report = await audit(client(), { ten_dlc: { brands: "all", min_vetting_score: 75 } }, { now: NOW });
    expect(report.complete).toBe(false);
    expect(report.gaps.items).toEqual([expect.objectContaining({ code: "brand_vettings_not_found", subject: "BPEND01" })]);
    expect(report.ten_dlc.brands.map((b) => b.brand_id)).toContain("B6AI7PA");
  });
});
