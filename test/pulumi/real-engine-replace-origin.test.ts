/**
 * Issue #33 item 7 under the real engine: `pulumi up --replace` of SIP trunks keeps each one's
 * origin — made stays made, adopted stays adopted — or a later delete leaves a trunk the stack made
 * in the account for good (or deletes one it only adopted).
 *
 * What the engine (v3.259.0, the one test/helpers/real-pulumi.ts runs) tells the provider during
 * `up --replace URN`, observed with a wrapper around the SIP trunk provider on 2026-11-27: the
 * replacement's `check` gets empty `olds`, `diff` is not called, and the `create` gets the new
 * inputs only (pulumi/pulumi pkg/resource/deploy/step_generator.go, the targeted-replace path);
 * only the old half's `delete` gets the old outputs (`adopted`, the trunk's id). Created first (the
 * engine's default), the replacement found the trunk in place and recorded `adopted: true` before
 * the delete could say otherwise, and a later label change left the trunk in the account for good.
 * The trunk is therefore replaced delete first (src/kinds/sip-trunk/pulumi.ts): the engine checks
 * the replacement before it runs the old half's delete, so the delete knows a create will look up
 * the same trunk and leaves it, telling the provider what it left (src/kit/provider/session.ts
 * `recordToCreate`, `recordLeftMade`); the create that finds it keeps its origin.
 *
 * Three trunks, replaced in one `up`: two the stack made (one a number of the file routes to) and
 * one it adopted. Then the issue's own sequel: a label change of the made trunk deletes the old one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import { RealStack, engineUnavailable, must } from "../helpers/real-pulumi";
import { checkoutProject, type TempProject } from "../helpers/pulumi-project";

const KEY = "real-engine-replace-origin-key-3c1e";
const unavailable = engineUnavailable();
if (unavailable) process.stdout.write(`real-engine replace-origin tests skipped: ${unavailable}\n`);
const LONG = 300_000;

const FILE = `version: 1
sip_trunks:
  - label: made-pbx
    password_env: MADE_PBX_PASSWORD
    multiple_numbers: true
  - label: routed-pbx
    password_env: MADE_PBX_PASSWORD
    multiple_numbers: true
  - label: office-phones
    password_env: MADE_PBX_PASSWORD
numbers:
  - number: "15551230003"
    destinations:
      - { transport: trunk, trunk: routed-pbx, priority: 1 }
`;

describe.skipIf(unavailable !== undefined)("`up --replace` of SIP trunks keeps their origin (real engine)", () => {
  let sim: Simulator;
  let project: TempProject;
  let stack: RealStack;
  type Origin = { label: string; id: number; adopted: unknown };
  const origins = (): Origin[] =>
    stack
      .state()
      .filter((r) => r.type.includes("SipTrunk"))
      .map((r) => ({ label: String(r.outputs.label), id: Number(r.outputs.trunkId ?? r.id), adopted: r.outputs.adopted }))
      .sort((a, b) => a.label.localeCompare(b.label));
  const trunksLabelled = (label: string) => [...sim.store.trunks.values()].filter((t) => t.data.label === label);

  let before: Origin[] = [];
  let after: Origin[] = [];
  let requests: Array<{ method: string; path: string }> = [];
  let output = "";
  let routedTo: Array<number | null> = [];

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }] });
    project = checkoutProject({ "wavix.yaml": FILE });
    stack = new RealStack({
      projectDir: project.dir,
      config: { "wavix:apiKey": KEY, "wavix:baseUrl": sim.url },
      secretKeys: ["wavix:apiKey"],
      env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined, MADE_PBX_PASSWORD: "made-pbx-password-7f2a" },
    });
    await must(stack.up());
    before = origins();
    routedTo = sim.store.numbers.get(4003)!.data.destination!.map((d) => d.trunk_id);
    const urns = stack.state().filter((r) => r.type.includes("SipTrunk")).map((r) => r.urn);
    const mark = sim.log.length;
    const r = await stack.cli(["up", "--yes", "--skip-preview", ...urns.flatMap((u) => ["--replace", u])]);
    output = r.stdout + r.stderr;
    expect(r.code, output).toBe(0);
    requests = sim.log.slice(mark).filter((e) => e.method !== "GET").map((e) => ({ method: e.method, path: e.path }));
    after = origins();
  }, LONG);

  afterAll(async () => {
    await sim?.close();
    project?.remove();
  });

  it("before: two trunks the stack made, one it adopted (the demo account's office-phones, id 145)", () => {
    expect(before.map((o) => [o.label, o.adopted])).toEqual([
      ["made-pbx", false],
      ["office-phones", true],
      ["routed-pbx", false],
    ]);
    expect(before.find((o) => o.label === "office-phones")!.id).toBe(145);
  });

  it("up --replace writes nothing: each old half leaves its trunk to the replacement, which finds it", () => {
    expect(requests).toEqual([]);
    for (const o of before) expect(trunksLabelled(o.label).map((t) => t.data.id)).toEqual([o.id]);
    expect(output).toMatch(/SipTrunk "made-pbx" \(id \d+\): not deleted: its replacement in this deployment looks up the same Wavix object/);
  });

  it("the number routed to routed-pbx, declared in the file, is neither released nor rewritten", () => {
    // Delete first, the engine also deletes what depends on the trunk and would be replaced by its
    // change (pulumi/pulumi step_generator.go calculateDependentReplacements): a number's diff
    // replaces only when its digits change, so the number stays.
    expect(routedTo).toEqual([before.find((o) => o.label === "routed-pbx")!.id]);
    expect(sim.store.numbers.get(4003)!.data.destination!.map((d) => d.trunk_id)).toEqual(routedTo);
    expect(stack.state().filter((r) => r.type.includes("PhoneNumber")).map((r) => r.id)).toEqual(["4003"]);
  });

  it("made stays made: made-pbx and routed-pbx (a number routes to it) keep adopted: false", () => {
    for (const label of ["made-pbx", "routed-pbx"]) {
      const was = before.find((o) => o.label === label)!;
      expect(after.find((o) => o.label === label)).toEqual({ label, id: was.id, adopted: false });
    }
    expect(output).toMatch(/made-pbx.*stays one the stack made/);
  });

  it("adopted stays adopted: office-phones keeps adopted: true", () => {
    expect(after.find((o) => o.label === "office-phones")).toEqual({ label: "office-phones", id: 145, adopted: true });
  });

  it("then a label change of made-pbx deletes the trunk the stack made and makes the new one", async () => {
    const was = after.find((o) => o.label === "made-pbx")!;
    project.write("wavix.yaml", FILE.replace("label: made-pbx", "label: made-pbx-2"));
    const mark = sim.log.length;
    const r = await stack.cli(["up", "--yes", "--skip-preview"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const w = sim.log.slice(mark).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);
    // The label names the resource (sip-trunk:<label>): a new label is a new resource, created
    // first; the old one leaves the program and is deleted at the end — made, so the trunk goes.
    expect(w).toEqual(["POST /v1/trunks", "DELETE /v1/trunks/" + String(was.id)]);
    expect(sim.store.trunks.has(was.id)).toBe(false);
    expect(trunksLabelled("made-pbx-2")).toHaveLength(1);
    expect(origins().find((o) => o.label === "made-pbx-2")!.adopted).toBe(false);
  }, LONG);

  it("a later up changes nothing (the preview finds no changes)", async () => {
    const mark = sim.log.length;
    const r = await stack.cli(["preview", "--expect-no-changes"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(sim.log.slice(mark).filter((e) => e.method !== "GET")).toEqual([]);
  }, LONG);
});
