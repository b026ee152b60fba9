/**
 * `export` streamed (src/resources/export.ts `streamExport`, issue #15): the same file as the
 * in-memory way (`exportAccount` + `stringifyDesiredState`), written chunk by chunk only after
 * every page was read, an incomplete listing refused, and `export --out` leaving no partial file.
 * Against the real simulator (and, for a listing that lies about its total, a test server).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WavixClient } from "../../src/client";
import { parseDesiredState, stringifyDesiredState } from "../../src/config";
import { IncompleteListingError } from "../../src/client";
import { exportAccount, streamExport } from "../../src/resources/export";
import { generateAccount, startSimulator, type Simulator } from "../../src/simulator";
import { runCli, scratch } from "../helpers/cli";
import { createHttpTestServer, sendJson } from "../helpers/http-test-server";

const KEY = "export-test-key";
let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe("streamExport", () => {
  it("writes the same file as the in-memory export, in chunks, after every page was read", async () => {
    sim = await startSimulator({ port: 0, seed: generateAccount({ numbers: 1234, subAccounts: 30 }), apiKeys: [{ key: KEY }] });
    const client = new WavixClient({ apiKey: KEY, baseUrl: sim.url });
    const whole = stringifyDesiredState(await exportAccount(client), { schemaPath: "s.json" });

    sim.log.length = 0;
    const chunks: string[] = [];
    let requestsAtFirstWrite = -1;
    const summary = await streamExport(
      client,
      (chunk) => {
        if (chunks.length === 0) requestsAtFirstWrite = sim?.log.length ?? -1;
        chunks.push(chunk);
      },
      { schemaPath: "s.json", chunkItems: 100 },
    );
    expect(chunks.join("")).toBe(whole);
    expect(summary).toEqual({ subAccounts: 30, numbers: 1234 });
    // Header, 13 chunks of numbers, the webhooks.
    expect(chunks).toHaveLength(15);
    // Pages of 100: 13 for the numbers, 1 for the sub-accounts, 1 for the webhooks, 1 for the
    // Sender IDs, 1 for the 10DLC Campaigns (none, so no Campaign's numbers).
    expect(sim.log).toHaveLength(17);
    expect(requestsAtFirstWrite).toBe(17);
    const parsed = parseDesiredState(whole, "exported.yaml");
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.state.numbers?.map((n) => n.number)).toEqual([...(parsed.state.numbers ?? [])].map((n) => n.number).sort());
  });

  it("writes the demo account (destinations, trunks, cleared URLs, webhooks) as the in-memory way does", async () => {
    sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }] });
    const client = new WavixClient({ apiKey: KEY, baseUrl: sim.url });
    let text = "";
    await streamExport(client, (c) => void (text += c));
    expect(text).toBe(stringifyDesiredState(await exportAccount(client)));
    expect(text).toContain("destinations:");
  });

  it("refuses a listing with fewer numbers than it claims, before writing anything", async () => {
    const server = await createHttpTestServer();
    try {
      server.handle((req, res) => {
        const url = new URL(req.url, "http://x");
        if (url.pathname === "/v1/numbers") {
          const page = Number(url.searchParams.get("page") ?? 1);
          // Two pages claimed, 150 numbers claimed, the second page comes back empty.
          const items = page === 1 ? [{ id: 1, number: "15550000001", destination: [], sms_enabled: false }] : [];
          return sendJson(res, 200, { items, pagination: { current_page: page, per_page: 100, total: 150, total_pages: 2 } });
        }
        if (url.pathname === "/v1/sub-organizations") {
          return sendJson(res, 200, { sub_organizations: [], pagination: { current_page: 1, per_page: 100, total: 0, total_pages: 1 } });
        }
        if (url.pathname === "/v3/messages/sender-ids") return sendJson(res, 200, { items: [] });
        if (url.pathname === "/v3/10dlc/brands/campaigns") {
          return sendJson(res, 200, { items: [], pagination: { current_page: 1, per_page: 25, total: 0, total_pages: 1 } });
        }
        return sendJson(res, 200, []);
      });
      const client = new WavixClient({ apiKey: KEY, baseUrl: server.url });
      let written = 0;
      await expect(streamExport(client, () => void written++)).rejects.toBeInstanceOf(IncompleteListingError);
      expect(written).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe("export --out", () => {
  it("leaves the previous file untouched and no temporary file when the listing fails", async () => {
    sim = await startSimulator({
      port: 0,
      seed: generateAccount({ numbers: 500, subAccounts: 0 }),
      apiKeys: [{ key: KEY }],
      faults: [{ kind: "status", status: 400, pathPrefix: "/v1/numbers", everyNth: 3 }],
    });
    const dir = scratch();
    const out = join(dir, "wavix.yaml");
    writeFileSync(out, "version: 1\n");
    const run = await runCli(["export", "--out", out], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url });
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(out, "utf8")).toBe("version: 1\n");
    expect(readdirSync(dir)).toEqual(["wavix.yaml"]);
  });

  it("writes a file that validates, and reports what it wrote", async () => {
    sim = await startSimulator({ port: 0, seed: generateAccount({ numbers: 250, subAccounts: 3 }), apiKeys: [{ key: KEY }] });
    const out = join(scratch(), "sub", "wavix.yaml");
    const run = await runCli(["export", "--out", out], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("(3 sub-accounts, 250 numbers)");
    expect(existsSync(out)).toBe(true);
    expect(parseDesiredState(readFileSync(out, "utf8"), out).ok).toBe(true);
  });
});
