import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeAudit } from "../../src/audit/compute";
import { CSV_COLUMNS, CSV_TABLES, csvField, renderCsvTable, writeCsvTable } from "../../src/audit/render/csv";
import { renderJson, writeJson } from "../../src/audit/render/json";
import { mdCell, renderMarkdown } from "../../src/audit/render/md";
import { MemorySessions, SpooledSessions } from "../../src/audit/store";
import { runWindow } from "../../src/audit/window";
import type { AuditReport } from "../../src/audit/types";

const NOW = new Date("2026-11-22T10:00:00Z");
const SERVICE = "7204a030201211ee9fb47d093f2f127c";

const report = computeAudit(
  {
    sessions: [
      {
        session_id: "s1",
        service_id: SERVICE,
        service_name: "Login",
        created_at: "2026-11-20T00:00:00Z",
        events: [
          { created_at: "2026-11-20T00:00:00Z", event: "Code sent via SMS", status: "success", charge: "0.0050", error: null },
          { created_at: "2026-11-20T00:01:00Z", event: "Verification", status: "failed", charge: "0.0475", error: 'bad code, "123"\nretry' },
        ],
      },
    ],
    brands: [
      {
        brand_id: "B|1",
        vettings: [
          {
            evp_id: "AEGIS",
            create_date: "2026-10-01 00:00:00",
            vetted_date: null,
            vetting_id: "v1",
            vetting_token: null,
            vetting_score: 50,
            vetting_class: "STANDARD",
            vetting_status: "ACTIVE",
            reasons: ["Low score, see details", 'Says "no"'],
          },
        ],
      },
    ],
  },
  { two_fa: { sessions: [], services: [{ service_id: SERVICE }], max_failure_ratio: 0 }, ten_dlc: { brands: ["B|1"], min_vetting_score: 75 } },
  {
    now: NOW,
    accountId: 1000,
    window: runWindow({ last: "3d" }, NOW),
    tool: { name: "wavix-sync", version: "1.2.3" },
    source: { api_root: "https://api.example.test", key_fingerprint: "sha256:0123456789abcdef", requests: { total: 9, retries: 1, rate_limited: 1 } },
    runner: { kind: "local", host: "ci-runner-7" },
  },
);

const META = "1000,2026-11-19T00:00:00Z,2026-11-22T00:00:00Z,2026-11-22T10:00:00Z,1.2.3";

async function streamed(write: (w: (c: string) => void) => Promise<void>): Promise<string> {
  let out = "";
  await write((c) => void (out += c));
  return out;
}

function sessionsOf(r: AuditReport): MemorySessions {
  const m = new MemorySessions();
  for (const s of r.two_fa.sessions) m.add(s);
  return m;
}

describe("CSV (RFC 4180)", () => {
  it("property: a field is what the rule says, whatever the text (the formula characters, quotes, commas, line breaks)", () => {
    // The rule as written before the field's fast path: neutralise formula-like text, else quote when needed.
    const reference = (value: string | number | boolean): string => {
      const text = String(value);
      if (typeof value === "string" && /^[=+\-@\t\r]/.test(text) && !/^[+-]?\d+(\.\d+)?$/.test(text)) return `"'${text.replace(/"/g, '""')}"`;
      return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
    };
    const chars = fc.constantFrom("=", "+", "-", "@", "\t", "\r", "\n", '"', ",", "1", ".", "a", " ");
    fc.assert(
      fc.property(fc.oneof(fc.array(chars, { maxLength: 6 }).map((c) => c.join("")), fc.string(), fc.double(), fc.integer(), fc.boolean()), (v) => {
        expect(csvField(v)).toBe(reference(v));
      }),
      { numRuns: 3000 },
    );
  });

  it("quotes fields with commas, quotes and newlines, doubling inner quotes; leaves plain fields bare", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("line\nbreak")).toBe('"line\nbreak"');
    expect(csvField(null)).toBe("");
    expect(csvField(42)).toBe("42");
  });

  it("every table starts with account, period, generated at and tool version, on every row", () => {
    for (const table of CSV_TABLES) {
      const lines = renderCsvTable(table, report).split("\r\n").filter((l) => l !== "");
      expect(lines[0], table).toBe(["account_id", "period_from", "period_to", "generated_at", "tool_version", ...CSV_COLUMNS[table]].join(","));
      expect(lines.length, table).toBeGreaterThan(1);
      for (const line of lines.slice(1)) expect(line.startsWith(`${META},`), `${table}: ${line}`).toBe(true);
    }
  });

  it("writes the events table with CRLF records and quoted cells", () => {
    expect(renderCsvTable("events", report)).toBe(
      `account_id,period_from,period_to,generated_at,tool_version,session_id,service_id,created_at,event,status,charge,error\r\n` +
        `${META},s1,${SERVICE},2026-11-20T00:00:00Z,Code sent via SMS,success,0.0050,\r\n` +
        `${META},s1,${SERVICE},2026-11-20T00:01:00Z,Verification,failed,0.0475,"bad code, ""123""\nretry"\r\n`,
    );
  });

  it("writes the daily table with every day of the period, zero days included", () => {
    const rows = renderCsvTable("daily", report).split("\r\n").slice(1, -1);
    expect(rows).toEqual([
      `${META},2026-11-19,0,0,0,0,,0,0,0,0`,
      `${META},2026-11-20,1,0,1,0,1.000000,0.0525,1,1,0`,
      `${META},2026-11-21,0,0,0,0,,0,0,0,0`,
    ]);
  });

  it("writes the vettings table with reasons joined by '; ' and null as empty, and the one-row report table", () => {
    expect(renderCsvTable("vettings", report).split("\r\n")[1]).toBe(`${META},B|1,v1,AEGIS,2026-10-01T00:00:00Z,,ACTIVE,STANDARD,50,"Low score, see details; Says ""no"""`);
    const [header, row] = renderCsvTable("report", report).split("\r\n");
    const cells = Object.fromEntries(header.split(",").map((h, i) => [h, row.split(",")[i]]));
    expect(cells).toMatchObject({ previous_from: "2026-11-16T00:00:00Z", window: "last 3d", asked_services: SERVICE, sessions: "1", failure_ratio: "1.000000", errors: "2" });
  });

  it("streams the same bytes as it renders, from a spool file as from memory", async () => {
    // Nothing kept in memory: every session goes through the file.
    const spool = new SpooledSessions(undefined, 0);
    try {
      for (const s of report.two_fa.sessions) await spool.add(s);
      for (const table of CSV_TABLES) {
        expect(await streamed((w) => writeCsvTable(table, report, spool, w)), table).toBe(renderCsvTable(table, report));
        expect(await streamed((w) => writeCsvTable(table, report, sessionsOf(report), w)), table).toBe(renderCsvTable(table, report));
      }
    } finally {
      spool.dispose();
    }
  });
});

describe("the session spool", () => {
  it("reads back in arrays as it reads back one by one: from memory as one array, from its file some hundreds at a time", async () => {
    const sessions = Array.from({ length: 600 }, (_, i) => ({ ...report.two_fa.sessions[0], session_id: `s${i}` }));
    for (const keep of [1000, 0]) {
      const spool = new SpooledSessions(undefined, keep);
      try {
        for (const s of sessions) await spool.add(s);
        const sizes: number[] = [];
        const back = [];
        for await (const batch of spool.batches()) {
          sizes.push(batch.length);
          back.push(...batch);
        }
        expect(back, `keep ${keep}`).toEqual(sessions);
        expect(sizes, `keep ${keep}`).toEqual(keep > 600 ? [600] : [256, 256, 88]);
      } finally {
        spool.dispose();
      }
    }
  });

  it("keeps up to its memory's worth in memory (no file), beyond that writes every session to a file; both read back whole, in order, any number of times", async () => {
    const parent = mkdtempSync(join(tmpdir(), "wavix-spool-test-"));
    try {
      const sessions = Array.from({ length: 5 }, (_, i) => ({ ...report.two_fa.sessions[0], session_id: `s${i}` }));
      for (const keep of [10, 5, 2, 0]) {
        const spool = new SpooledSessions(parent, keep);
        for (const s of sessions) await spool.add(s);
        expect(spool.count).toBe(5);
        expect(readdirSync(parent).length, `keep ${keep}`).toBe(keep >= 5 ? 0 : 1);
        for (let pass = 0; pass < 2; pass++) {
          const back = [];
          for await (const s of spool) back.push(s);
          expect(back, `keep ${keep}`).toEqual(sessions);
        }
        await expect(spool.add(sessions[0])).rejects.toThrow(/closed/);
        spool.dispose();
        expect(readdirSync(parent)).toEqual([]);
      }
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe("JSON", () => {
  it("is the report, 2-space indented, ending with a newline", () => {
    const text = renderJson(report);
    expect(JSON.parse(text)).toEqual(report);
    expect(text).toContain('\n  "generated_at": "2026-11-22T10:00:00Z"');
    expect(text.endsWith("}\n")).toBe(true);
  });

  it("streamed from the head and the sessions, is byte for byte JSON.stringify of the whole report (none, one, several sessions)", async () => {
    const many = { ...report, two_fa: { ...report.two_fa, sessions: [report.two_fa.sessions[0], { ...report.two_fa.sessions[0], session_id: 's2 "quoted"\n' }] } };
    const none = { ...report, two_fa: { ...report.two_fa, sessions: [] } };
    // More than one batch of sessions stringified together (256), and a batch's exact multiple.
    const batches = (n: number) => ({
      ...report,
      two_fa: { ...report.two_fa, sessions: Array.from({ length: n }, (_, i) => ({ ...report.two_fa.sessions[i % report.two_fa.sessions.length], session_id: `s${i}` })) },
    });
    for (const r of [report, many, none, batches(600), batches(512)]) {
      expect(await streamed((w) => writeJson(r, sessionsOf(r), w))).toBe(renderJson(r));
    }
  });
});

describe("Markdown", () => {
  it("escapes | and flattens newlines in cells", () => {
    expect(mdCell("a|b")).toBe("a\\|b");
    expect(mdCell("one\ntwo")).toBe("one<br>two");
  });

  it("makes server strings inert like plan.md: `</td><script>` stays text, no mention, no link (issue #22)", () => {
    expect(mdCell("</td><script>alert(1)</script>")).toBe("&lt;/td&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(mdCell("@team #12 [x](http://e.x) *b*")).toBe("&#64;team &#35;12 \\[x\\](http://e.x) \\*b\\*");
    const hostile = {
      ...report,
      two_fa: { ...report.two_fa, sessions: report.two_fa.sessions.map((x) => ({ ...x, events: x.events.map((e) => ({ ...e, event: "</td><script>x()</script>" })) })) },
    };
    const md = renderMarkdown(hostile);
    expect(md).not.toMatch(/<\/?(td|script)/);
    expect(md).toContain("&lt;/td&gt;&lt;script&gt;x()&lt;/script&gt;");
  });

  it("states account, period, what was asked, generated at and version first, then findings, 2FA and 10DLC", () => {
    const md = renderMarkdown(report);
    expect(md.split("\n").slice(0, 10)).toEqual([
      "# Wavix audit",
      "",
      "- **Account:** 1000",
      "- **Period:** 2026-11-19 – 2026-11-21 (UTC, 3 days) — from 2026-11-19T00:00:00Z to 2026-11-22T00:00:00Z (end excluded)",
      "- **Compared with:** 2026-11-16 – 2026-11-18 (UTC, 3 days), the previous period of the same length",
      `- **Asked:** 2FA service Login (${SERVICE}) over the last 3d (--last 3d); max\\_failure\\_ratio 0; 10DLC brand B\\|1; min\\_vetting\\_score 75`,
      "- **Generated:** 2026-11-22T10:00:00Z by wavix-sync 1.2.3 (report format 2), host ci-runner-7",
      "- **Read from:** https://api.example.test, key sha256:0123456789abcdef; 9 requests (1 retries, 1 answered 429)",
      "- **Completeness:** complete: every session and brand the report covers was read",
      "",
    ]);
    const findings = md.indexOf("## Findings");
    const twoFa = md.indexOf("## 2FA verifications");
    const tenDlc = md.indexOf("## 10DLC brand vettings");
    expect(findings).toBeGreaterThan(0);
    expect(findings).toBeLessThan(twoFa);
    expect(twoFa).toBeLessThan(tenDlc);
    expect(md).toContain(`| error | \`two_fa_failure_ratio_exceeded\` | ${SERVICE} |`);
    expect(md).toContain("| error | `vetting_score_below_minimum` | B\\|1 |");
    expect(md).toContain("| 2026-11-19 | 0 | 0 | 0 | – | 0 |");
    expect(md).toContain("| s1 | Login | no | 2 | 0.0525 |");
    expect(md).toContain('| B\\|1 | 50 |  |  | 2026-10-01T00:00:00Z | 52 | no | ACTIVE | Low score, see details; Says "no" |');
    // Every row of a table has as many unescaped separators as the table's header.
    const blocks = md.split("\n\n").filter((b) => b.startsWith("|"));
    expect(blocks).toHaveLength(5);
    for (const block of blocks) {
      const counts = block.trim().split("\n").map((l) => l.replace(/\\\|/g, "").split("|").length);
      expect(new Set(counts).size, block).toBe(1);
    }
  });

  it("an empty report says nothing was checked, not 'No findings'", () => {
    const empty = computeAudit({ sessions: [], brands: [] }, { ten_dlc: { brands: [] }, two_fa: { sessions: ["x"], services: [] } }, { now: NOW, accountId: 1 });
    const md = renderMarkdown({ ...empty, two_fa: { ...empty.two_fa, sessions: [] } });
    expect(md).toContain("**Result:** Nothing to check: no 2FA session in the period and no 10DLC brand.");
    expect(md).not.toMatch(/^No findings\.$/m);
  });
});
