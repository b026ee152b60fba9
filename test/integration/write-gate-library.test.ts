/**
 * The library's path through the write gate (issue #33 item 1, the library part; docs/GUARD-RAILS.md):
 * `computePlan` + `applyPlan`, as a program that uses wavix-sync as a library calls them, against
 * the real simulator over HTTP. Reproduced first (the review saw `PUT /v1/sub-organizations/501`
 * and `POST /v1/calls/webhooks` sent into the key's account although the file pins another, and a
 * destructive change applied past `safety.max_destructive_total: 0`), then held: no write.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import { WavixClient } from "../../src/client";
import { parseDesiredState } from "../../src/config";
import { applyPlan, computePlan } from "../../src/plan";
import { checkBlastRadius } from "../../src/plan/safety";
import { AccountMismatchError, BlastRadiusError } from "../../src/kit/gate";
import type { DesiredState } from "../../src/config/types";

const KEY = "gate-lib-key-4Hd8";
let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(): Promise<{ sim: Simulator; client: WavixClient }> {
  sim = await startSimulator({ port: 0, seed: { organizationId: 2002, subAccounts: [{ id: 501, name: "Twin Co", api_key: "gate-lib-sub-key-7Yq1" }], numbers: [] }, apiKeys: [{ key: KEY }] });
  return { sim, client: new WavixClient({ apiKey: KEY, baseUrl: sim.url }) };
}

function file(text: string): DesiredState {
  const r = parseDesiredState(text, "wavix.yaml");
  if (!r.ok) throw new Error(r.problems.map((p) => p.message).join("\n"));
  return r.state;
}

const writes = (s: Simulator) => s.log.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);

const BODY = `sub_accounts:
  - name: Twin Co
    status: disabled
call_webhooks:
  on-call: https://hooks.example.com/on-call
`;

describe("computePlan + applyPlan (the library) pass the write gate", () => {
  it("the file's account_id: a key of another account writes nothing (the review saw a PUT and a POST)", async () => {
    const { sim, client } = await start();
    const desired = file(`version: 1\naccount_id: 1000\n${BODY}`);
    // The pin is compared before anything is read.
    await expect(computePlan(client, desired)).rejects.toThrow(AccountMismatchError);
    expect(sim.log.map((e) => `${e.method} ${e.path}`)).toEqual(["GET /v1/profile"]);
    // A plan computed without the pin and applied with it (the file's pin given to applyPlan): refused before any write.
    const prepared = await computePlan(client, file(`version: 1\n${BODY}`));
    await expect(applyPlan(client, prepared, { desired })).rejects.toThrow(/belongs to account 2002, but wavix\.yaml account_id pins account 1000/);
    expect(writes(sim)).toEqual([]);
  });

  it("safety.max_destructive_total: 0 is honoured: refused before any write, naming the limit; force applies", async () => {
    const { sim, client } = await start();
    const desired = file(`version: 1\nsafety:\n  max_destructive_total: 0\n${BODY}`);
    const prepared = await computePlan(client, desired);
    expect(checkBlastRadius(prepared, desired).total).toEqual({ destructive: 1, limit: 0 });
    const refused = applyPlan(client, prepared);
    await expect(refused).rejects.toThrow(BlastRadiusError);
    await expect(refused).rejects.toThrow(/1 destructive changes in all pass safety\.max_destructive_total 0.*--force/);
    expect(writes(sim)).toEqual([]);
    const result = await applyPlan(client, prepared, { force: true, settleMs: 0 });
    expect(result.ok).toBe(true);
    expect(writes(sim).sort()).toEqual(["POST /v1/calls/webhooks", "PUT /v1/sub-organizations/501"]);
  });
});
