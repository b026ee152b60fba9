/**
 * A write gate's client for tests that call a kind's write helpers directly (they take the gate's
 * `GatedClient`, src/kit/gate/gate.ts): a gate with no pin and the default limits, its run
 * admitted with no destructive change, so the helper's writes leave as the real faces' do.
 */
import type { WavixClient } from "../../src/client";
import { WriteGate, type GatedClient } from "../../src/kit/gate";

export async function gatedClient(client: WavixClient): Promise<GatedClient> {
  const gate = new WriteGate({ client });
  await gate.admitRun([]);
  return gate.client(client);
}
