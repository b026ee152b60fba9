/**
 * docs/AUDIT.md as a user reads it: its `wavix.yaml` is a valid file, and its scheduled-audit
 * commands run as written (with the compiled CLI for `npx wavix-sync`) against the simulator,
 * leaving the reports of the last full UTC day under audit-report/YYYY-MM-DD/.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDesiredState } from "../../src/config";
import { startSimulator, type Simulator } from "../../src/simulator";
import { BIN, ROOT, scratch } from "../helpers/cli";

const DOC = readFileSync(join(ROOT, "docs", "AUDIT.md"), "utf8");
const blocks = (lang: string) => [...DOC.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]);

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => {
  await sim?.close();
});

describe("docs/AUDIT.md", () => {
  it("declares a valid audit section", () => {
    const [yaml] = blocks("yaml");
    const r = parseDesiredState(yaml, "wavix.yaml");
    expect(r.ok ? [] : r.problems.map((p) => p.message)).toEqual([]);
    if (!r.ok) return;
    expect(r.state.audit?.two_fa?.services.map((s) => s.max_failure_ratio)).toEqual([undefined, 0.3, undefined]);
  });

  it("runs its scheduled-audit commands as written, keeping the last full day's reports by date", async () => {
    const [sh] = blocks("sh");
    const dir = scratch();
    // The demo account's own audit section, without windows: the commands give the period.
    writeFileSync(join(dir, "wavix.yaml"), "version: 1\naudit:\n  two_fa:\n    services: [{ service_id: 7204a030201211ee9fb47d093f2f127c }]\n  ten_dlc:\n    brands: all\n");
    writeFileSync(join(dir, "npx"), `#!/bin/sh\n[ "$1" = wavix-sync ] || exit 97\nshift\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
    const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const before = yesterday();
    // Asynchronous: the simulator answers from this process.
    await promisify(execFile)("bash", ["-eo", "pipefail", "-c", sh], {
      cwd: dir,
      env: { ...process.env, PATH: `${dir}:${process.env.PATH}`, WAVIX_API_KEY: "sim-demo-key", WAVIX_BASE_URL: sim.url },
    });
    const [day] = readdirSync(join(dir, "audit-report"));
    expect([before, yesterday()]).toContain(day);
    const report = JSON.parse(readFileSync(join(dir, "audit-report", day, "audit.json"), "utf8")) as { period: { from: string }; asked: { window: string } };
    expect(report.period.from).toBe(`${day}T00:00:00Z`);
    expect(report.asked.window).toBe("last 1d");
  });
});
