// RealStack (test/helpers/real-pulumi.ts) makes a stack without `pulumi stack init` and `pulumi
// config set`: it copies what a real `stack init` wrote once, writes Pulumi.dev.yaml itself (secrets
// encrypted with the passphrase's key, as the CLI does) and decrypts secret stack outputs from the
// checkpoint. The real CLI is the referee here: it reads that config and that stack as its own, and
// what it prints of them is what the helper gives, beside a stack it made with its own commands.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RealStack, engineUnavailable, must } from "../helpers/real-pulumi";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A YAML project (the Go language host, no provider) whose outputs are a plain value and a secret. */
function yamlProject(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "wavix-harness-stack-"));
  dirs.push(dir);
  writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    "name: harness-stack\nruntime: yaml\nconfig:\n  label:\n    type: string\noutputs:\n  label: ${label}\n  token:\n    fn::secret: ${wavix:apiKey}\n  limits:\n    fn::secret: { count: 3, names: [a, b] }\n",
  );
  return dir;
}

const CONFIG = { "wavix:apiKey": "harness-secret-51c2e8", "wavix:baseUrl": "http://127.0.0.1:9", label: "a label: with 'quotes' and # a hash" };

describe.skipIf(engineUnavailable())("RealStack's own stack set-up, held to the CLI's", () => {
  it("the CLI reads the config it wrote as the config `pulumi config set` wrote; secret outputs decrypt to what `stack output --show-secrets` prints", async () => {
    const stacks = [true, false].map((cliSetup) => new RealStack({ projectDir: yamlProject(), config: CONFIG, secretKeys: ["wavix:apiKey"], cliSetup }));
    const [byCli, byFiles] = stacks as [RealStack, RealStack];
    const results = [];
    for (const stack of stacks) results.push(await must(stack.up()));

    // The config as the CLI shows it, secrets included: the same for both stacks.
    const shown = await Promise.all(stacks.map(async (s) => JSON.parse((await s.cli(["config", "--json", "--show-secrets"])).stdout) as Record<string, { value: string; secret: boolean }>));
    expect(shown[1]).toEqual(shown[0]);
    expect(shown[1]!["wavix:apiKey"]).toEqual({ value: CONFIG["wavix:apiKey"], secret: true });
    // The secret is stored encrypted in the stack config file.
    const configFile = readFileSync(path.join(dirs[1]!, "Pulumi.dev.yaml"), "utf8");
    expect(configFile).toMatch(/wavix:apiKey:\n\s+secure: v1:/);
    expect(configFile).not.toContain(CONFIG["wavix:apiKey"]);

    // Outputs: the secret ones read from the checkpoint are what the CLI prints.
    const printed = JSON.parse((await byFiles.cli(["stack", "output", "--json", "--show-secrets"])).stdout) as Record<string, unknown>;
    for (const r of results) {
      expect(r.secretOutputs.sort()).toEqual(["limits", "token"]);
      expect({ ...r.outputs }).toEqual(printed);
    }
    expect(printed).toEqual({ label: CONFIG.label, token: CONFIG["wavix:apiKey"], limits: { count: 3, names: ["a", "b"] } });
    expect(byCli.checkpointText()).not.toContain(CONFIG["wavix:apiKey"]);
    expect(byFiles.checkpointText()).not.toContain(CONFIG["wavix:apiKey"]);
  }, 120_000);
});
