/**
 * `audit --format html`: the page is produced by the CLI against the simulator, opened in real
 * headless Chromium, and every number it shows is checked against the JSON report of the same run,
 * recomputed here from the JSON's sessions (not by the renderer's own helpers); what the page covers
 * (account, period) is visible above the fold at a phone's and a desktop's width.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Decimal from "decimal.js";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startSimulator, type Simulator } from "../../src/simulator";
import { computeAudit, renderHtml, runWindow, type AuditReport, type CollectedSession } from "../../src/audit";
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
  covers: Record<string, string>;
  days: { day: string; sessions: number; verified: number; notVerified: number; charge: string; texts: string[] }[];
  rates: { service: string; sessions: number; verified: number; max: string; exceeded: string; previous: string | null; text: string; bad: boolean; thresholdLines: number }[];
  brands: { brand: string; score: string; previous: string; fell: string; pending: string; text: string; bad: boolean; hatched: boolean }[];
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
    const data = (e: El) => Object.fromEntries([...e.attributes].filter((a) => a.name.startsWith("data-")).map((a) => [a.name.slice(5), a.value]));
    return {
      covers: data(document.querySelector("dl.covers")!),
      days: [...document.querySelectorAll("g.day")].map((g) => ({
        day: g.getAttribute("data-day")!,
        sessions: num(g, "data-sessions"),
        verified: num(g, "data-verified"),
        notVerified: num(g, "data-not-verified"),
        charge: g.getAttribute("data-charge")!,
        texts: [...g.querySelectorAll("text")].map((t) => t.textContent ?? ""),
      })),
      rates: [...document.querySelectorAll("g.rate")].map((g) => ({
        service: g.getAttribute("data-service")!,
        sessions: num(g, "data-sessions"),
        verified: num(g, "data-verified"),
        max: g.getAttribute("data-max")!,
        exceeded: g.getAttribute("data-exceeded")!,
        previous: g.getAttribute("data-previous-sessions"),
        text: g.querySelector("text.value")!.textContent ?? "",
        bad: g.querySelector("text.value")!.classList.contains("bad"),
        thresholdLines: [...g.querySelectorAll("line.threshold")].length,
      })),
      brands: [...document.querySelectorAll("g.brand")].map((g) => ({
        brand: g.getAttribute("data-brand")!,
        score: g.getAttribute("data-score")!,
        previous: g.getAttribute("data-previous")!,
        fell: g.getAttribute("data-fell")!,
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
      totals: data(document.querySelector("#two-fa-totals")!),
      thresholds: [...document.querySelectorAll("text.threshold-label")].map((t) => t.textContent ?? ""),
    };
  });
}

/** Exact decimal sum at the largest scale among the inputs, recomputed here ("0" for none). */
function exactSum(values: string[]): string {
  const scale = Math.max(0, ...values.map((v) => v.split(".")[1]?.length ?? 0));
  return values.reduce((t, v) => t.plus(v), new Decimal(0)).toFixed(scale);
}

describe("audit --format html in headless Chromium", () => {
  it("loads with no console error and no request besides the page itself, and is what --out wrote", async () => {
    const visit = browser();
    expect(visit.errors).toEqual([]);
    expect(visit.requests).toEqual([]);
    expect(readFileSync(htmlFile, "utf8")).toBe(stdoutHtml);
    // Self-contained: no script, and the only URLs in the page are the SVG namespace and, as text,
    // the API root the report was read from (its provenance; docs/AUDIT.md).
    expect(stdoutHtml).not.toMatch(/<script|<link|<img|<iframe|@import/i);
    expect(stdoutHtml).toContain(`${sim.url},`);
    expect(stdoutHtml.match(/https?:\/\/[^\s"')<,]+/g)?.filter((u) => u !== "http://www.w3.org/2000/svg" && u !== sim.url) ?? []).toEqual([]);
    expect(stdoutHtml).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
  });

  it("says first what it covers: the account, the period, what was compared and asked, when and by which version", async () => {
    const seen = await readPage();
    expect(seen.covers).toEqual({
      account: String(report.account.id),
      "period-from": report.period!.from,
      "period-to": report.period!.to,
      "generated-at": report.generated_at,
      tool: "wavix-sync",
      "tool-version": report.tool.version,
    });
    const text = await browser().evaluate(() => {
      const d = (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document;
      return ["#account", "#period", "#previous-period", "#asked", "#generated"].map((id) => d.querySelector(id)?.textContent ?? "");
    });
    expect(text).toEqual([
      "1000",
      "2026-11-01 – 2026-11-21 (UTC, 21 days) (2026-11-01T00:00:00Z to 2026-11-22T00:00:00Z, end excluded)",
      "2026-10-11 – 2026-10-31 (UTC, 21 days), the previous period",
      `2FA services Login codes (${SERVICE_A}), Payouts (${SERVICE_B}) over their own from/to in the file; 2FA session ${DIRECT_SESSION}; max_failure_ratio 0.25; every 10DLC brand; min_vetting_score 75`,
      expect.stringContaining(`${report.generated_at} by wavix-sync ${report.tool.version} (report format ${report.format_version}), `),
    ]);
  });

  it("puts the findings before the figures, and they are the JSON's findings", async () => {
    const seen = await readPage();
    const html = readFileSync(htmlFile, "utf8");
    expect(html.indexOf('id="findings"')).toBeLessThan(html.indexOf('id="two-fa"'));
    expect(seen.findings).toEqual(report.findings.map((f) => ({ severity: f.severity, code: f.code })));
    const errors = report.findings.filter((f) => f.severity === "error").length;
    expect(seen.verdict).toMatchObject({ errors, warnings: report.findings.length - errors });
    expect(seen.verdict.text).toBe(`${errors} error findings, ${report.findings.length - errors} warnings (9 2FA sessions and 4 10DLC brands checked).`);
    // The account was built to raise these; the failing service is the 2FA finding's subject.
    expect(report.findings.map((f) => `${f.code} ${f.subject}`)).toEqual([
      `two_fa_failure_ratio_exceeded ${SERVICE_B}`,
      "vetting_score_below_minimum BLOW02",
      "vetting_score_below_minimum BMIX04",
      "vetting_pending BMIX04",
      "vetting_pending BPEND03",
      "vetting_score_fell BLOW02",
    ]);
  });

  it("shows every day of the period, zero days included, sessions stacked verified / not verified with the exact charges of the JSON", async () => {
    const seen = await readPage();
    // Recompute from the JSON report's sessions (their listing's created_at and charge: the headline
    // figures come from the sessions listings, docs/AUDIT.md), services' only.
    const want = new Map<string, { sessions: number; verified: number; charges: string[] }>();
    for (const s of report.two_fa.sessions.filter((x) => x.service_id !== undefined)) {
      const d = String(s.created_at).slice(0, 10);
      const w = want.get(d) ?? { sessions: 0, verified: 0, charges: [] };
      w.sessions += 1;
      if (s.verified) w.verified += 1;
      if (s.charge_total !== null) w.charges.push(s.charge_total);
      want.set(d, w);
    }
    expect(seen.days.map((d) => d.day)).toEqual(Array.from({ length: 21 }, (_, i) => `2026-11-${String(i + 1).padStart(2, "0")}`));
    for (const d of seen.days) {
      const w = want.get(d.day) ?? { sessions: 0, verified: 0, charges: [] };
      expect({ day: d.day, sessions: d.sessions, verified: d.verified, notVerified: d.notVerified, charge: d.charge }).toEqual({
        day: d.day,
        sessions: w.sessions,
        verified: w.verified,
        notVerified: w.sessions - w.verified,
        charge: exactSum(w.charges),
      });
      // The labelled days print their count; a charge printed under a bar is that day's exact charges
      // (charge labels are spaced by the longest one, so not every labelled day has one).
      if (d.sessions > 0 && d.texts.length > 1) {
        expect(d.texts).toContain(String(d.sessions));
        expect(d.texts.filter((t) => /^\d+\.\d+$/.test(t)).every((t) => t === d.charge)).toBe(true);
      }
    }
    expect(seen.days.filter((d) => d.sessions > 0 && d.texts.includes(d.charge)).length).toBeGreaterThan(0);
    // The days add up to the period's figures, exactly; and they are the JSON's daily series.
    expect(seen.days.reduce((n, d) => n + d.sessions, 0)).toBe(report.two_fa.current.sessions);
    expect(exactSum(seen.days.map((d) => d.charge))).toBe(report.two_fa.current.charge_total);
    expect(seen.days.map((d) => [d.day, d.sessions, d.verified, d.charge])).toEqual(report.two_fa.daily.map((d) => [d.date, d.sessions, d.verified, d.charge_total]));
  });

  it("shows the period against the previous one with exact changes", async () => {
    const seen = await readPage();
    const services = report.two_fa.sessions.filter((s) => s.service_id !== undefined);
    const verified = services.filter((s) => s.verified).length;
    const charge = exactSum(services.flatMap((s) => (s.charge_total === null ? [] : [s.charge_total])));
    expect(seen.totals).toMatchObject({
      sessions: String(services.length),
      verified: String(verified),
      "not-verified": String(services.length - verified),
      charge,
      // October: 3 sessions of Login codes, 2 not verified; charges 3 × 0.0525 − 2 × 0.0000 + …
      "previous-sessions": "3",
      "previous-failure-ratio": "0.666667",
      "previous-charge": "0.1575",
      "change-sessions": String(services.length - 3),
      "change-charge": new Decimal(charge).minus("0.1575").toFixed(4),
      "report-sessions": String(report.two_fa.sessions.length),
      "report-charge": report.two_fa.charge_total,
    });
    // The change of the failure ratio is the exact difference of the two ratios shown.
    expect(seen.totals["change-failure-ratio"]).toBe(new Decimal(seen.totals["failure-ratio"]).minus(seen.totals["previous-failure-ratio"]).toFixed(6));
  });

  it("shows the verification rate per service against its own max_failure_ratio, the previous period beside it", async () => {
    const seen = await readPage();
    const group = (id: string | undefined) => report.two_fa.sessions.filter((s) => s.service_id === id);
    const expected = [
      { service: SERVICE_A, list: group(SERVICE_A), max: 0.3, previous: "3" },
      { service: SERVICE_B, list: group(SERVICE_B), max: 0.25, previous: "0" },
      { service: "", list: group(undefined), max: 0.25, previous: null },
    ].map(({ service, list, max, previous }) => {
      const v = list.filter((s) => s.verified).length;
      const pct = new Decimal(v).times(100).div(list.length).toDecimalPlaces(1).toFixed(1);
      const bad = new Decimal(list.length - v).gt(new Decimal(max).times(list.length));
      return {
        service,
        sessions: list.length,
        verified: v,
        max: String(max),
        exceeded: String(bad),
        previous,
        text: `${v} of ${list.length} verified (${pct}%) · min ${new Decimal(1).minus(max).times(100).toFixed(1)}%`,
        bad,
        thresholdLines: 1,
      };
    });
    expect(seen.rates).toEqual(expected);
    expect(group(undefined).map((s) => s.session_id)).toEqual([DIRECT_SESSION]);
    expect(seen.rates.map((r) => r.bad)).toEqual([false, true, false]);
    // Services are named by the API's service_name, not by their hex ids.
    const labels = await browser().evaluate(() =>
      [...(globalThis as unknown as { document: El }).document.querySelectorAll("g.rate text.label")].map((t) => t.textContent ?? ""),
    );
    expect(labels).toEqual(["Login codes", "Payouts", "Sessions named in the file"]);
  });

  it("shows the vetting score per brand against min_vetting_score, pending ones hatched, a fall said", async () => {
    const seen = await readPage();
    expect(seen.brands).toEqual(
      report.ten_dlc.brands.map((b) => ({
        brand: b.brand_id,
        score: b.effective_score === null ? "" : String(b.effective_score),
        previous: b.previous_score === null ? "" : String(b.previous_score),
        fell: String(b.score_fell),
        pending: String(b.pending),
        text: `${b.effective_score === null ? "no score" : `score ${b.effective_score}${b.previous_score === null ? "" : b.score_fell ? `, down from ${b.previous_score}` : `, was ${b.previous_score}`}`}${b.pending ? " · PENDING" : ""}`,
        bad: b.effective_score === null ? !b.pending : b.effective_score < 75,
        hatched: b.pending,
      })),
    );
    expect(seen.brands.map((b) => [b.brand, b.score, b.previous, b.fell, b.pending])).toEqual([
      ["BGOOD01", "82", "", "false", "false"],
      ["BLOW02", "60", "80", "true", "false"],
      ["BPEND03", "", "", "false", "true"],
      ["BMIX04", "70", "", "false", "true"],
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
  /** Where the account and the period are drawn, and the viewport's height (above the fold?). */
  fold: { viewport: number; account: { top: number; bottom: number; text: string }; period: { top: number; bottom: number; text: string } };
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
    const place = (id: string) => {
      const e = [...g.document.querySelectorAll(id)][0];
      const b = e.getBoundingClientRect();
      return { top: b.top, bottom: b.bottom, text: shown(e) ? (e.textContent ?? "") : "" };
    };
    const fold = { viewport: (globalThis as unknown as { innerHeight: number }).innerHeight, account: place("#account"), period: place("#period") };
    return { scrollWidth: g.document.documentElement.scrollWidth, texts, textColours, marks, fold };
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

  it("shows the account and the period above the fold, without scrolling", () => {
    page();
    const { viewport, account, period } = layout.fold;
    expect(viewport).toBe(height);
    expect(account.text).toBe("1000");
    expect(period.text).toContain("2026-11-01 – 2026-11-21 (UTC, 21 days)");
    for (const box of [account, period]) {
      expect(box.top).toBeGreaterThanOrEqual(0);
      expect(box.bottom).toBeLessThanOrEqual(viewport);
    }
  });

  it("renders every chart text at 11 px or more, each inside its chart", () => {
    page();
    expect(layout.texts.length).toBeGreaterThan(20);
    expect(layout.texts.filter((t) => t.fontPx < 11).map((t) => `${t.text}: ${t.fontPx.toFixed(1)} px`)).toEqual([]);
    expect(layout.texts.filter((t) => !t.inside).map((t) => `${t.text}: ${t.box}`)).toEqual([]);
    // The values that were cut before (e.g. "1062 of 1434 verified (74.") are whole, and shown.
    const shown = layout.texts.map((t) => t.text);
    for (const s of report.two_fa.services) {
      const r = `${s.current.verified} of ${s.current.sessions} verified (`;
      expect(shown.some((t) => t.startsWith(r) && /%\) · min \d+\.\d%$/.test(t)), r).toBe(true);
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
  const LONG = "7204a030201211ee9fb47d093f2f127c";
  const OTHER = "9a04a030201211ee9fb47d093f2f1200";
  const sessions: CollectedSession[] = [];
  for (let i = 0; i < 1434; i++) {
    const day = `2026-10-${String(1 + (i % 31)).padStart(2, "0")}`;
    sessions.push({
      session_id: `s${i}`,
      service_id: i % 2 === 0 ? LONG : OTHER,
      ...(i % 2 === 0 ? { service_name: "Customer login one-time codes for the mobile banking app (EU)" } : {}),
      created_at: `${day}T10:00:00.000Z`,
      events: [
        // Charges with many decimals: the labels under the days are long (issue #35, item 8).
        { created_at: `${day}T10:00:00.000Z`, event: "Code sent via SMS", status: i % 5 === 0 ? "failed" : "success", charge: "0.047512345678", error: null },
        ...(i % 4 !== 0 ? [{ created_at: `${day}T10:01:00.000Z`, event: "Verification", status: "success" as const, charge: "0", error: null }] : []),
      ],
    });
  }
  const now = new Date("2026-11-22T10:00:00Z");
  return computeAudit(
    {
      sessions,
      brands: [{ brand_id: "B6AI7PA-0000-LONG-BRAND-IDENTIFIER-9999", vettings: [{ evp_id: "AEGIS", create_date: "2026-11-01T00:00:00Z", vetted_date: null, vetting_id: "v", vetting_token: null, vetting_score: 100, vetting_class: "STANDARD", vetting_status: "PENDING", reasons: null }] }],
    },
    { two_fa: { sessions: [], services: [{ service_id: LONG }, { service_id: OTHER, max_failure_ratio: 0.1 }], max_failure_ratio: 0.25 }, ten_dlc: { brands: "all", min_vetting_score: 75 } },
    { now, accountId: 123456789, window: runWindow({ from: "2026-10-01", to: "2026-10-31" }, now) },
  );
}

describe.each(WIDTHS)("a crowded report at $name width ($width px)", ({ width, height }) => {
  it("keeps every chart text whole, inside its chart, at 11 px or more, with no horizontal overflow", async () => {
    if (opened === undefined) throw launchError;
    const file = join(scratch(), "crowded.html");
    writeFileSync(file, renderHtml(crowdedReport()));
    const visit = await openInChromium(file, { width, height });
    try {
      const layout = await measure(visit);
      expect(layout.scrollWidth).toBeLessThanOrEqual(width);
      expect(layout.texts.filter((t) => t.fontPx < 11).map((t) => `${t.text}: ${t.fontPx.toFixed(1)} px`)).toEqual([]);
      expect(layout.texts.filter((t) => !t.inside).map((t) => `${t.text}: ${t.box}`)).toEqual([]);
      // The charge labels (long decimals) never overlap one another.
      const money = layout.texts
        .filter((t) => /^\d+\.\d{8,}$/.test(t.text))
        .map((t) => ({ text: t.text, left: Number(t.box.split("..")[0]), right: Number(t.box.split("..")[1].split(" ")[0]) }))
        .sort((a, b) => a.left - b.left);
      expect(money.length).toBeGreaterThan(1);
      const overlaps = money.slice(1).filter((m, i) => m.left < money[i].right).map((m, i) => `${money[i].text} ${money[i].left}..${money[i].right} / ${m.text} ${m.left}..${m.right}`);
      expect(overlaps).toEqual([]);
      // The long values that were cut before are whole, and shown.
      expect(layout.texts.map((t) => t.text)).toContain("358 of 717 verified (49.9%) · min 75.0%");
      expect(layout.texts.map((t) => t.text)).toContain("previous period: no sessions");
      expect(layout.fold.account.bottom).toBeLessThanOrEqual(height);
      expect(layout.fold.period.bottom).toBeLessThanOrEqual(height);
    } finally {
      await visit.close();
    }
  });
});

describe("renderHtml", () => {
  it("escapes every value from the account, and is the same bytes for the same report", () => {
    const hostile = '<script>alert(1)</script>"\'&';
    const r = computeAudit(
      { sessions: [], brands: [{ brand_id: hostile, vettings: [] }] },
      { ten_dlc: { brands: [hostile], min_vetting_score: 75 } },
      { now: new Date("2026-11-22T10:00:00Z"), accountId: 1000 },
    );
    const html = renderHtml(r);
    expect(html).not.toContain("<script");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;");
    expect(renderHtml(r)).toBe(html);
    expect(html).toContain("No 2FA service or session is audited.");
  });
});
