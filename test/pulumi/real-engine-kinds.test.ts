/**
 * The messaging kinds under the real engine: the root `Pulumi.yaml`'s program in a copy of the
 * checkout, run by the CLI (test/helpers/real-pulumi.ts `RealStack`), on a file declaring Sender
 * IDs, a 10DLC Campaign's numbers and the account's callbacks, against the strict simulator:
 * up (one Sender ID created, one adopted, one number linked, the callbacks sent), a no-change up
 * with no write, `up --replace` of every resource (each replacement adopts the same object, so the
 * old half's delete must not delete the Sender ID nor unlink the number), then destroy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import { RealStack, engineUnavailable, must } from "../helpers/real-pulumi";
import { checkoutProject, type TempProject } from "../helpers/pulumi-project";

const KEY = "real-engine-kinds-key-5d21";
const unavailable = engineUnavailable();
if (unavailable) process.stdout.write(`real-engine kinds tests skipped: ${unavailable}\n`);

const FILE = `version: 1
sender_ids:
  - sender_id: ACME
    type: alphanumeric
    countries: [GB, FR]
    usecase: promo
    samples: ["Acme: 20% off today"]
  - sender_id: NEWSDESK
    type: alphanumeric
    countries: [GB]
    usecase: transactional
    monthly_volume: 1-1000
ten_dlc_campaign_numbers:
  - brand_id: B6AI7PA
    campaign_id: CSIM001
    numbers: ["15551230003", "15551230004"]
account_callbacks:
  sms_relay_url: https://hooks.demo.example/account-sms
  dlr_relay_url: https://hooks.demo.example/account-dlr
`;

let sim: Simulator;
let project: TempProject;
let stack: RealStack;
const writes = (from: number): string[] => sim.log.slice(from).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);
const LONG = 240_000;

describe.skipIf(unavailable !== undefined)("Sender IDs, 10DLC campaign numbers and account callbacks under the real engine", () => {
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }] });
    project = checkoutProject({ "wavix.yaml": FILE });
    stack = new RealStack({
      projectDir: project.dir,
      config: { "wavix:apiKey": KEY, "wavix:baseUrl": sim.url },
      secretKeys: ["wavix:apiKey"],
      env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined },
    });
  });

  afterAll(async () => {
    await sim?.close();
    project?.remove();
  });

  it("up creates what is missing and adopts what exists; a second up sends no write", async () => {
    const mark = sim.log.length;
    await must(stack.up());
    const w = writes(mark);
    expect(w.filter((x) => x.startsWith("POST /v3/messages/sender-ids"))).toHaveLength(1);
    expect(w).toContain("POST /v3/10dlc/brands/B6AI7PA/campaigns/CSIM001/numbers/15551230004");
    expect(w).toContain("PUT /v1/profile");
    expect(w.filter((x) => x.startsWith("DELETE"))).toEqual([]);
    const again = sim.log.length;
    const r = await must(stack.up());
    expect(new Set(r.steps.map((s) => s.op))).toEqual(new Set(["same"]));
    expect(writes(again)).toEqual([]);
  }, LONG);

  it("`up --replace` of every resource deletes no Sender ID and unlinks no number", async () => {
    const urns = stack.state().filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/wavix:")).map((r) => r.urn);
    expect(urns.length).toBeGreaterThanOrEqual(5);
    const senderIds = () => [...sim.store.messaging.senderIds.values()].map((s) => (s as { sender_id: string }).sender_id).sort();
    const before = senderIds();
    const mark = sim.log.length;
    const r = await stack.cli(["up", "--yes", "--skip-preview", ...urns.flatMap((u) => ["--replace", u])]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(writes(mark).filter((x) => x.startsWith("DELETE"))).toEqual([]);
    expect(senderIds()).toEqual(before);
    const clean = sim.log.length;
    expect(new Set((await must(stack.up())).steps.map((s) => s.op))).toEqual(new Set(["same"]));
    expect(writes(clean)).toEqual([]);
  }, LONG);

  it("destroy deletes the Sender IDs it manages and unlinks the numbers; the callbacks stay as they are", async () => {
    // `up --replace` above found every object in place, so the stack now records each as adopted
    // (a delete leaves what it did not make; the file form has no on_delete for these kinds). Take
    // the two it made out of the account, refresh, and up: it makes them again, and so manages them.
    const messaging = sim.store.messaging;
    for (const [id, s] of [...messaging.senderIds]) if ((s as { sender_id: string }).sender_id === "NEWSDESK") messaging.senderIds.delete(id);
    messaging.campaign("B6AI7PA", "CSIM001")!.numbers.delete("15551230004");
    expect((await stack.cli(["refresh", "--yes", "--skip-preview"])).code).toBe(0);
    const remade = sim.log.length;
    await must(stack.up());
    expect(writes(remade).filter((x) => x.startsWith("POST /v3/messages/sender-ids"))).toHaveLength(1);
    expect(writes(remade)).toContain("POST /v3/10dlc/brands/B6AI7PA/campaigns/CSIM001/numbers/15551230004");
    const adopted = Object.fromEntries(stack.state().map((r) => [r.urn.split("::").pop(), r.outputs.adopted]));
    expect(adopted).toMatchObject({ "sender-id:ACME": true, "sender-id:NEWSDESK": false });
    const mark = sim.log.length;
    await must(stack.destroy());
    const w = writes(mark);
    // What the stack made is deleted / unlinked; what it adopted (ACME, 15551230003) is left as it is.
    expect(w.filter((x) => x.startsWith("DELETE /v3/10dlc/brands/B6AI7PA/campaigns/CSIM001/numbers/")).sort()).toEqual([
      "DELETE /v3/10dlc/brands/B6AI7PA/campaigns/CSIM001/numbers/15551230004",
    ]);
    expect(w.filter((x) => x.startsWith("DELETE /v3/messages/sender-ids/"))).toHaveLength(1);
    const left = [...sim.store.messaging.senderIds.values()].map((s) => (s as { sender_id: string }).sender_id);
    expect(left).toContain("ACME");
    expect(left).not.toContain("NEWSDESK");
    expect([...messaging.campaign("B6AI7PA", "CSIM001")!.numbers.keys()]).toContain("15551230003");
    expect([...messaging.campaign("B6AI7PA", "CSIM001")!.numbers.keys()]).not.toContain("15551230004");
    expect(w.filter((x) => x.startsWith("PUT /v1/profile"))).toEqual([]);
    expect(stack.state()).toEqual([]);
  }, LONG);
});
