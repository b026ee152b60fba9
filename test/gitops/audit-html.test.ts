/**
 * `audit --format html`: the page is produced by the CLI against the simulator, opened in real
 * headless Chromium, and every number it shows is checked against the JSON report of the same run,
 * recomputed here from the JSON (not by the renderer's own helpers).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Decimal from "decimal.js";
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { startSimulator, type Simulator } from "../../src/simulator";
import { renderHtml, type AuditReport } from "../../src/audit";
import { openInChromium, type PageVisit } from "../helpers/chromium";
import { ROOT, runCli, scratch, writeYaml } from "../helpers/cli";
import { AUDIT_FILE, auditAccount, DIRECT_SESSION, SERVICE_A, SERVICE_B } from "./audit-account";

/** Where the screenshot goes (the README's picture is a copy of it, in docs/). */
export const SCREENSHOT = join(ROOT, ".tmp", "gitops", "audit-html.png");

const KEY = "gitops-audit-key-3b7a";
let sim: Simulator;
let report: AuditReport;
let htmlFile: string;
let stdoutHtml: string;
let opened: PageVisit | undefined;
let launchError: unknown;

/**
 * The page in the browser. Without Chromium every browser test fails with the launcher's message
 * (rather than the whole file being reported as skipped tests behind one hook error).
 */
function browser(): PageVisit {
  if (opened === undefined) throw launchError;
  return opened;
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: auditAccount(), apiKeys: [{ key: KEY }] });
  const env = { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url };
  const dir = scratch();
  const file = writeYaml(dir, "wavix.yaml", AUDIT_FILE);
  const out = join(dir, "reports");
  const r = await runCli(["audit", "-f", file, "--format", "html", "--out", out, "--fail-on-findings"], env);
  expect(r.code, r.stderr).toBe(2); // error findings, and --fail-on-findings
  stdoutHtml = r.stdout;
  report = JSON.parse(readFileSync(join(out, "audit.json"), "utf8")) as AuditReport;
  htmlFile = join(out, "audit.html");
  try {
    opened = await openInChromium(htmlFile);
  } catch (err) {
    launchError = err;
  }
});

afterAll(async () => {
  await opened?.close();
  await sim?.close();
});

/** What the page's elements say, read in the browser. */
interface Seen {
  days: { day: string; success: number; failed: number; pending: number; other: number; total: number; charge: string; texts: string[] }[];
  rates: { service: string; sessions: number; verified: number; text: string; bad: boolean }[];
  brands: { brand: string; score: string; pending: string; text: string; bad: boolean; hatched: boolean }[];
  findings: { severity: string; code: string }[];
  verdict: { errors: number; warnings: number; text: string };
  totals: Record<string, string>;
  thresholds: string[];
}

/** The little of the DOM read here (the project compiles without the DOM library). */
interface El {
  getAttribute(name: string): string | null;
  querySelector(selector: string): El | null;
  querySelectorAll(selector: string): Iterable<El>;
  textContent: string | null;
  classList: { contains(c: string): boolean };
  attributes: Iterable<{ name: string; value: string }>;
}

function readPage(): Promise<Seen> {
  return browser().evaluate(() => {
    // Runs in the page.
    const document = (globalThis as unknown as { document: El }).document;
    const num = (e: El, a: string) => Number(e.getAttribute(a));
    return {
      days: [...document.querySelectorAll("g.day")].map((g) => ({
        day: g.getAttribute("data-day")!,
        success: num(g, "data-success"),
        failed: num(g, "data-failed"),
        pending: num(g, "data-pending"),
        other: num(g, "data-other"),
        total: num(g, "data-total"),
        charge: g.getAttribute("data-charge")!,
        texts: [...g.querySelectorAll("text")].map((t) => t.textContent ?? ""),
      })),
      rates: [...document.querySelectorAll("g.rate")].map((g) => ({
        service: g.getAttribute("data-service")!,
        sessions: num(g, "data-sessions"),
        verified: num(g, "data-verified"),
        text: g.querySelector("text.value")!.textContent ?? "",
        bad: g.querySelector("text.value")!.classList.contains("bad"),
      })),
      brands: [...document.querySelectorAll("g.brand")].map((g) => ({
        brand: g.getAttribute("data-brand")!,
        score: g.getAttribute("data-score")!,
        pending: g.getAttribute("data-pending")!,
        text: g.querySelector("text.value")!.textContent ?? "",
        bad: g.querySelector("text.value")!.classList.contains("bad"),
        hatched: [...g.querySelectorAll("rect")].some((r) => (r.getAttribute("fill") ?? "").startsWith("url(#hatch")),
      })),
      findings: [...document.querySelectorAll("tr.finding")].map((r) => ({
        severity: r.getAttribute("data-severity")!,
        code: r.getAttribute("data-code")!,
      })),
      verdict: (() => {
        const v = document.querySelector(".verdict")!;
        return { errors: num(v, "data-errors"), warnings: num(v, "data-warnings"), text: v.textContent ?? "" };
      })(),
      totals: Object.fromEntries(
        [...document.querySelector("#two-fa-totals")!.attributes].filter((a) => a.name.startsWith("data-")).map((a) => [a.name.slice(5), a.value]),
      ),
      thresholds: [...document.querySelectorAll("text.threshold-label")].map((t) => t.textContent ?? ""),
    };
  });
}

describe("audit --format html in headless Chromium", () => {
  it("loads with no console error and no request besides the page itself, and is what --out wrote", async () => {
    const visit = browser();
    expect(visit.errors).toEqual([]);
    expect(visit.requests).toEqual([]);
    expect(readFileSync(htmlFile, "utf8")).toBe(stdoutHtml);
    // Self-contained: no script, and the only URL in the page is the SVG namespace.
    expect(stdoutHtml).not.toMatch(/<script|<link|<img|<iframe|@import/i);
    expect(stdoutHtml.match(/https?:\/\/[^\s"')]+/g)?.filter((u) => u !== "http://www.w3.org/2000/svg") ?? []).toEqual([]);
    expect(stdoutHtml).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
  });

  it("puts the findings first, and they are the JSON's findings", async () => {
    const seen = await readPage();
    const html = readFileSync(htmlFile, "utf8");
    expect(html.indexOf('id="findings"')).toBeLessThan(html.indexOf('id="two-fa"'));
    expect(seen.findings).toEqual(report.findings.map((f) => ({ severity: f.severity, code: f.code })));
    const errors = report.findings.filter((f) => f.severity === "error").length;
    expect(seen.verdict).toMatchObject({ errors, warnings: report.findings.length - errors });
    expect(seen.verdict.text).toBe(`${errors} error findings, ${report.findings.length - errors} warnings.`);
    // The account was built to raise these.
    expect(report.findings.map((f) => `${f.code} ${f.subject}`)).toEqual([
      "two_fa_failure_ratio_exceeded two_fa",
      "vetting_score_below_minimum BLOW02",
      "vetting_score_below_minimum BMIX04",
      "vetting_pending BMIX04",
      "vetting_pending BPEND03",
    ]);
  });

  it("shows 2FA events per day stacked by status with the exact charge totals of the JSON", async () => {
    const seen = await readPage();
    // Recompute from the JSON report.
    const want = new Map<string, { success: number; failed: number; pending: number; charge: Decimal; scale: number }>();
    for (const s of report.two_fa.sessions) {
      for (const e of s.events) {
        const day = e.created_at.slice(0, 10);
        const w = want.get(day) ?? { success: 0, failed: 0, pending: 0, charge: new Decimal(0), scale: 0 };
        w[e.status as "success" | "failed" | "pending"] += 1;
        w.charge = w.charge.plus(e.charge);
        w.scale = Math.max(w.scale, e.charge.split(".")[1]?.length ?? 0);
        want.set(day, w);
      }
    }
    const withEvents = seen.days.filter((d) => d.total > 0);
    expect(withEvents.map((d) => d.day)).toEqual([...want.keys()].sort());
    for (const d of withEvents) {
      const w = want.get(d.day)!;
      expect({ success: d.success, failed: d.failed, pending: d.pending, other: d.other }).toEqual({
        success: w.success,
        failed: w.failed,
        pending: w.pending,
        other: 0,
      });
      // Exact, at the largest scale among the day's charges, and printed as such under the bar.
      expect(d.charge).toBe(w.charge.toFixed(w.scale));
      expect(d.texts).toContain(d.charge);
      expect(d.texts).toContain(String(d.total));
    }
    // Gaps are empty days on the axis (11-04 has the direct session only; none is missing).
    expect(seen.days.map((d) => d.day)).toEqual(["2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05", "2026-11-06"]);
    // The days add up to the report's totals, exactly.
    const sum = (k: "success" | "failed" | "pending") => seen.days.reduce((n, d) => n + d[k], 0);
    expect({ success: sum("success"), failed: sum("failed"), pending: sum("pending") }).toEqual(report.two_fa.events_by_status);
    expect(seen.days.reduce((t, d) => t.plus(d.charge), new Decimal(0)).eq(report.two_fa.charge_total)).toBe(true);
    expect(seen.totals).toMatchObject({
      charge: report.two_fa.charge_total,
      sessions: String(report.two_fa.sessions.length),
      success: String(report.two_fa.events_by_status.success),
    });
  });

  it("shows the verification rate per service against max_failure_ratio", async () => {
    const seen = await readPage();
    const group = (id: string | undefined) => report.two_fa.sessions.filter((s) => s.service_id === id);
    const expected = [
      { service: SERVICE_A, list: group(SERVICE_A) },
      { service: SERVICE_B, list: group(SERVICE_B) },
      { service: "", list: group(undefined) },
      { service: "all", list: report.two_fa.sessions },
    ].map(({ service, list }) => {
      const verified = list.filter((s) => s.verified).length;
      const pct = new Decimal(verified).times(100).div(list.length).toDecimalPlaces(1).toFixed(1);
      return {
        service,
        sessions: list.length,
        verified,
        text: `${verified} of ${list.length} verified (${pct}%)`,
        bad: list.length - verified > 0.25 * list.length,
      };
    });
    expect(seen.rates).toEqual(expected);
    expect(group(undefined).map((s) => s.session_id)).toEqual([DIRECT_SESSION]);
    expect(seen.rates.map((r) => r.bad)).toEqual([false, true, false, true]);
    expect(seen.thresholds).toContain("minimum 75.0% (max_failure_ratio 0.25)");
  });

  it("shows the vetting score per brand against min_vetting_score, pending ones marked", async () => {
    const seen = await readPage();
    expect(seen.brands).toEqual(
      report.ten_dlc.brands.map((b) => ({
        brand: b.brand_id,
        score: b.effective_score === null ? "" : String(b.effective_score),
        pending: String(b.pending),
        text: `${b.effective_score === null ? "no score" : `score ${b.effective_score}`}${b.pending ? " · PENDING" : ""}`,
        bad: b.effective_score === null ? !b.pending : b.effective_score < 75,
        hatched: b.pending,
      })),
    );
    expect(seen.brands.map((b) => [b.brand, b.score, b.pending])).toEqual([
      ["BGOOD01", "82", "false"],
      ["BLOW02", "60", "false"],
      ["BPEND03", "", "true"],
      ["BMIX04", "70", "true"],
    ]);
    expect(seen.thresholds).toContain("min_vetting_score 75");
  });

  it("writes a screenshot to the test output", async () => {
    mkdirSync(join(ROOT, ".tmp", "gitops"), { recursive: true });
    await browser().screenshot(SCREENSHOT);
    const png = readFileSync(SCREENSHOT);
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect(statSync(SCREENSHOT).size).toBeGreaterThan(10_000);
  });
});

describe("renderHtml", () => {
  it("escapes every value from the account, and is the same bytes for the same report", () => {
    const hostile = '<script>alert(1)</script>"\'&';
    const r: AuditReport = {
      generated_at: "2026-11-22T10:00:00Z",
      two_fa: { charge_total: "0", events_by_status: { success: 0, failed: 0, pending: 0 }, sessions: [] },
      ten_dlc: { brands: [{ brand_id: hostile, vettings: [], effective_score: null, pending: false }] },
      findings: [{ severity: "error", code: "vetting_score_missing", subject: hostile, message: `brand ${hostile}` }],
    };
    const html = renderHtml(r, { minVettingScore: 75 });
    expect(html).not.toContain("<script");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;");
    expect(renderHtml(r, { minVettingScore: 75 })).toBe(html);
    expect(html).toContain("No 2FA events in the report.");
  });
});
