/**
 * The official contract as referee for the CLI: `plan`, `apply`, `plan`, `export`, `plan` of the
 * export, and `audit`, each the compiled CLI in a child process against the strict simulator (every
 * request checked against schemas/api/*.request.schema.json, every answer against the response
 * schemas), asserting zero violations and printing the request count per operation. The Pulumi
 * provider lifecycle is covered by the same global check (test/global-setup.ts) in test/pulumi.
 *
 * Also: URL clears go out on their own and a refused clear costs only the clear; drift warnings
 * are one line on stderr unless WAVIX_SYNC_VERBOSE=1.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import { ROOT, runCli, scratch, writeYaml } from "../helpers/cli";
import { requestCounts } from "./request-counts";

const KEY = "sim-demo-key";
const EXAMPLE = join(ROOT, "examples", "wavix.yaml");

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

function run(args: string[], env: Record<string, string | undefined> = {}, cwd?: string) {
  return runCli(args, { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim!.url, ...env }, cwd);
}

describe("the CLI against the strict simulator", () => {
  it("plan, apply, plan, export, plan of the export, audit: zero contract violations", async () => {
    sim = await startSimulator({ port: 0, asyncDelayMs: 50, checkResponses: true });
    const dir = scratch();
    const report: string[] = [];
    const step = async (name: string, args: string[], expectCode: number) => {
      const from = sim!.log.length;
      const r = await run(args, {}, dir);
      expect(r.code, `${name}: ${r.stderr}`).toBe(expectCode);
      expect(r.stderr, name).not.toContain("Warning:"); // the simulator's answers match the schemas
      report.push(requestCounts(sim!.log, name, from).line);
      return r;
    };

    await step("plan", ["plan", "-f", EXAMPLE, "--detailed-exitcode"], 2);
    await step("apply", ["apply", "-f", EXAMPLE, "--auto-approve", "--wait", "20"], 0);
    const again = await step("plan (after apply)", ["plan", "-f", EXAMPLE, "--json"], 0);
    expect(JSON.parse(again.stdout).changes).toEqual([]);
    const out = join(dir, "exported.yaml");
    await step("export", ["export", "--out", out], 0);
    expect(readFileSync(out, "utf8")).not.toMatch(/:\s*""\s*$/m);
    await step("plan (of the export)", ["plan", "-f", out, "--detailed-exitcode"], 0);
    await step("audit", ["audit", "-f", EXAMPLE, "--format", "json"], 0);

    process.stdout.write(`Request count per operation (demo account, examples/wavix.yaml):\n  ${report.join("\n  ")}\n`);
    expect(sim.violations).toEqual([]);
  });
});

describe("clearing a URL", () => {
  const FILE = `version: 1
numbers:
  - number: "15551230002"
    call_status_url: null
    transcription_threshold: 45
    sms_enabled: true
`;

  it("goes out on its own request, apart from the number's other changes", async () => {
    sim = await startSimulator({ port: 0, checkResponses: true });
    const file = writeYaml(scratch(), "wavix.yaml", FILE);
    const r = await run(["apply", "-f", file, "--auto-approve"]);
    expect(r.code, r.stderr).toBe(0);
    const n = sim.store.numbers.get(4002)!.data;
    expect(n).toMatchObject({ call_status_url: null, transcription_threshold: 45, sms_enabled: true });
    // One PATCH with the ordinary fields, one with the clear alone.
    expect(sim.log.filter((e) => e.method === "PATCH" && e.path === "/v1/numbers/4002")).toHaveLength(2);
    expect(sim.violations).toEqual([]);
  });

  it("a server that refuses the clear costs only the clear: named, exit 1", async () => {
    sim = await startSimulator({ port: 0, refuseUrlClears: true });
    const file = writeYaml(scratch(), "wavix.yaml", FILE);
    const r = await run(["apply", "-f", file, "--auto-approve"]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain("the API refused to clear call_status_url of 15551230002: ");
    expect(r.stdout + r.stderr).toContain("call_status_url: must be a valid URI");
    const n = sim.store.numbers.get(4002)!.data;
    // The other changes were made; only the clear was refused.
    expect(n).toMatchObject({ transcription_threshold: 45, sms_enabled: true, call_status_url: "https://hooks.demo.example/call-status" });
    // And the next plan shows only the clear still to do.
    const plan = await run(["plan", "-f", file, "--json"]);
    const changes = JSON.parse(plan.stdout).changes as { diff: { path: string }[] }[];
    expect(changes.flatMap((c) => c.diff.map((d) => d.path))).toEqual(["call_status_url"]);
  });
});

describe("drift warnings", () => {
  it("added fields are harmless: nothing by default, one note per field and kind with WAVIX_SYNC_VERBOSE=1 (issue #22)", async () => {
    sim = await startSimulator({ port: 0, variations: ["unknown-extra-fields"] });
    const file = writeYaml(scratch(), "wavix.yaml", `version: 1\nnumbers:\n  - number: "15551230001"\n    sms_enabled: true\n`);
    const quiet = await run(["plan", "-f", file]);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr.split("\n").filter((l) => l.startsWith("Warning:"))).toEqual([]);
    const loud = await run(["plan", "-f", file], { WAVIX_SYNC_VERBOSE: "1" });
    const notes = loud.stderr.split("\n").filter((l) => l.includes("x_sim_extra"));
    expect(notes.length).toBeGreaterThan(0);
    expect(new Set(notes).size).toBe(notes.length);
    for (const n of notes) expect(n).toMatch(/^Note: /);
    expect(loud.stderr).not.toContain("WAVIX_SYNC_VERBOSE=1 to see them");
  });

  it("other drift (a field missing): one summary line on stderr by default; the details with WAVIX_SYNC_VERBOSE=1", async () => {
    // The simulator answers without a required field on purpose: its own response check is off.
    sim = await startSimulator({ port: 0, checkResponses: false });
    const label = sim.store.numbers.get(4001)!.data as unknown as Record<string, unknown>;
    delete label.label;
    const file = writeYaml(scratch(), "wavix.yaml", `version: 1\nnumbers:\n  - number: "15551230001"\n    sms_enabled: true\n`);
    const quiet = await run(["plan", "-f", file]);
    expect(quiet.code, quiet.stderr).toBe(0);
    const lines = quiet.stderr.split("\n").filter((l) => l.startsWith("Warning:"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Warning: \d+ API response differences? from the documented schema \(contract drift\); set WAVIX_SYNC_VERBOSE=1 to see them$/);
    const loud = await run(["plan", "-f", file], { WAVIX_SYNC_VERBOSE: "1" });
    expect(loud.stderr).toMatch(/^Warning: .*missing required property "label"/m);
  });
});
