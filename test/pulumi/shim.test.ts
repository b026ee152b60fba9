// The provider text stored in state for every resource (docs/CONTRACT.md part 6): a loader the real
// dynamic-provider host loads from any working directory inside the project or from a project that
// installed wavix-sync. Every version ever written stays loadable: test/fixtures/pulumi-shim-v1/
// holds the texts as first written (592 characters, serialized by @pulumi/pulumi), and
// test/fixtures/pulumi-shim-v2/ the ones written now (under 150, written out by hand).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import { PROJECT_ROOT, PROVIDER_KEY, capturePulumiResources, startPulumiHost, type PulumiHost } from "../helpers/pulumi-host";
import { consumerProject, type TempProject } from "../helpers/pulumi-project";

const KINDS = ["SubAccount", "PhoneNumber", "CallWebhook"] as const;
const KEY = "shim-test-key-0c81";
const ARGS = {
  SubAccount: { name: "sub-account:X", args: { name: "X" } },
  PhoneNumber: { name: "number:15551230003", args: { number: "15551230003" } },
  CallWebhook: { name: "call-webhook:on-call", args: { eventType: "on-call", url: "https://h.example/x" } },
};

const fixture = (version: number, kind: string): string =>
  readFileSync(path.join(PROJECT_ROOT, "test", "fixtures", `pulumi-shim-v${version}`, `${kind}.js`), "utf8");
const v1 = (kind: string): string => fixture(1, kind);
const v2 = (kind: string): string => fixture(2, kind);

let sim: Simulator;
let consumer: TempProject;
let outside: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }] });
  consumer = consumerProject(PROJECT_ROOT, { "Pulumi.yaml": "name: c\nruntime: nodejs\n" });
  outside = mkdtempSync(path.join(tmpdir(), "wavix-outside-"));
});

afterAll(async () => {
  await sim?.close();
  consumer?.remove();
  rmSync(outside, { recursive: true, force: true });
});

describe("the serialized provider", () => {
  it("is the frozen version-2 loader, under 150 characters, with no key and no path", async () => {
    // Started together: one capture process for the three (capturePulumiResources batches them).
    const captures = KINDS.map((kind) => capturePulumiResources("dist/pulumi/resources.js", kind, { args: ARGS[kind], env: { WAVIX_API_KEY: KEY } }));
    for (const [i, kind] of KINDS.entries()) {
      const [r] = await captures[i]!;
      expect(r.provider).toBe(v2(kind));
      expect(r.provider.length).toBeLessThan(150);
      expect(r.provider).not.toContain(KEY);
      expect(r.provider).not.toContain(PROJECT_ROOT);
    }
  }, 120_000);

  /** A host started in `cwd` that checks a PhoneNumber with the text of `version`. */
  async function checkFrom(cwd: string, text = v2("PhoneNumber")): Promise<{ host: PulumiHost; result: Promise<unknown> }> {
    const host = await startPulumiHost({ cwd, env: { WAVIX_API_KEY: undefined } });
    await host.configure({ "wavix:apiKey": KEY, "wavix:baseUrl": sim.url }, { secretKeys: ["wavix:apiKey"] });
    const result = host.check("urn:pulumi:dev::p::pulumi-nodejs:dynamic/wavix:PhoneNumber::n", {}, { [PROVIDER_KEY]: text, number: "+15551230003" });
    return { host, result };
  }

  it("both versions load in the host from the project root, from dist/pulumi, and from a project that installed wavix-sync", async () => {
    for (const text of [v1("PhoneNumber"), v2("PhoneNumber")]) {
      for (const cwd of [PROJECT_ROOT, path.join(PROJECT_ROOT, "dist", "pulumi"), consumer.dir, path.join(consumer.dir, "node_modules")]) {
        const { host, result } = await checkFrom(cwd, text);
        try {
          expect(await result, cwd).toMatchObject({ inputs: { number: "15551230003" }, failures: [] });
        } finally {
          await host.close();
        }
      }
    }
  }, 180_000);

  it("says which package it could not find from a folder outside any project", async () => {
    const { host, result } = await checkFrom(outside);
    try {
      await expect(result).rejects.toThrow(/wavix-sync\/provider/);
    } finally {
      await host.close();
    }
  }, 60_000);
});
