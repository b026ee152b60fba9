/**
 * Good files: every example validates against the JSON Schema (as editors see it) and loads into
 * the normalised DesiredState; the loader's helpers behave as docs/CONTRACT.md parts 3-4 say.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import {
  formatProblem,
  loadDesiredState,
  normalizeDigits,
  parseDesiredState,
  transportCode,
  transportName,
  type DesiredState,
} from "../../src/config";

const ROOT = join(__dirname, "..", "..");
const EXAMPLES = join(ROOT, "examples");
const SCHEMA_FILE = join(ROOT, "schemas", "wavix.schema.json");

function mustLoad(text: string, file = "t.yaml"): DesiredState {
  const r = parseDesiredState(text, file);
  if (!r.ok) throw new Error(r.problems.map(formatProblem).join("\n"));
  return r.state;
}

describe("examples", () => {
  const files = readdirSync(EXAMPLES).filter((f) => /\.ya?ml$/.test(f));

  it("include wavix.yaml and multi-tenant.yaml", () => {
    expect(files).toEqual(expect.arrayContaining(["wavix.yaml", "multi-tenant.yaml"]));
  });

  for (const f of files) {
    it(`${f} starts with the yaml-language-server schema header`, () => {
      const first = readFileSync(join(EXAMPLES, f), "utf8").split("\n")[0];
      expect(first).toBe("# yaml-language-server: $schema=../schemas/wavix.schema.json");
    });

    it(`${f} loads without problems`, () => {
      const r = loadDesiredState(join(EXAMPLES, f));
      expect(r.ok ? [] : r.problems.map(formatProblem)).toEqual([]);
    });
  }

  it("wavix.yaml holds what `npm start` expects of the demo account", () => {
    const r = loadDesiredState(join(EXAMPLES, "wavix.yaml"));
    if (!r.ok) throw new Error("invalid");
    const s = r.state;
    expect(s.sub_accounts?.map((a) => a.name)).toEqual(["Acme Support", "Acme Billing"]);
    expect(s.sub_accounts?.[0].default_destinations).toEqual({
      sms_endpoint: "https://hooks.acme.example/sms",
      dlr_endpoint: "https://hooks.acme.example/dlr",
    });
    expect(s.numbers?.map((n) => n.number)).toEqual(["15551230001", "15551230002", "15551230003"]);
    expect(s.numbers?.[0].destinations).toEqual([
      { destination: "sip.acme.example", transport: 1, priority: 1, trunk_id: null },
      { destination: "15557654321", transport: 4, priority: 2, trunk_id: null },
      { destination: "acme-trunk", transport: 5, priority: 3, trunk_id: 144 },
    ]);
    expect(s.numbers?.[2].transcription_enabled).toBe(true);
    expect(Object.keys(s.call_webhooks ?? {})).toEqual(["on-call", "post-call"]);
    expect(s.audit?.ten_dlc).toEqual({ brands: "all", min_vetting_score: 75 });
    expect(s.audit?.two_fa?.max_failure_ratio).toBe(0.5);
  });
});

describe("JSON Schema", () => {
  const schema = JSON.parse(readFileSync(SCHEMA_FILE, "utf8")) as Record<string, unknown>;

  it("compiles in a fresh ajv with ajv-formats (as editors and other tools use it) and accepts every example", () => {
    const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
    ajv.addVocabulary(["x-since"]);
    addFormats(ajv);
    const validate = ajv.compile(schema);
    const YAML = require("yaml") as typeof import("yaml");
    for (const f of readdirSync(EXAMPLES).filter((x) => /\.ya?ml$/.test(x))) {
      const ok = validate(YAML.parse(readFileSync(join(EXAMPLES, f), "utf8")));
      expect({ f, errors: ok ? null : validate.errors }).toEqual({ f, errors: null });
    }
    expect(validate({ version: 1, extra: true })).toBe(false);
  });

  it("describes every property and closes every object (additionalProperties: false)", () => {
    const missing: string[] = [];
    const open: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
      if (node === null || typeof node !== "object") return;
      const o = node as Record<string, unknown>;
      if (o.properties && typeof o.properties === "object") {
        // if/then/else only restate properties already described and closed.
        const conditional = /\/(if|then|else)$/.test(at);
        if (!conditional && o.additionalProperties !== false) open.push(at);
        for (const [k, v] of Object.entries(o.properties as Record<string, unknown>)) {
          if (!conditional && typeof (v as Record<string, unknown>).description !== "string") missing.push(`${at}/properties/${k}`);
        }
      }
      for (const [k, v] of Object.entries(o)) walk(v, `${at}/${k}`);
    };
    walk(schema, "#");
    expect(missing).toEqual([]);
    expect(open).toEqual([]);
  });
});

describe("normalising", () => {
  it("drops a leading + and maps transports to codes, both idempotently", () => {
    expect(normalizeDigits("+15551230002")).toBe("15551230002");
    expect(normalizeDigits(normalizeDigits("+15551230002"))).toBe("15551230002");
    expect(normalizeDigits("15551230002")).toBe("15551230002");
    expect([transportCode("sip"), transportCode("pstn"), transportCode("trunk")]).toEqual([1, 4, 5]);
    for (const c of [1, 4, 5] as const) {
      expect(transportCode(c)).toBe(c);
      expect(transportCode(transportName(c))).toBe(c);
    }
    expect(() => transportCode("sipp")).toThrow(/unknown transport "sipp"/);
    expect(() => transportCode(2)).toThrow(RangeError);
  });

  it("leaves absent keys absent (only keys present are managed) and never defaults on_delete", () => {
    const s = mustLoad('version: 1\nnumbers:\n  - number: "15551230001"\n    sms_enabled: false\n');
    const n = s.numbers?.[0];
    expect(n && Object.keys(n).sort()).toEqual(["number", "path", "pos", "sms_enabled"]);
    expect(n?.on_delete).toBeUndefined();
    expect(s.sub_accounts).toBeUndefined();
    expect(s.call_webhooks).toBeUndefined();
    expect(s.audit).toBeUndefined();
    expect("sub_accounts" in s).toBe(false);
  });

  it("keeps null (clear it) apart from absent for sms_relay_url and call_status_url", () => {
    const s = mustLoad('version: 1\nnumbers:\n  - number: "1555"\n    sms_relay_url: null\n');
    expect(s.numbers?.[0].sms_relay_url).toBeNull();
    expect("call_status_url" in (s.numbers?.[0] ?? {})).toBe(false);
  });

  it("sets trunk_id null unless trunk, accepts an explicit null, and fills path and pos", () => {
    const s = mustLoad(
      [
        "version: 1",
        "numbers:",
        '  - number: "+1555"',
        "    destinations:",
        "      - { destination: a, transport: 1, priority: 1, trunk_id: null }",
        "      - { destination: b, transport: trunk, priority: 2, trunk_id: 9 }",
        "sub_accounts: [{ name: X, id: 7 }]",
        "",
      ].join("\n"),
      "f.yaml",
    );
    expect(s.numbers?.[0]).toMatchObject({
      number: "1555",
      path: "numbers[0]",
      pos: { file: "f.yaml", line: 3, col: 5 },
      destinations: [
        { destination: "a", transport: 1, priority: 1, trunk_id: null },
        { destination: "b", transport: 5, priority: 2, trunk_id: 9 },
      ],
    });
    expect(s.sub_accounts?.[0]).toEqual({ name: "X", id: 7, path: "sub_accounts[0]", pos: { file: "f.yaml", line: 7, col: 16 } });
  });

  it("fills omitted 2FA lists as empty and keeps brands: all", () => {
    const s = mustLoad("version: 1\naudit:\n  two_fa: { max_failure_ratio: 0 }\n  ten_dlc: { brands: all }\n");
    expect(s.audit).toEqual({ two_fa: { sessions: [], services: [], max_failure_ratio: 0 }, ten_dlc: { brands: "all" } });
  });

  it("accepts an empty call_webhooks mapping and empty lists", () => {
    const s = mustLoad("version: 1\nsub_accounts: []\nnumbers: []\ncall_webhooks: {}\n");
    expect(s.sub_accounts).toEqual([]);
    expect(s.numbers).toEqual([]);
    expect(s.call_webhooks).toEqual({});
  });
});

describe("problems", () => {
  it("formats the root without `(at …)` and file-level problems without a position", () => {
    expect(formatProblem({ file: "w.yaml", line: 1, col: 1, message: "m", path: "" })).toBe("w.yaml:1:1: m");
    expect(formatProblem({ file: "w.yaml", line: 3, col: 5, message: "m", path: "numbers[0]" })).toBe("w.yaml:3:5: m (at numbers[0])");
    expect(formatProblem({ file: "w.yaml", line: 0, col: 0, message: "cannot read file: no such file", path: "" })).toBe(
      "w.yaml: cannot read file: no such file",
    );
  });

  it("reports a missing file as one line, and a directory as unreadable", () => {
    const dir = mkdtempSync(join(tmpdir(), "wavix-config-"));
    const missing = join(dir, "nope.yaml");
    const r = loadDesiredState(missing);
    expect(r.ok ? [] : r.problems.map(formatProblem)).toEqual([`${missing}: cannot read file: no such file`]);
    const d = loadDesiredState(dir);
    expect(d.ok ? [] : d.problems.map(formatProblem)).toEqual([`${dir}: cannot read file: it is a directory`]);
  });

  it("refuses api-key-like keys in any spelling, at any depth", () => {
    for (const key of ["api_key", "apiKey", "apikey", "api-key", "API_KEY", "token", "auth_token", "secret", "password", "app_key"]) {
      const r = parseDesiredState(`version: 1\nsub_accounts:\n  - name: A\n    ${key}: x\n`, "s.yaml");
      const lines = r.ok ? [] : r.problems.map(formatProblem);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`s.yaml:4:5: ${JSON.stringify(key)}: secrets do not belong in this file`);
      expect(lines[0]).toContain("WAVIX_API_KEY");
      expect(lines[0]).toContain("pulumi config set --secret wavix:apiKey");
    }
  });

  it("reports all problems of a file in one run, sorted by position, each node once", () => {
    const text = [
      "version: 1",
      "numbers:",
      '  - number: "1"',
      "    destinations:",
      "      - { destination: x, transport: trunk, priority: 1, trunk_id: abc }",
      "  - number: 2",
      "    sms_relay_url: 5",
      "",
    ].join("\n");
    const r = parseDesiredState(text, "m.yaml");
    expect(r.ok ? [] : r.problems.map(formatProblem)).toEqual([
      'm.yaml:5:68: expected an integer or null, got the string "abc" (at numbers[0].destinations[0].trunk_id)',
      'm.yaml:6:13: expected a string, got the number 2 (quote it: "2") (at numbers[1].number)',
      "m.yaml:7:20: expected an http(s) URL or null, got the number 5 (at numbers[1].sms_relay_url)",
    ]);
  });

  it("cuts long values in messages", () => {
    const long = "x".repeat(500);
    const r = parseDesiredState(`version: 1\ncall_webhooks:\n  on-call: ${long}\n`, "l.yaml");
    const line = r.ok ? "" : formatProblem(r.problems[0]);
    expect(line.length).toBeLessThan(200);
    expect(line).toContain("…");
  });

  it("stops at YAML errors and still gives their position", () => {
    const r = parseDesiredState("version: 1\nnumbers:\n  - number: \"1\n", "y.yaml");
    expect(r.ok).toBe(false);
    const lines = r.ok ? [] : r.problems.map(formatProblem);
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).toMatch(/^y\.yaml:\d+:\d+: YAML: /);
  });
});

describe("input edges that must be accepted (issue #14)", () => {
  it("an anchor shared by 150 numbers (yaml's default stopped at 100 uses)", () => {
    const lines = ["version: 1", "numbers:"];
    for (let i = 0; i < 150; i++) {
      lines.push(`  - number: "1555${String(i).padStart(7, "0")}"`);
      lines.push(i === 0 ? "    destinations: &d [{ destination: sip.acme.example, transport: sip, priority: 1 }]" : "    destinations: *d");
    }
    const s = mustLoad(lines.join("\n") + "\n");
    expect(s.numbers).toHaveLength(150);
    expect(s.numbers?.[149].destinations).toEqual([{ destination: "sip.acme.example", transport: 1, priority: 1, trunk_id: null }]);
  });

  it("merge keys (<<) from an x- block, own keys winning", () => {
    const s = mustLoad(
      [
        "version: 1",
        "x-defaults: &defaults",
        "  sms_enabled: true",
        "  transcription_threshold: 30",
        "numbers:",
        '  - number: "15551230001"',
        "    <<: *defaults",
        '  - number: "15551230002"',
        "    <<: *defaults",
        "    transcription_threshold: 10",
        "",
      ].join("\n"),
    );
    expect(s.numbers?.map((n) => [n.sms_enabled, n.transcription_threshold])).toEqual([
      [true, 30],
      [true, 10],
    ]);
  });

  it("one sub-account name twice when each declaration pins its own id", () => {
    const s = mustLoad("version: 1\nsub_accounts:\n  - { name: Acme, id: 2001 }\n  - { name: Acme, id: 2002, status: disabled }\n");
    expect(s.sub_accounts?.map((a) => [a.name, a.id])).toEqual([
      ["Acme", 2001],
      ["Acme", 2002],
    ]);
  });

  it("internationalised URLs, sent in their ASCII form; ASCII URLs kept exactly as written", () => {
    const s = mustLoad(
      "version: 1\ncall_webhooks:\n  on-call: https://münchen.example/hook/ü\n  post-call: https://hooks.example\n",
    );
    expect(s.call_webhooks).toEqual({ "on-call": "https://xn--mnchen-3ya.example/hook/%C3%BC", "post-call": "https://hooks.example" });
  });

  it("a UTF-8 file with a byte-order mark and non-ASCII names", () => {
    const dir = mkdtempSync(join(tmpdir(), "wavix-bom-"));
    const file = join(dir, "bom.yaml");
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("version: 1\nsub_accounts:\n  - name: Café Zürich\n")]));
    const r = loadDesiredState(file);
    expect(r.ok ? r.state.sub_accounts?.[0].name : r.problems.map(formatProblem)).toBe("Café Zürich");
  });
});
