/**
 * docs/GITOPS.md's Markdown example is today's output (issue #36: it had kept a table without the
 * Replace and Destructive columns and a heading without the account): `plan --format md` of
 * examples/wavix.yaml against the simulator's demo account, as the page says, with the simulator's
 * address as the README's (`http://127.0.0.1:8787`). The example may leave parts out with a line
 * `…`; every part it shows must be in the output, in order, line for line.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startSimulator, type Simulator } from "../../src/simulator";
import { ROOT, runCli, scratch } from "../helpers/cli";

const KEY = "gitops-doc-key-81c2";
let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }] });
});
afterAll(() => sim.close());

/** The ```markdown block of docs/GITOPS.md that starts with the plan marker. */
function example(): string {
  const text = readFileSync(join(ROOT, "docs", "GITOPS.md"), "utf8");
  const m = /```markdown\n(<!-- wavix-sync plan -->\n[\s\S]*?)```/.exec(text);
  expect(m, "docs/GITOPS.md has a ```markdown block starting with <!-- wavix-sync plan -->").not.toBeNull();
  return m![1];
}

describe("docs/GITOPS.md's Markdown plan", () => {
  it("is what plan --format md prints for examples/wavix.yaml on the demo account (parts left out as …)", async () => {
    const dir = scratch();
    copyFileSync(join(ROOT, "examples", "wavix.yaml"), join(dir, "wavix.yaml"));
    const r = await runCli(["plan", "--format", "md"], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url }, dir);
    expect(r.code).toBe(0);
    const output = r.stdout.replaceAll(sim.url, "http://127.0.0.1:8787");
    const parts = example()
      .split(/^…\n/m)
      .map((p) => p.replace(/^\n+|\n+$/g, ""));
    expect(parts.length).toBeGreaterThan(1);
    let from = 0;
    for (const part of parts) {
      const at = output.indexOf(part, from);
      expect(at, `this part of the example is not in the output (after position ${from}):\n${part}\n\n--- the output:\n${output}`).toBeGreaterThanOrEqual(0);
      from = at + part.length;
    }
  });
});
