/**
 * The fast path of loading (src/config/fast-parse.ts, js-yaml events) against the referee it
 * must agree with: `yaml`'s Document path (`parseWithPositions`), which gives every message and
 * every position. Same state (data and item positions) for good files, same problems for bad
 * ones, and files that are not plain are never taken by the fast path.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { parse, stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { parseDesiredState } from "../../src/config";
import { fastParse, linePositions } from "../../src/config/fast-parse";
import { checkExpansion } from "../../src/config/aliases";
import { parseWithPositions } from "../../src/config/load";
import { schemaErrors, schemaValidatorOrigin } from "../../src/config/schema";

const root = join(__dirname, "..", "..");

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlFiles(join(dir, e.name)) : e.name.endsWith(".yaml") ? [join(dir, e.name)] : [],
  );
}

describe("fast path agrees with the yaml Document path", () => {
  const files = [...yamlFiles(join(root, "examples")), ...yamlFiles(join(__dirname, "fixtures"))];

  it.each(files.map((f) => [f.slice(root.length + 1), f]))("%s: same result", (_name, file) => {
    const text = readFileSync(file, "utf8");
    // Where a too-deep file stops depends on the stack depth the parse started at, which differs
    // between the two calls; the corpus test matches that column with a wildcard too.
    const depthFree = (r: ReturnType<typeof parseDesiredState>) =>
      r.ok ? r : { ...r, problems: r.problems.map((p) => (/too deeply/.test(p.message) ? { ...p, col: 0 } : p)) };
    expect(depthFree(parseDesiredState(text, "f.yaml"))).toEqual(depthFree(parseWithPositions(text, "f.yaml")));
  });

  it("says a too-deep file once, however much stack the parse starts with (the parser may run out at several levels)", () => {
    const text = readFileSync(join(__dirname, "fixtures", "bad", "deep-nesting.yaml"), "utf8");
    // The same file parsed with less and less stack left (and the parser's code warmer each time):
    // in a worker that had run other files, it ran out at some 230 levels of the one nesting, and
    // each was said.
    const parsedAt = (depth: number): ReturnType<typeof parseWithPositions> => (depth === 0 ? parseWithPositions(text, "f.yaml") : parsedAt(depth - 1));
    for (let depth = 0; depth <= 9000; depth += 250) {
      const result = parsedAt(depth);
      expect(result.ok).toBe(false);
      const deep = result.ok ? [] : result.problems.filter((p) => /too deeply/.test(p.message));
      expect(deep.length, `${depth} frames down`).toBe(1);
    }
  });

  it("takes the fast path for the examples (so the comparison above compares two paths)", () => {
    expect(fastParse(readFileSync(join(root, "examples", "wavix.yaml"), "utf8"))).toBeDefined();
  });

  it("gives the same positions in block and flow style", () => {
    const text = [
      "version: 1",
      "sub_accounts:",
      "  - name: A",
      "  - { name: B, status: enabled }",
      "numbers:",
      "  -   number: '15550000001'",
      "      sms_enabled: true",
      "  - {number: \"+15550000002\", sms_enabled: false}",
      "  -",
      "    number: \"15550000003\"",
      "",
    ].join("\r\n");
    expect(fastParse(text)).toBeDefined();
    const fast = parseDesiredState(text, "p.yaml");
    expect(fast.ok && fast.state.numbers?.map((n) => n.pos)).toEqual([
      { file: "p.yaml", line: 6, col: 7 },
      { file: "p.yaml", line: 8, col: 5 },
      { file: "p.yaml", line: 10, col: 5 },
    ]);
    expect(fast).toEqual(parseWithPositions(text, "p.yaml"));
  });

  it.each([
    ["an anchor and alias", "version: 1\nnumbers:\n  - &n { number: '1' }\n  - *n\n"],
    ["a tag", "version: 1\nnumbers:\n  - number: !!str 15550000001\n"],
    ["a directive", "%YAML 1.2\n---\nversion: 1\n"],
    ["two documents", "version: 1\n---\nversion: 1\n"],
    ["a duplicate key", "version: 1\nversion: 1\n"],
    ["a merge key", "version: 1\nnumbers:\n  - { <<: {number: '1'} }\n"],
    ["a byte-order mark", "\uFEFFversion: 1\n"],
  ])("leaves %s to the full path", (_what, text) => {
    const whole = parseDesiredState(text, "x.yaml");
    expect(whole).toEqual(parseWithPositions(text, "x.yaml"));
    if (!text.includes("<<")) expect(fastParse(text)).toBeUndefined();
  });

  // Plain scalars whose type depends on the YAML schema: both parsers must read them alike.
  const tricky = fc.constantFrom(
    "0x1F", "0o17", "017", "1_000", "+12", "-0", ".5", "1.", "1e3", "1E+3", "6.8523015e+5", ".inf", "-.Inf", ".NaN",
    "~", "null", "Null", "NULL", "true", "True", "TRUE", "yes", "No", "on", "OFF", "y", "n", "2026-11-01",
    "2026-11-01T10:00:00Z", "12:30", "1:20:30", "0b101", "=", "<<", "- x", "a: b", "#c", "'q'", "\"d\"", "",
    "15551230001", "+15551230001", "https://h.example/a?b=1&c=2#f", "9007199254740993", "1e400",
  );
  const scalarLine = fc.tuple(tricky, fc.constantFrom("plain", "single", "double")).map(([v, style]) =>
    style === "plain" ? v : style === "single" ? `'${v.replace(/'/g, "''")}'` : JSON.stringify(v),
  );

  it("reads plain, quoted and tricky scalars to the same data as yaml", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.stringMatching(/^[a-z_]{1,8}$/), scalarLine), { maxLength: 6 }), (pairs) => {
        const text = `version: 1\n${pairs.map(([k, v], i) => `${k}${i}: ${v}`).join("\n")}\n`;
        let expected: unknown;
        try {
          expected = parse(text);
        } catch {
          return; // not YAML: the full path reports it
        }
        const fast = fastParse(text);
        if (fast) expect(fast.data).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it("gives the same state as the full path for generated valid and invalid files", () => {
    const item = fc.record(
      {
        number: fc.oneof(fc.stringMatching(/^\+?[0-9]{1,12}$/), fc.integer()),
        sms_enabled: fc.oneof(fc.boolean(), fc.constant("yes")),
        sms_relay_url: fc.oneof(fc.constant(null), fc.webUrl(), fc.constant("https://")),
        transcription_threshold: fc.oneof(fc.nat({ max: 3600 }), fc.double()),
      },
      { requiredKeys: ["number"] },
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 6 }), fc.boolean(), (numbers, flow) => {
        const text = stringify({ version: 1, numbers }, flow ? { collectionStyle: "flow" } : {});
        expect(parseDesiredState(text, "g.yaml")).toEqual(parseWithPositions(text, "g.yaml"));
      }),
      { numRuns: 300 },
    );
  });
});

describe("line positions", () => {
  it("count lines and columns as yaml's LineCounter does", () => {
    const at = linePositions("ab\ncd\r\n\nef");
    expect([0, 1, 3, 5, 7, 8, 9].map(at)).toEqual([
      { line: 1, col: 1 }, { line: 1, col: 2 }, { line: 2, col: 1 }, { line: 2, col: 3 },
      { line: 3, col: 1 }, { line: 4, col: 1 }, { line: 4, col: 2 },
    ]);
  });
});

describe("schema validators", () => {
  it("the sources compile the schema at run time (the built package uses the precompiled one)", () => {
    expect(schemaValidatorOrigin()).toBe("compiled at run time");
  });

  it("the built package runs the validators compiled at build time, with the same errors", async () => {
    const built = (await import(join(root, "dist", "config", "schema.js"))) as typeof import("../../src/config/schema");
    expect(built.schemaValidatorOrigin()).toBe("precompiled");
    for (const file of yamlFiles(join(__dirname, "fixtures"))) {
      let data: unknown;
      try {
        data = parse(readFileSync(file, "utf8"));
      } catch {
        continue; // not one YAML document: no data to validate
      }
      // An alias inside its own anchor makes a cycle (the loader refuses it before validating).
      if (!checkExpansion(data).ok) continue;
      const strip = (errs: unknown[]) => JSON.parse(JSON.stringify(errs)) as unknown;
      expect(strip(built.schemaErrors(data)), file).toEqual(strip(schemaErrors(data)));
    }
  });
});
