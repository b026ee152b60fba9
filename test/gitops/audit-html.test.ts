/**
 * `audit --format html`: the page is produced by the CLI against the simulator, opened in real
 * headless Chromium, and every number it shows is checked against the JSON report of the same run,
 * recomputed here from the JSON (not by the renderer's own helpers).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Decimal from "decimal.js";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startSimulator, type Simulator } from "../../src/simulator";
import { renderHtml, type AuditReport } from "../../src/audit";
import { openInChromium, type PageVisit } from "../helpers/chromium";
import { ROOT, runCli, scratch, writeYaml } from "../helpers/cli";
import { AUDIT_FILE, auditAccount, DIRECT_SESSION, SERVICE_A, SERVICE_B } from "./audit-account";

/** Where the screenshot goes (the README's picture is a copy of it, in docs/). */
export const SCREENSHOT = join(ROOT, ".tmp", "gitops", "audit-html.png");
/** The page at a phone's width and at a desktop's, screenshots beside it. */
const WIDTHS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
] as const;

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
    // Services are named by the API's service_name, not by their hex ids.
    const labels = await browser().evaluate(() =>
      [...(globalThis as unknown as { document: El }).document.querySelectorAll("g.rate text.label")].map((t) => t.textContent ?? ""),
    );
    expect(labels).toEqual(["Login codes", "Payouts", "Sessions named in the file", "All sessions (the finding's basis)"]);
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

/** What one width's layout measures, read in the browser. */
interface Layout {
  scrollWidth: number;
  texts: { text: string; fontPx: number; inside: boolean; box: string }[];
  /** Text colour and the colour behind it (first opaque background up the tree), as CSS rgb(). */
  textColours: { text: string; fg: string; bg: string; size: number; bold: boolean }[];
  /** Chart marks (bars, legend keys, hatch stripes, threshold lines) and what they sit on. */
  marks: { what: string; colour: string; against: string[] }[];
}

function measure(visit: PageVisit): Promise<Layout> {
  return visit.evaluate(() => {
    // Runs in the page (typed loosely: the project compiles without the DOM library).
    type Box = { left: number; right: number; top: number; bottom: number; width: number; height: number };
    type Node = {
      nodeType: number;
      textContent: string | null;
      childNodes: Iterable<Node>;
      parentElement: Node | null;
      tagName: string;
      getAttribute(n: string): string | null;
      getBoundingClientRect(): Box;
      getClientRects(): { length: number };
      getScreenCTM?(): { a: number; d: number } | null;
      closest(s: string): Node | null;
      querySelectorAll(s: string): Iterable<Node>;
    };
    const g = globalThis as unknown as {
      document: { documentElement: { scrollWidth: number }; body: Node; querySelectorAll(s: string): Iterable<Node> };
      getComputedStyle(e: Node): Record<string, string>;
    };
    const style = (e: Node) => g.getComputedStyle(e);
    const opaque = (c: string) => c !== "" && c !== "transparent" && !/rgba\(.*,\s*0\)$/.test(c);
    const backgroundOf = (e: Node | null): string => {
      for (let n = e; n; n = n.parentElement) if (opaque(style(n).backgroundColor)) return style(n).backgroundColor;
      return "rgb(255, 255, 255)";
    };
    const shown = (e: Node) => e.getClientRects().length > 0 && style(e).display !== "none" && style(e).visibility !== "hidden";
    const texts = [...g.document.querySelectorAll("svg text")].filter(shown).map((t) => {
      const svg = t.closest("svg")!;
      const b = t.getBoundingClientRect();
      const s = svg.getBoundingClientRect();
      const ctm = t.getScreenCTM?.();
      const fontPx = parseFloat(style(t).fontSize) * (ctm ? Math.min(Math.abs(ctm.a), Math.abs(ctm.d)) : 1);
      const inside = b.left >= s.left - 0.5 && b.right <= s.right + 0.5 && b.top >= s.top - 0.5 && b.bottom <= s.bottom + 0.5;
      return { text: t.textContent ?? "", fontPx, inside, box: `${b.left.toFixed(1)}..${b.right.toFixed(1)} in ${s.left.toFixed(1)}..${s.right.toFixed(1)}` };
    });
    const textColours: Layout["textColours"] = [];
    const walk = (e: Node) => {
      for (const c of e.childNodes) {
        if (c.nodeType === 3 && (c.textContent ?? "").trim() !== "" && shown(e)) {
          const inSvg = e.closest("svg") !== null;
          const st = style(e);
          textColours.push({
            text: (c.textContent ?? "").trim().slice(0, 40),
            fg: inSvg ? st.fill : st.color,
            bg: backgroundOf(inSvg ? e.closest("svg") : e),
            size: parseFloat(st.fontSize),
            bold: Number(st.fontWeight) >= 700,
          });
        } else if (c.nodeType === 1 && c.tagName !== "title" && c.tagName !== "STYLE" && c.tagName !== "TITLE") walk(c);
      }
    };
    walk(g.document.body);
    const marks: Layout["marks"] = [];
    for (const svg of g.document.querySelectorAll("svg.chart")) {
      const bg = backgroundOf(svg);
      const track = [...svg.querySelectorAll("rect.track")].map((r) => style(r).fill)[0];
      const against = track ? [bg, track] : [bg];
      for (const r of svg.querySelectorAll("rect")) {
        if (r.closest("pattern") !== null) continue;
        const f = style(r).fill;
        if (r.getAttribute("class") === "track" || f.startsWith("url(")) continue;
        marks.push({ what: `${svg.getAttribute("aria-label")} bar/key`, colour: f, against });
      }
      for (const p of svg.querySelectorAll("pattern rect")) marks.push({ what: "pending hatch", colour: style(p).fill, against });
      for (const l of svg.querySelectorAll("line.threshold")) marks.push({ what: "threshold", colour: style(l).stroke, against });
    }
    return { scrollWidth: g.document.documentElement.scrollWidth, texts, textColours, marks };
  });
}

/** WCAG 2.1 contrast ratio of two CSS `rgb()` colours. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/\d+(\.\d+)?/g) ?? ["0", "0", "0"]).slice(0, 3).map((v) => {
      const x = Number(v) / 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

describe.each(WIDTHS)("audit --format html at $name width ($width px)", ({ name, width, height }) => {
  let visit: PageVisit | undefined;
  let layout: Layout;
  beforeAll(async () => {
    if (opened === undefined) return; // the launcher's error is reported by each test below
    visit = await openInChromium(htmlFile, { width, height });
    layout = await measure(visit);
  });
  afterAll(async () => {
    await visit?.close();
  });
  const page = (): PageVisit => {
    if (visit === undefined) throw launchError;
    return visit;
  };

  it("writes a screenshot to the test output", async () => {
    const file = join(ROOT, ".tmp", "gitops", `audit-html-${width}.png`);
    mkdirSync(join(ROOT, ".tmp", "gitops"), { recursive: true });
    await page().screenshot(file);
    expect(readFileSync(file).subarray(1, 4).toString()).toBe("PNG");
  });

  it("has no horizontal overflow", () => {
    page();
    expect(layout.scrollWidth).toBeLessThanOrEqual(width);
  });

  it("renders every chart text at 11 px or more, each inside its chart", () => {
    page();
    expect(layout.texts.length).toBeGreaterThan(20);
    expect(layout.texts.filter((t) => t.fontPx < 11).map((t) => `${t.text}: ${t.fontPx.toFixed(1)} px`)).toEqual([]);
    expect(layout.texts.filter((t) => !t.inside).map((t) => `${t.text}: ${t.box}`)).toEqual([]);
    // The values that were cut before (e.g. "1062 of 1434 verified (74.") are whole, and shown.
    const shown = layout.texts.map((t) => t.text);
    for (const r of report.two_fa.sessions.length > 0 ? [`${report.two_fa.sessions.filter((s) => s.verified).length} of ${report.two_fa.sessions.length} verified`] : []) {
      expect(shown.some((t) => t.startsWith(r) && t.endsWith("%)"))).toBe(true);
    }
  });

  it(`meets WCAG AA contrast: text 4.5:1, chart marks 3:1 (${name})`, () => {
    page();
    const lowText = layout.textColours
      .filter((t) => contrast(t.fg, t.bg) < 4.5)
      .map((t) => `"${t.text}" ${t.fg} on ${t.bg}: ${contrast(t.fg, t.bg).toFixed(2)}`);
    expect(lowText).toEqual([]);
    const lowMarks = layout.marks.flatMap((m) =>
      m.against.filter((b) => contrast(m.colour, b) < 3).map((b) => `${m.what} ${m.colour} on ${b}: ${contrast(m.colour, b).toFixed(2)}`),
    );
    expect(lowMarks).toEqual([]);
    expect(layout.marks.some((m) => m.what === "pending hatch")).toBe(true);
    expect(layout.textColours.some((t) => t.text === "warning")).toBe(true); // the warning severity is measured
  });
});

/** A report with big counts, a long service name, long ids and many days: what got cut before. */
function crowdedReport(): AuditReport {
  const sessions: AuditReport["two_fa"]["sessions"] = [];
  for (let i = 0; i < 1434; i++) {
    const day = `2026-10-${String(1 + (i % 31)).padStart(2, "0")}`;
    sessions.push({
      session_id: `s${i}`,
      service_id: i % 2 === 0 ? "7204a030201211ee9fb47d093f2f127c" : "9a04a030201211ee9fb47d093f2f1200",
      ...(i % 2 === 0 ? { service_name: "Customer login one-time codes for the mobile banking app (EU)" } : {}),
      verified: i % 4 !== 0,
      charge_total: "0.0475",
      events: [{ created_at: `${day}T10:00:00.000Z`, event: "Code sent via SMS", status: i % 5 === 0 ? "failed" : "success", charge: "0.0475", error: null }],
    });
  }
  return {
    generated_at: "2026-11-22T10:00:00Z",
    two_fa: { charge_total: "68.1150", events_by_status: { success: 1147, failed: 287, pending: 0 }, sessions },
    ten_dlc: { brands: [{ brand_id: "B6AI7PA-0000-LONG-BRAND-IDENTIFIER-9999", vettings: [], effective_score: 100, pending: true }] },
    findings: [],
  };
}

describe.each(WIDTHS)("a crowded report at $name width ($width px)", ({ width, height }) => {
  it("keeps every chart text whole, inside its chart, at 11 px or more, with no horizontal overflow", async () => {
    if (opened === undefined) throw launchError;
    const file = join(scratch(), "crowded.html");
    writeFileSync(file, renderHtml(crowdedReport(), { maxFailureRatio: 0.25, minVettingScore: 75 }));
    const visit = await openInChromium(file, { width, height });
    try {
      const layout = await measure(visit);
      expect(layout.scrollWidth).toBeLessThanOrEqual(width);
      expect(layout.texts.filter((t) => t.fontPx < 11).map((t) => `${t.text}: ${t.fontPx.toFixed(1)} px`)).toEqual([]);
      expect(layout.texts.filter((t) => !t.inside).map((t) => `${t.text}: ${t.box}`)).toEqual([]);
      expect(layout.texts.map((t) => t.text)).toContain("1075 of 1434 verified (75.0%)");
    } finally {
      await visit.close();
    }
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
