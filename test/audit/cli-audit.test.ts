/**
 * `wavix-sync audit` as a user runs it: the compiled CLI in a child process, against a simulator
 * started here on a random loopback port, whose request log is the referee of what was asked.
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type SimSeed, type Simulator } from "../../src/simulator";
import { demoSeed } from "../../src/simulator/demo";
import { renderCsvTable, renderJson, type AuditReport } from "../../src/audit";
import { runCli, type CliRun } from "../helpers/cli";

const KEY = "sim-demo-key";
const SERVICE = "7204a030201211ee9fb47d093f2f127c";
/** A service with sessions relative to now (this file's own): one a day over 70 days. */
const RECENT = "5e55e55e201211ee9fb47d093f2f5e55";
const DAY = 86_400_000;
const VERSION = (require("../../package.json") as { version: string }).version;

let sim: Simulator;
let dir: string;

/** The CLI in the scratch folder, with the demo key and this simulator unless `env` says otherwise. */
function run(args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  return runCli(args, { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url, ...env }, dir);
}

async function writeYaml(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text, "utf8");
  return file;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const startOfToday = () => Math.floor(Date.now() / DAY) * DAY;

/**
 * The demo account plus RECENT: a session at 12:00 UTC on each of the 70 days before today, every
 * third one not verified, charges at two scales.
 */
function seed(): SimSeed {
  const demo = demoSeed();
  const today = startOfToday();
  const sessions = Array.from({ length: 70 }, (_, i) => {
    const t = today - (i + 1) * DAY + 12 * 3_600_000;
    const at = (s: number) => new Date(t + s * 1000).toISOString();
    const verified = i % 3 !== 0;
    return {
      session_id: `5e55${String(i).padStart(28, "0")}`,
      phone_number: "15551230001",
      status: verified ? "verified" : "failed",
      created_at: at(0),
      // The listing's charge, as the API gives it: the sum of the session's event charges.
      charge: i % 2 ? "0.05" : "0.0475",
      events: [
        { created_at: at(1), event: "Code sent via SMS", status: "success" as const, charge: i % 2 ? "0.05" : "0.0475", error: null },
        { created_at: at(30), event: "Verification", status: verified ? ("success" as const) : ("failed" as const), charge: "0", error: verified ? null : "Invalid code" },
      ],
    };
  });
  return { ...demo, twoFaServices: [...(demo.twoFaServices ?? []), { service_id: RECENT, service_name: "Recent logins", sessions }] };
}

const STRICT = `version: 1
audit:
  two_fa:
    sessions: [8753d4308f2e11ecb75fcdafd6d2d690]
    services: [{ service_id: ${SERVICE}, from: "2026-11-01", to: "2026-11-21" }]
    max_failure_ratio: 0.2
  ten_dlc:
    brands: all
    min_vetting_score: 75
`;

const LENIENT = `version: 1
audit:
  two_fa:
    sessions: [8753d4308f2e11ecb75fcdafd6d2d690]
    max_failure_ratio: 0.5
  ten_dlc:
    brands: [B6AI7PA, BPEND01]
    min_vetting_score: 75
`;

/** RECENT without a window in the file: the run gives it. */
const WINDOWLESS = `version: 1
account_id: 1000
audit:
  two_fa:
    services:
      - service_id: ${RECENT}
        max_failure_ratio: 0.4
      - service_id: ${SERVICE}
    max_failure_ratio: 0.2
`;

beforeAll(async () => {
  // dist/ is built once by test/global-setup.ts.
  sim = await startSimulator({ port: 0, seed: seed() });
  dir = await mkdtemp(join(tmpdir(), "wavix-audit-cli-"));
}, 180_000);

afterAll(async () => {
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * A run whose expected window is computed from the clock: retried once when UTC midnight passed
 * during it (then the window it used and the one computed differ by a day).
 */
async function runAtStableDay(args: string[]): Promise<{ r: CliRun; today: number; requests: Simulator["log"] }> {
  for (let attempt = 0; ; attempt++) {
    const today = startOfToday();
    const before = sim.log.length;
    const r = await run(args);
    if (startOfToday() === today || attempt > 0) return { r, today, requests: sim.log.slice(before) };
  }
}

describe("wavix-sync audit: the period belongs to the run", () => {
  it("--last 30d asks one listing per service and period (the 30 full days before today and the 30 before those, a day more on each side) and no event", async () => {
    const file = await writeYaml("windowless.yaml", WINDOWLESS);
    const { r, today, requests } = await runAtStableDay(["audit", "-f", file, "--last", "30d", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as AuditReport;
    expect(report.period).toEqual({ from: `${day(today - 30 * DAY)}T00:00:00Z`, to: `${day(today)}T00:00:00Z` });
    expect(report.previous_period).toEqual({ from: `${day(today - 60 * DAY)}T00:00:00Z`, to: `${day(today - 30 * DAY)}T00:00:00Z` });
    expect(report.asked.window).toBe("last 30d");

    // The profile first (the pin), then one listing per service and period, each asked for the
    // period's days with one more day on each side (the listing's zone is not documented), and no
    // event at all: the listing gives each session's status and charge (issue #35, items 4 and 6).
    expect(requests[0].path).toBe("/v1/profile");
    const listings = requests.filter((e) => e.path.endsWith("/sessions"));
    const asked = (service: string) =>
      listings
        .filter((e) => e.path === `/v1/two-fa/service/${service}/sessions`)
        .map((e) => {
          const q = new URLSearchParams(e.query);
          return [q.get("from"), q.get("to")];
        });
    const days = (from: number, n: number) => Array.from({ length: n }, (_, i) => day(from + i * DAY));
    for (const service of [RECENT, SERVICE]) {
      expect(asked(service)).toEqual([
        [day(today - 31 * DAY), day(today)],
        [day(today - 61 * DAY), day(today - 30 * DAY)],
      ]);
    }
    expect(listings).toHaveLength(4);
    expect(requests.filter((e) => e.path.endsWith("/events"))).toEqual([]);
    expect(requests).toHaveLength(5);
    expect(report.complete).toBe(true);

    // RECENT: sessions i = 0..29 in the period (i % 3 === 0 not verified), 30..59 before it.
    const recent = report.two_fa.services.find((s) => s.service_id === RECENT)!;
    expect(recent.current).toEqual({ sessions: 30, verified: 20, not_verified: 10, unknown: 0, failure_ratio: "0.333333", charge_total: "1.4625" });
    expect(recent.previous).toEqual({ sessions: 30, verified: 20, not_verified: 10, unknown: 0, failure_ratio: "0.333333", charge_total: "1.4625" });
    expect(recent.change).toEqual({ sessions: 0, failure_ratio: "0.000000", charge_total: "0.0000" });
    // Every day of the period, none missing: RECENT's one session a day, plus the demo service's of that day.
    const demoOn = (d: string) => (demoSeed().twoFaServices ?? []).flatMap((x) => x.sessions).filter((x) => x.created_at.startsWith(d)).length;
    expect(report.two_fa.daily.map((d) => [d.date, d.sessions])).toEqual(days(today - 30 * DAY, 30).map((d) => [d, 1 + demoOn(d)]));
    expect(report.account).toEqual({ id: 1000 });
    expect(report.tool).toEqual({ name: "wavix-sync", version: VERSION });
  });

  it("--last 24h reads the two days it touches and keeps only the sessions of the 24 hours", async () => {
    const file = await writeYaml("windowless.yaml", WINDOWLESS);
    const { r, requests } = await runAtStableDay(["audit", "-f", file, "--last", "24h", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as AuditReport;
    const hour = Math.floor(Date.parse(report.generated_at) / 3_600_000) * 3_600_000;
    expect(report.period).toEqual({ from: new Date(hour - DAY).toISOString().replace(".000", ""), to: new Date(hour).toISOString().replace(".000", "") });
    const asked = requests.filter((e) => e.path === `/v1/two-fa/service/${RECENT}/sessions`).map((e) => [new URLSearchParams(e.query).get("from"), new URLSearchParams(e.query).get("to")]);
    // The days the period touches with one more on each side; then the previous period's.
    const edges = (from: number, to: number) => [day(Math.floor(from / DAY) * DAY - DAY), day(Math.floor((to - 1) / DAY) * DAY + DAY)];
    expect(asked).toEqual([edges(hour - DAY, hour), edges(hour - 2 * DAY, hour - DAY)]);
    // RECENT has one session at 12:00 on each day before today: yesterday's is in the 24 hours
    // exactly when they end at or before today 12:00; the one before never is.
    const recent = report.two_fa.services.find((s) => s.service_id === RECENT)!;
    const todayStart = Math.floor(hour / DAY) * DAY;
    expect(recent.current.sessions).toBe(hour <= todayStart + 12 * 3_600_000 ? 1 : 0);
    expect(recent.previous.sessions).toBe(1);
  });

  it("--from/--to override the file's windows; the services without one are valid with them", async () => {
    const file = await writeYaml("strict.yaml", STRICT);
    const before = sim.log.length;
    const r = await run(["audit", "-f", file, "--from", "2026-11-05", "--to", "2026-11-06", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as AuditReport;
    expect(report.period).toEqual({ from: "2026-11-05T00:00:00Z", to: "2026-11-07T00:00:00Z" });
    expect(report.asked.window).toBe("2026-11-05 to 2026-11-06");
    const asked = sim.log
      .slice(before)
      .filter((e) => e.path.endsWith("/sessions"))
      .map((e) => `${new URLSearchParams(e.query).get("from")}..${new URLSearchParams(e.query).get("to")}`);
    // the current period's listing and the previous one's, each with its edge days; they go out
    // together, so in either order
    expect(asked.sort()).toEqual(["2026-11-02..2026-11-05", "2026-11-04..2026-11-07"]);
    // Only the 11-05 session is in the period; the named session (of 11-03) is still audited, as a named one.
    expect(report.two_fa.services[0].current.sessions).toBe(1);
    expect(report.two_fa.named_sessions?.current.sessions).toBe(1);
    expect(report.two_fa.sessions.map((s) => s.session_id)).toEqual(["2953d4308f2e11ecb75fcdafd6d2d687", "8753d4308f2e11ecb75fcdafd6d2d690"]);
  });

  it("refuses bad, conflicting and too long windows and --table without csv, exit 1, before any request", async () => {
    const file = await writeYaml("windowless.yaml", WINDOWLESS);
    const before = sim.log.length;
    const cases: [string[], string][] = [
      [["--last", "30"], 'Error: --last takes a whole number of days or hours, like 30d, 7d or 24h; got "30"\n'],
      [["--last", "400d"], "Error: --last 400d is longer than 366 days, the longest period one audit reads (one request per session in it); audit a longer span as several runs\n"],
      [["--last", "7d", "--from", "2026-11-01", "--to", "2026-11-02"], "Error: --last and --from/--to both give the period: use one of them\n"],
      [["--from", "2026-11-01"], "Error: --from 2026-11-01 needs --to (the last day of the period, inclusive)\n"],
      [["--from", "2026-11-21", "--to", "2026-11-01"], "Error: --to 2026-11-01 is before --from 2026-11-21: the period would be empty\n"],
      [["--from", "2026-11-31", "--to", "2026-12-01"], 'Error: --from takes a day as YYYY-MM-DD (UTC), got "2026-11-31"\n'],
      [["--from", "2025-01-01", "--to", "2026-06-30"], "Error: --from 2025-01-01 --to 2026-06-30 spans 546 days, more than 366, the longest period one audit reads (one request per session in it); audit a longer span as several runs\n"],
      [["--last", "7d", "--table", "daily"], "Error: --table picks the table --format csv prints; this run prints --format md\n"],
    ];
    for (const [flags, stderr] of cases) {
      const r = await run(["audit", "-f", file, ...flags]);
      expect({ flags, code: r.code, stderr: r.stderr, stdout: r.stdout }).toEqual({ flags, code: 1, stderr, stdout: "" });
    }
    expect(sim.log.length).toBe(before);
  });
});

describe("wavix-sync audit: no silent pass", () => {
  it("no audit: section and no window: exit 1 saying what to declare, no request", async () => {
    const file = await writeYaml("none.yaml", "version: 1\n");
    const before = sim.log.length;
    const r = await run(["audit", "-f", file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `Error: ${file} has no audit: section and the run gives no period; declare under audit: the 2FA services to audit (audit.two_fa.services, over --last 30d / --from DATE --to DATE or their own from/to), 2FA sessions (audit.two_fa.sessions) or 10DLC brands (audit.ten_dlc.brands, or all); see docs/AUDIT.md\n`,
    );
    const withWindow = await run(["audit", "-f", file, "--last", "7d"]);
    expect(withWindow.code).toBe(1);
    expect(withWindow.stderr).toContain("has no audit: section: the run's window (last 7d) gives the period, not what to audit;");
    expect(sim.log.length).toBe(before);
  });

  it("a service without from/to and a run without a window: FILE:LINE:COL naming it, exit 1, no request", async () => {
    const file = await writeYaml("windowless.yaml", WINDOWLESS);
    const before = sim.log.length;
    const r = await run(["audit", "-f", file]);
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n").filter(Boolean)).toEqual([
      `${file}:6:9: 2FA service ${RECENT} has no period: run with --last 30d (or --from DATE --to DATE), or give it from and to (at audit.two_fa.services[0])`,
      `${file}:8:9: 2FA service ${SERVICE} has no period: run with --last 30d (or --from DATE --to DATE), or give it from and to (at audit.two_fa.services[1])`,
    ]);
    expect(sim.log.length).toBe(before);
  });

  it("an empty period is a stated result: a warning per quiet service and a verdict that says so, not 'No findings'", async () => {
    const file = await writeYaml("quiet.yaml", `version: 1\naudit:\n  two_fa:\n    services: [{ service_id: ${SERVICE} }]\n`);
    const r = await run(["audit", "-f", file, "--from", "2026-10-01", "--to", "2026-10-02"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("**Result:** 0 error findings, 1 warning (0 2FA sessions and 0 10DLC brands checked).");
    expect(r.stdout).toContain(`| warning | \`two_fa_no_sessions\` | ${SERVICE} |`);
    expect(r.stdout).not.toContain("No findings");
  });
});

describe("wavix-sync audit: the account", () => {
  it("account_id of another account: exit 1 after GET /v1/profile alone, as plan and apply refuse", async () => {
    const file = await writeYaml("pinned.yaml", WINDOWLESS.replace("account_id: 1000", "account_id: 999"));
    const before = sim.log.length;
    const r = await run(["audit", "-f", file, "--last", "7d", "--out", join(dir, "never")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `Error: GET /v1/profile: the API key belongs to account 1000, but ${file} account_id pins account 999; stopped before reading or writing anything else (check WAVIX_API_KEY, or the pin)\n`,
    );
    expect(r.stdout).toBe("");
    expect(sim.log.slice(before).map((e) => e.path)).toEqual(["/v1/profile"]);
    await expect(readdir(join(dir, "never"))).rejects.toThrow();
  });

  it("a read-only key without the account's profile: exit 1 naming GET /v1/profile, nothing else read", async () => {
    const restricted = await startSimulator({ port: 0, seed: seed(), apiKeys: [{ key: "audit-only-key", restricted: { two_fa: "read", campaigns: "read" } }] });
    try {
      const file = await writeYaml("windowless.yaml", WINDOWLESS.replace("account_id: 1000\n", ""));
      const r = await runCli(["audit", "-f", file, "--last", "7d"], { WAVIX_API_KEY: "audit-only-key", WAVIX_BASE_URL: restricted.url }, dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^Error: GET \/v1\/profile: /);
      expect(r.stderr).not.toContain("audit-only-key");
      expect(restricted.log.map((e) => e.path)).toEqual(["/v1/profile"]);
    } finally {
      await restricted.close();
    }
  });

  it("every format states the account, the period, when and by which version", async () => {
    const file = await writeYaml("windowless.yaml", WINDOWLESS);
    const args = ["audit", "-f", file, "--from", "2026-11-01", "--to", "2026-11-21"];
    const md = await run(args);
    expect(md.stdout).toContain("- **Account:** 1000\n- **Period:** 2026-11-01 – 2026-11-21 (UTC, 21 days)");
    expect(md.stdout).toMatch(new RegExp(`- \\*\\*Generated:\\*\\* \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ by wavix-sync ${VERSION.replace(/\./g, "\\.")}`));
    const json = JSON.parse((await run([...args, "--format", "json"])).stdout) as AuditReport;
    // The keys the published JSON Schema requires, in its order.
    const schema = JSON.parse(await readFile(join(__dirname, "..", "..", "schemas", "audit-report.schema.json"), "utf8")) as { required: string[] };
    expect(Object.keys(json)).toEqual(schema.required);
    expect([json.account, json.period, json.tool.version]).toEqual([{ id: 1000 }, { from: "2026-11-01T00:00:00Z", to: "2026-11-22T00:00:00Z" }, VERSION]);
    const html = (await run([...args, "--format", "html"])).stdout;
    expect(html).toContain(`data-account="1000" data-period-from="2026-11-01T00:00:00Z" data-period-to="2026-11-22T00:00:00Z"`);
    expect(html).toContain(`data-tool-version="${VERSION}"`);
    for (const table of ["sessions", "events", "daily", "services", "brands", "vettings", "findings", "report"]) {
      const csv = (await run([...args, "--format", "csv", "--table", table])).stdout.split("\r\n");
      expect(csv[0].startsWith("account_id,period_from,period_to,generated_at,tool_version,"), table).toBe(true);
      for (const line of csv.slice(1, -1)) expect(line, table).toMatch(new RegExp(`^1000,2026-11-01T00:00:00Z,2026-11-22T00:00:00Z,\\d{4}-[^,]+Z,${VERSION.replace(/\./g, "\\.")},`));
    }
  });
});

describe("wavix-sync audit: formats, files and exit codes", () => {
  it("--format json prints the report and exits 0 with findings when --fail-on-findings is absent", async () => {
    const file = await writeYaml("strict.yaml", STRICT);
    const r = await run(["audit", "-f", file, "--format", "json"]);
    expect(r.stderr).not.toContain(KEY);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as AuditReport;
    expect(report.two_fa.charge_total).toBe("0.1000");
    // The finding's subject is the service that failed.
    expect(report.findings.map((f) => [f.code, f.subject])).toEqual([
      ["two_fa_failure_ratio_exceeded", SERVICE],
      ["vetting_pending", "BPEND01"],
    ]);
    expect(r.stdout.startsWith('{\n  "format_version": 2,\n  "complete": true,')).toBe(true);
  });

  it("--fail-on-findings exits 2 when there is an error finding, after printing the report", async () => {
    const file = await writeYaml("strict.yaml", STRICT);
    const r = await run(["audit", "-f", file, "--fail-on-findings"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("## Findings");
    expect(r.stdout).toContain("two_fa_failure_ratio_exceeded");
  });

  it("--fail-on-findings exits 0 when there are only warnings", async () => {
    const file = await writeYaml("lenient.yaml", LENIENT);
    const r = await run(["audit", "-f", file, "--fail-on-findings", "--format", "json"]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { findings: { severity: string }[] };
    expect(report.findings.map((f) => f.severity)).toEqual(["warning"]);
  });

  it("names every unknown session and brand and exits 1 without a stack trace", async () => {
    const file = await writeYaml(
      "unknown.yaml",
      `version: 1
audit:
  two_fa:
    sessions: [0000d4308f2e11ecb75fcdafd6d2d000]
  ten_dlc:
    brands: [BNOPE99]
`,
    );
    const r = await run(["audit", "-f", file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("2FA session 0000d4308f2e11ecb75fcdafd6d2d000 not found");
    expect(r.stderr).toContain("10DLC brand BNOPE99 not found");
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe("");
  });

  it("refuses to run without WAVIX_API_KEY, saying where the key goes", async () => {
    const file = await writeYaml("strict.yaml", STRICT);
    const before = sim.log.length;
    const r = await run(["audit", "-f", file], { WAVIX_API_KEY: undefined });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("WAVIX_API_KEY");
    expect(sim.log.length).toBe(before);
  });

  it("a rejected key exits 1 with the API's message and never echoes the key", async () => {
    const file = await writeYaml("strict.yaml", STRICT);
    const wrongKey = "wrong-key-5f2c9a";
    const r = await run(["audit", "-f", file], { WAVIX_API_KEY: wrongKey });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: /);
    expect(r.stderr + r.stdout).not.toContain(wrongKey);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("reports file problems as FILE:LINE:COL lines before any request and exits 1", async () => {
    const file = await writeYaml(
      "bad.yaml",
      `version: 1
audit:
  ten_dlc:
    brands: [B6AI7PA]
    min_vetting_score: "high"
  two_fa:
    services:
      - { service_id: ${SERVICE}, from: "2026-11-01" }
`,
    );
    const before = sim.log.length;
    const r = await run(["audit", "-f", file, "--last", "7d"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bad\.yaml:\d+:\d+: /);
    expect(r.stderr).toContain(`bad.yaml:8:63: from without to: give the service's window with both, or neither (then the run gives it: wavix-sync audit --last 30d, or --from DATE --to DATE) (at audit.two_fa.services[0].from)`);
    expect(sim.log.length).toBe(before);
  });

  it("--format csv prints one table (sessions by default, --table another), never two", async () => {
    const file = await writeYaml("strict.yaml", STRICT);
    const sessions = await run(["audit", "-f", file, "--format", "csv"]);
    expect(sessions.code).toBe(0);
    const lines = sessions.stdout.split("\r\n");
    expect(lines[0]).toBe(
      "account_id,period_from,period_to,generated_at,tool_version,session_id,service_id,service_name,created_at,verified,charge_total,figures_from,events_read,events,first_event_at,last_event_at,last_event,last_event_status",
    );
    // One header, no blank line between tables: one CSV.
    expect(lines.filter((l) => l.startsWith("account_id,"))).toHaveLength(1);
    expect(lines.slice(0, -1).every((l) => l !== "")).toBe(true);
    expect(lines.at(-1)).toBe("");
    expect(lines).toHaveLength(4);
    const daily = await run(["audit", "-f", file, "--format", "csv", "--table", "daily"]);
    expect(daily.stdout.split("\r\n")).toHaveLength(23); // header, 21 days, trailing ""
  });

  it("--out DIR writes audit.json, audit.md, audit.html and one CSV per table, with no temp files left", async () => {
    const file = await writeYaml("strict.yaml", STRICT);
    const out = join(dir, "reports", "nested");
    const r = await run(["audit", "-f", file, "--out", out, "--format", "json", "--events"]);
    expect(r.code).toBe(0);
    expect((await readdir(out)).sort()).toEqual([
      "audit.html",
      "audit.json",
      "audit.md",
      "brands.csv",
      "daily.csv",
      "events.csv",
      "findings.csv",
      "manifest.sha256",
      "report.csv",
      "services.csv",
      "sessions.csv",
      "vettings.csv",
    ]);
    const json = await readFile(join(out, "audit.json"), "utf8");
    expect(json).toBe(r.stdout);
    expect((JSON.parse(json) as AuditReport).two_fa.charge_total).toBe("0.1000");
    expect(await readFile(join(out, "audit.md"), "utf8")).toContain("# Wavix audit");
    const events = await readFile(join(out, "events.csv"), "utf8");
    expect(events.split("\r\n")[0]).toBe("account_id,period_from,period_to,generated_at,tool_version,session_id,service_id,created_at,event,status,charge,error");
    // The demo's error text holds a comma and quotes: RFC 4180 quoting.
    expect(events).toContain('"Invalid code, expected ""6 digits"""');
    const vettings = await readFile(join(out, "vettings.csv"), "utf8");
    expect(vettings).toContain(",B6AI7PA,13d8e00c-3cb4-4dc0-9e26-d5057fa938d9,AEGIS,2026-11-03T10:15:00Z,2026-11-03T10:20:00Z,ACTIVE,STANDARD,82,");
    // The files streamed from the spool, read in arrays, are what the renderers make of the whole report.
    const report = JSON.parse(json) as AuditReport;
    expect(json).toBe(renderJson(report));
    expect(await readFile(join(out, "sessions.csv"), "utf8")).toBe(renderCsvTable("sessions", report));
    expect(events).toBe(renderCsvTable("events", report));
  });
});
