import { describe, expect, it } from "vitest";
import { computeAudit } from "../../src/audit/compute";
import { csvField, renderCsv, renderTwoFaEventsCsv, renderVettingsCsv } from "../../src/audit/render/csv";
import { renderJson } from "../../src/audit/render/json";
import { mdCell, renderMarkdown } from "../../src/audit/render/md";

const report = computeAudit(
  {
    sessions: [
      {
        session_id: "s1",
        events: [
          { created_at: "2026-11-01T00:00:00Z", event: "Code sent via SMS", status: "success", charge: "0.0050", error: null },
          { created_at: "2026-11-01T00:01:00Z", event: "Verification", status: "failed", charge: "0.0475", error: 'bad code, "123"\nretry' },
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
  { two_fa: { sessions: ["s1"], services: [], max_failure_ratio: 0 }, ten_dlc: { brands: ["B|1"], min_vetting_score: 75 } },
  { now: new Date("2026-11-22T10:00:00Z") },
);

describe("CSV (RFC 4180)", () => {
  it("quotes fields with commas, quotes and newlines, doubling inner quotes; leaves plain fields bare", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("line1\nline2")).toBe('"line1\nline2"');
    expect(csvField("cr\rhere")).toBe('"cr\rhere"');
    expect(csvField(null)).toBe("");
    expect(csvField(82)).toBe("82");
  });

  it("writes the events CSV with its header, CRLF records and quoted cells", () => {
    expect(renderTwoFaEventsCsv(report)).toBe(
      "session_id,created_at,event,status,charge,error\r\n" +
        "s1,2026-11-01T00:00:00Z,Code sent via SMS,success,0.0050,\r\n" +
        's1,2026-11-01T00:01:00Z,Verification,failed,0.0475,"bad code, ""123""\nretry"\r\n',
    );
  });

  it("writes the vettings CSV with reasons joined by '; ' and null as empty", () => {
    expect(renderVettingsCsv(report)).toBe(
      "brand_id,vetting_id,evp_id,create_date,vetted_date,vetting_status,vetting_class,vetting_score,reasons\r\n" +
        'B|1,v1,AEGIS,2026-10-01T00:00:00Z,,ACTIVE,STANDARD,50,"Low score, see details; Says ""no"""\r\n',
    );
  });

  it("stdout CSV is the events CSV, one empty line, the vettings CSV", () => {
    expect(renderCsv(report)).toBe(`${renderTwoFaEventsCsv(report)}\r\n${renderVettingsCsv(report)}`);
  });
});

describe("JSON", () => {
  it("is the report, 2-space indented, ending with a newline", () => {
    const text = renderJson(report);
    expect(JSON.parse(text)).toEqual(report);
    expect(text).toContain('\n  "generated_at": "2026-11-22T10:00:00Z"');
    expect(text.endsWith("}\n")).toBe(true);
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

  it("puts findings first, then totals and per-session and per-brand tables", () => {
    const md = renderMarkdown(report);
    const findings = md.indexOf("## Findings");
    const twoFa = md.indexOf("## 2FA verifications");
    const tenDlc = md.indexOf("## 10DLC brand vettings");
    expect(findings).toBeGreaterThan(0);
    expect(findings).toBeLessThan(twoFa);
    expect(twoFa).toBeLessThan(tenDlc);
    expect(md).toContain("| error | `two_fa_failure_ratio_exceeded` | two\\_fa |");
    expect(md).toContain("| error | `vetting_score_below_minimum` | B\\|1 |");
    expect(md).toContain("- Charges: 0.0525 USD");
    expect(md).toContain("| s1 | no | 2 | 0.0525 |");
    expect(md).toContain("| B\\|1 | 50 | no | 1 | ACTIVE | Low score, see details; Says \"no\" |");
    // Every row of a table has as many unescaped separators as the table's header.
    const blocks = md.split("\n\n").filter((b) => b.startsWith("|"));
    expect(blocks).toHaveLength(3);
    for (const block of blocks) {
      const counts = block.trim().split("\n").map((l) => l.replace(/\\\|/g, "").split("|").length);
      expect(new Set(counts).size, block).toBe(1);
    }
  });
});
