/**
 * `wavix-sync audit` as a user runs it: the compiled CLI in a child process, against a simulator
 * started here on a random loopback port.
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import { runCli, type CliRun } from "../helpers/cli";

const KEY = "sim-demo-key";

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

const STRICT = `version: 1
audit:
  two_fa:
    sessions: [8753d4308f2e11ecb75fcdafd6d2d690]
    services: [{ service_id: 7204a030201211ee9fb47d093f2f127c, from: "2026-11-01", to: "2026-11-21" }]
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

beforeAll(async () => {
  // dist/ is built once by test/global-setup.ts.
  sim = await startSimulator({ port: 0 });
  dir = await mkdtemp(join(tmpdir(), "wavix-audit-cli-"));
}, 180_000);

afterAll(async () => {
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("wavix-sync audit", () => {
  it("--format json prints the report and exits 0 with findings when --fail-on-findings is absent", async () => {
    const file = await writeYaml("strict.yaml", STRICT);
    const r = await run(["audit", "-f", file, "--format", "json"]);
    expect(r.stderr).not.toContain(KEY);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { two_fa: { charge_total: string }; findings: { code: string }[] };
    // docs/CONTRACT.md part 5: exactly these top-level keys, in this order.
    expect(Object.keys(report)).toEqual(["generated_at", "two_fa", "ten_dlc", "findings"]);
    expect(report.two_fa.charge_total).toBe("0.1000");
    expect(report.findings.map((f) => f.code)).toEqual(["two_fa_failure_ratio_exceeded", "vetting_pending"]);
    expect(r.stdout.startsWith('{\n  "generated_at"')).toBe(true);
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
`,
    );
    const before = sim.log.length;
    const r = await run(["audit", "-f", file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bad\.yaml:\d+:\d+: /);
    expect(sim.log.length).toBe(before);
  });

  it("--out DIR writes audit.json, audit.md, audit.html and both CSVs, with no temp files left", async () => {
    const file = await writeYaml("strict.yaml", STRICT);
    const out = join(dir, "reports", "nested");
    const r = await run(["audit", "-f", file, "--out", out, "--format", "csv"]);
    expect(r.code).toBe(0);
    expect((await readdir(out)).sort()).toEqual(["audit.html", "audit.json", "audit.md", "two_fa_events.csv", "vettings.csv"]);
    const json = JSON.parse(await readFile(join(out, "audit.json"), "utf8")) as { two_fa: { charge_total: string } };
    expect(json.two_fa.charge_total).toBe("0.1000");
    expect(await readFile(join(out, "audit.md"), "utf8")).toContain("# Wavix audit");
    const events = await readFile(join(out, "two_fa_events.csv"), "utf8");
    expect(events.split("\r\n")[0]).toBe("session_id,created_at,event,status,charge,error");
    // The demo's error text holds a comma and quotes: RFC 4180 quoting.
    expect(events).toContain('"Invalid code, expected ""6 digits"""');
    const vettings = await readFile(join(out, "vettings.csv"), "utf8");
    expect(vettings).toContain("B6AI7PA,13d8e00c-3cb4-4dc0-9e26-d5057fa938d9,AEGIS,2026-11-03T10:15:00Z,2026-11-03T10:20:00Z,ACTIVE,STANDARD,82,");
    // stdout: events CSV, an empty line, vettings CSV.
    expect(r.stdout).toBe(`${events}\r\n${vettings}`);
  });
});
