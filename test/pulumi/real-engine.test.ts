/**
 * The Pulumi lifecycle under the REAL engine (issue #19): the CLI built from its Go module
 * (`npm run pulumi:cli`), a local file backend, the program a user's Pulumi.yaml runs (`runProgram`
 * on a desired-state file), the dynamic-provider plugin process, the strict simulator (every request
 * checked against schemas/api by the suite's contract check). See test/helpers/real-pulumi.ts for
 * what is real and what is not.
 *
 * One stack over several runs: up, a no-change preview and up, `up --replace` of every resource and
 * `pulumi state taint` of every resource (a replacement adopts the same Wavix object, so the old
 * half's delete must touch nothing — money: a number with on_delete: release), an `up --replace`
 * killed between the replacement's create and the old half's delete then `up`, `pulumi import`
 * (refused by the engine's dynamic-provider host), refresh, the stack
 * pointed at another base URL (ids naming other objects: refused, no write), destroy (which releases
 * the number declared on_delete: release and leaves the adopted sub-account and webhook).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import { engineUnavailable, killEngineIn, realProject, ROOT, type Project } from "../helpers/real-pulumi";

const KEY = "real-engine-key-4b7e91";
const unavailable = engineUnavailable();
if (unavailable) process.stdout.write(`real-engine tests skipped: ${unavailable}\n`);

const FILE = `version: 1
sub_accounts:
  - name: Acme Support
    status: enabled
numbers:
  - number: "15551230003"
    sms_enabled: true
    on_delete: release
call_webhooks:
  on-call: https://hooks.acme.example/on-call
`;

let sim: Simulator;
let other: Simulator;
let project: Project;
const warnings: string[] = [];

const writes = (s: Simulator, from = 0): string[] => s.log.slice(from).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);
const out = (s: string): void => void (/warning:/.test(s) && warnings.push(s));

describe.skipIf(unavailable !== undefined)("the real Pulumi engine (v3.259.0, file backend)", () => {
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }] });
    // Another account where the same ids name other objects (a stack pointed at the wrong base URL).
    other = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }] });
    for (const rec of other.store.numbers.values()) rec.data.number = rec.data.number.replace(/^1555/, "1666");
    mkdirSync(path.join(ROOT, ".tmp"), { recursive: true });
    const file = path.join(ROOT, ".tmp", `real-engine-${process.pid}.yaml`);
    writeFileSync(file, FILE);
    const program = async (): Promise<Record<string, unknown>> => (await import(path.join(ROOT, "dist", "pulumi", "program.js"))).runProgram({ configFile: file });
    project = await realProject(program, { "wavix:apiKey": KEY, "wavix:baseUrl": sim.url });
  }, 120_000);

  afterAll(async () => {
    await sim?.close();
    await other?.close();
  });

  it("up creates; a second preview and up change nothing and send no write", async () => {
    const up = await project.stack.up({ onOutput: out });
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toMatchObject({ create: 4 });
    const mark = sim.log.length;
    await project.stack.preview({ expectNoChanges: true });
    const again = await project.stack.up({ onOutput: out });
    expect(again.summary.resourceChanges).toEqual({ same: 4 });
    expect(writes(sim, mark)).toEqual([]);
  }, 120_000);

  it("`up --replace` of every resource: the replacement adopts the same object, nothing is released, disabled or deleted", async () => {
    const resources = (await project.stack.exportStack()).deployment.resources as Array<{ urn: string; type: string; id?: string }>;
    const ours = resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/wavix:"));
    expect(ours.map((r) => r.type.split(":").pop()).sort()).toEqual(["CallWebhook", "PhoneNumber", "SubAccount"]);
    const mark = sim.log.length;
    warnings.length = 0;
    const up = await project.stack.up({ replace: ours.map((r) => r.urn), onOutput: out });
    expect(up.summary.resourceChanges).toMatchObject({ replace: 3 });
    expect(writes(sim, mark).filter((w) => w.startsWith("DELETE") || w.startsWith("PUT"))).toEqual([]);
    expect(sim.store.numbers.has(4003)).toBe(true);
    const acme = [...sim.store.subAccounts.values()].find((s) => s.data.name === "Acme Support")!;
    expect(acme.data.status).toBe("enabled");
    expect(sim.store.webhooksOf(sim.store.masterId).get("on-call")).toBe("https://hooks.acme.example/on-call");
    expect(warnings.join("")).toMatch(/PhoneNumber 15551230003: not released: its replacement in this deployment holds the same Wavix object/);
    const after = (await project.stack.exportStack()).deployment.resources as Array<{ urn: string; id?: string }>;
    expect(after.filter((r) => ours.some((o) => o.urn === r.urn)).map((r) => r.id).sort()).toEqual(ours.map((r) => r.id).sort());
  }, 120_000);

  it("`pulumi state taint` of every resource, then up: replaced in place of the same objects, nothing released or disabled", async () => {
    const resources = (await project.stack.exportStack()).deployment.resources as Array<{ urn: string; type: string }>;
    for (const r of resources.filter((x) => x.type.startsWith("pulumi-nodejs:dynamic/wavix:"))) {
      const t = await project.cli(["state", "taint", r.urn, "--yes"]);
      expect(t.code, t.stderr).toBe(0);
    }
    const mark = sim.log.length;
    const up = await project.stack.up({ onOutput: out });
    expect(up.summary.resourceChanges).toMatchObject({ replace: 3 });
    expect(writes(sim, mark).filter((w) => w.startsWith("DELETE") || w.startsWith("PUT"))).toEqual([]);
    expect(sim.store.numbers.has(4003)).toBe(true);
    expect([...sim.store.subAccounts.values()].find((s) => s.data.name === "Acme Support")!.data.status).toBe("enabled");
  }, 120_000);

  it("`up --replace` killed between the replacement's create and the old half's delete: the next up deletes the pending old half without touching the number", async () => {
    const resources = (await project.stack.exportStack()).deployment.resources as Array<{ urn: string; type: string }>;
    const num = resources.find((r) => r.type.endsWith(":PhoneNumber"))!;
    const hook = resources.find((r) => r.type.endsWith(":CallWebhook"))!;
    // The webhook's replacement is held at the API, so the deployment cannot reach its deletes; the
    // CLI is killed once the checkpoint holds the number's replacement and its old half marked for
    // deletion (what the engine writes after a create-before-delete create: step.go CreateStep.Apply).
    sim.setFaults([{ kind: "delay", delayMs: 15_000, pathPrefix: "/v1/calls/webhooks" }]);
    const checkpoint = path.join(project.dir, ".state", ".pulumi", "stacks", "wavix-sync", "dev.json");
    let killed = false;
    const killer = setInterval(() => {
      let pending = false;
      try {
        const latest = JSON.parse(readFileSync(checkpoint, "utf8")).checkpoint.latest as { resources?: Array<{ urn: string; delete?: boolean }> };
        pending = (latest.resources ?? []).some((r) => r.urn === num.urn && r.delete === true);
      } catch {
        // being written
      }
      if (pending && !killed) killed = killEngineIn(project.dir);
    }, 25);
    const mark = sim.log.length;
    const failed = await project.stack.up({ replace: [num.urn, hook.urn], onOutput: out }).then(() => undefined, (e: Error) => e);
    clearInterval(killer);
    sim.setFaults([]);
    // The webhook requests the simulator held are still being answered after the kill (a server
    // finishes what it received): wait for them, so none lands in a later test's count.
    await sim.idle();
    expect(killed).toBe(true);
    expect(failed).toBeInstanceOf(Error);
    const left = (await project.stack.exportStack()).deployment.resources as Array<{ urn: string; delete?: boolean }>;
    expect(left.filter((r) => r.urn === num.urn).map((r) => r.delete === true).sort()).toEqual([false, true]);
    const cancel = await project.cli(["cancel", "--yes"]);
    expect(cancel.code, cancel.stderr).toBe(0);
    warnings.length = 0;
    const up = await project.stack.up({ onOutput: out });
    expect(up.summary.result).toBe("succeeded");
    expect(writes(sim, mark).filter((w) => w.startsWith("DELETE") || w.startsWith("PUT"))).toEqual([]);
    expect(sim.store.numbers.has(4003)).toBe(true);
    expect(warnings.join("")).toMatch(/PhoneNumber 15551230003: not released: a resource still declared in this stack holds the same Wavix object \(the old half of a replacement that an interrupted deployment left pending\) \(id 4003\)/);
    const after = (await project.stack.exportStack()).deployment.resources as Array<{ urn: string; delete?: boolean }>;
    expect(after.filter((r) => r.urn === num.urn).map((r) => r.delete === true)).toEqual([false]);
    await project.stack.preview({ expectNoChanges: true });
  }, 180_000);

  it("`pulumi import` of a dynamic resource fails in the engine's dynamic-provider host, touching neither the account nor the state", async () => {
    const before = (await project.stack.exportStack()).deployment.resources as Array<{ urn: string }>;
    const mark = sim.log.length;
    const r = await project.cli(["import", "pulumi-nodejs:dynamic/wavix:PhoneNumber", "imported", "4003", "--yes"]);
    expect(r.code).not.toBe(0);
    // The host reads an import through the resource's stored properties, which hold its provider
    // (`__provider`): an import has none (@pulumi/pulumi cmd/dynamic-provider, `read`).
    expect(r.stdout + r.stderr).toMatch(/preview failed: .*Cannot read properties of undefined \(reading 'toJavaScript'\)/);
    expect(sim.log.length - mark).toBe(0);
    const after = (await project.stack.exportStack()).deployment.resources as Array<{ urn: string }>;
    expect(after.map((x) => x.urn)).toEqual(before.map((x) => x.urn));
  }, 120_000);

  it("refresh reads and writes nothing; then a clean preview", async () => {
    const mark = sim.log.length;
    const r = await project.stack.refresh({ onOutput: out });
    expect(r.summary.result).toBe("succeeded");
    expect(writes(sim, mark)).toEqual([]);
    await project.stack.preview({ expectNoChanges: true });
  }, 120_000);

  it("pointed at another base URL where the ids name other numbers: refused naming both, and no write reaches either account", async () => {
    await project.stack.setConfig("wavix:baseUrl", { value: other.url });
    const markA = sim.log.length;
    // The engine keeps the provider configuration of the last `up` for refresh and destroy: an up
    // with nothing to change stores the new one (and calls no resource method).
    const up = await project.stack.up({ onOutput: out });
    expect(up.summary.result).toBe("succeeded");
    const err = await project.stack.refresh({ onOutput: out }).then(
      () => new Error("refresh succeeded"),
      (e: unknown) => e as Error,
    );
    expect(err.message).toMatch(/PhoneNumber id 4003 now names number 16661230003, not number 15551230003/);
    expect(writes(other)).toEqual([]);
    expect(writes(sim, markA)).toEqual([]);
    await project.stack.setConfig("wavix:baseUrl", { value: sim.url });
    await project.stack.up({ onOutput: out });
  }, 120_000);

  // Pulumi never deletes what it did not make: the sub-account existed before the first up, and the
  // webhook, once replaced (`up --replace`, taint above), is held by a replacement that found it in
  // place; both are adopted, so the destroy leaves them. Only the number, declared
  // on_delete: release, is released.
  it("destroy (a deployment of its own) releases the number declared on_delete: release and leaves the adopted sub-account and webhook as they are", async () => {
    const before = (await project.stack.exportStack()).deployment.resources as Array<{ type: string; outputs?: Record<string, unknown> }>;
    const adopted = (kind: string) => before.find((r) => r.type.endsWith(`:${kind}`))?.outputs?.adopted;
    expect(adopted("SubAccount")).toBe(true);
    expect(adopted("CallWebhook")).toBe(true);
    const sub = JSON.stringify(sim.store.subAccounts.get(2001)!.data);
    const mark = sim.log.length;
    const d = await project.stack.destroy({ onOutput: out });
    expect(d.summary.result).toBe("succeeded");
    expect(writes(sim, mark)).toEqual(["DELETE /v1/numbers"]);
    expect(sim.store.numbers.has(4003)).toBe(false);
    expect(JSON.stringify(sim.store.subAccounts.get(2001)!.data)).toBe(sub);
    expect(sim.store.subAccounts.get(2001)!.data.status).toBe("enabled");
    expect(sim.store.webhooksOf(sim.store.masterId).get("on-call")).toBe("https://hooks.acme.example/on-call");
  }, 120_000);
});
