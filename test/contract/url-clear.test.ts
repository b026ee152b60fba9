/**
 * `writeNumber` (the Pulumi PhoneNumber provider's write): a URL clear goes out on its own request,
 * so a server that refuses it (the official update schema has no null) costs only the clear.
 */
import { gatedClient } from "../helpers/gated";
import { afterEach, describe, expect, it } from "vitest";
import { WavixClient } from "../../src/client";
import { writeNumber } from "../../src/resources";
import { startSimulator, type Simulator } from "../../src/simulator";

const KEY = "url-clear-key-3c9a";
let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe("writeNumber and URL clears", () => {
  it("sends the clear apart from the other fields", async () => {
    sim = await startSimulator({ port: 0, apiKeys: [{ key: KEY }] });
    const client = new WavixClient({ apiKey: KEY, baseUrl: sim.url });
    const current = await client.getNumber(4002);
    const written = await writeNumber(await gatedClient(client), { call_status_url: null, transcription_threshold: 45 }, current);
    expect(written).toMatchObject({ call_status_url: null, transcription_threshold: 45 });
    expect(sim.log.filter((e) => e.method === "PATCH")).toHaveLength(2);
  });

  it("a refused clear throws naming the number and field, after the other fields were written", async () => {
    sim = await startSimulator({ port: 0, apiKeys: [{ key: KEY }], refuseUrlClears: true });
    const client = new WavixClient({ apiKey: KEY, baseUrl: sim.url });
    const current = await client.getNumber(4002);
    await expect(writeNumber(await gatedClient(client), { call_status_url: null, transcription_threshold: 45 }, current)).rejects.toThrow(
      /^the API refused to clear call_status_url of 15551230002: PATCH \/v1\/numbers\/4002: validation failed: call_status_url: must be a valid URI/,
    );
    expect(sim.store.numbers.get(4002)!.data).toMatchObject({ transcription_threshold: 45, call_status_url: "https://hooks.demo.example/call-status" });
  });
});
