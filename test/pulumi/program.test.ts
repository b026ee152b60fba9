// The Pulumi program layer (docs/CONTRACT.md part 6): `declareResources` of a parsed file, captured under
// `pulumi.runtime.setMocks` in a child node process (real compiled code, as `pulumi up` runs it);
// `runProgram`'s config file handling; the data sources against the simulator.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WavixClient } from "../../src/client";
import { loadDesiredState } from "../../src/config";
import type { DesiredState } from "../../src/config/types";
import { getBrandVettings, getTwoFaEvents, getTwoFaEventsOutput, loadStateOrThrow } from "../../src/pulumi";
import { startSimulator, type Simulator } from "../../src/simulator";
import { capturePulumiResources, type CapturedResource } from "../helpers/pulumi-host";

const PROGRAM = "dist/pulumi/program.js";

function load(file: string): DesiredState {
  const r = loadDesiredState(file);
  if (!r.ok) throw new Error(`fixture ${file} does not load`);
  return r.state;
}

function byName(rs: CapturedResource[]): Map<string, CapturedResource> {
  return new Map(rs.map((r) => [r.name, r]));
}

function inputsOf(r: CapturedResource): Record<string, unknown> {
  const { __provider: _p, ...rest } = r.inputs;
  return rest;
}

beforeAll(() => {
  // dist/ is built once by test/global-setup.ts.
});

/** A file's state with its lists reversed (the numbers' destinations too). */
function reversedState(state: DesiredState): DesiredState {
  return {
    ...state,
    sub_accounts: [...(state.sub_accounts ?? [])].reverse(),
    numbers: [...(state.numbers ?? [])].reverse().map((n) => ({ ...n, destinations: n.destinations && [...n.destinations].reverse() })),
  };
}

let firstCaptures: ReturnType<typeof startFirstCaptures> | undefined;
/**
 * The captures of the first three tests below, started together at the first test's start: one
 * child process captures them all, each under its own mocks (capturePulumiResources batches
 * captures started in the same turn), instead of one @pulumi/pulumi load per test. Each test awaits
 * its own and asserts as before; the one meant to fail is marked handled until its test awaits it.
 */
function startFirstCaptures() {
  const declare = (state: DesiredState) => capturePulumiResources(PROGRAM, "declareResources", { args: state });
  const multiTenant = load("examples/multi-tenant.yaml");
  const dir = mkdtempSync(path.join(tmpdir(), "wavix-tenants-"));
  const file = path.join(dir, "t.yaml");
  writeFileSync(file, 'version: 1\nnumbers:\n  - number: "15550000012"\n    sub_account: 2002\n  - number: "15550000013"\n    sub_account: Somebody\n');
  const tenants = load(file);
  const undeclared = declare(tenants);
  undeclared.catch(() => undefined);
  return {
    example: declare(load("examples/wavix.yaml")),
    inOrder: declare(multiTenant),
    reversed: declare(reversedState(multiTenant)),
    undeclared,
    pinnedOnly: declare({ ...tenants, numbers: tenants.numbers!.slice(0, 1) }),
  };
}
const captures = () => (firstCaptures ??= startFirstCaptures());

describe("declareResources", () => {
  it("declares every resource of the example file with identity names and camelCase inputs", async () => {
    const rs = byName(await captures().example);
    expect([...rs.keys()].sort()).toEqual([
      "call-webhook:on-call",
      "call-webhook:post-call",
      "number:15551230001",
      "number:15551230002",
      "number:15551230003",
      "sub-account:Acme Billing",
      "sub-account:Acme Support",
    ]);
    expect(rs.get("sub-account:Acme Support")!.type).toBe("pulumi-nodejs:dynamic/wavix:SubAccount");
    expect(inputsOf(rs.get("sub-account:Acme Support")!)).toEqual({
      name: "Acme Support",
      status: "enabled",
      defaultDestinations: { smsEndpoint: "https://hooks.acme.example/sms", dlrEndpoint: "https://hooks.acme.example/dlr" },
    });
    expect(rs.get("sub-account:Acme Support")!.options.additionalSecretOutputs).toContain("apiKey");
    expect(inputsOf(rs.get("number:15551230002")!)).toEqual({
      number: "15551230002",
      smsEnabled: true,
      smsRelayUrl: "https://hooks.acme.example/inbound-sms",
      callStatusUrl: "https://hooks.acme.example/call-status",
    });
    expect(inputsOf(rs.get("number:15551230001")!).destinations).toEqual([
      { destination: "sip.acme.example", transport: 1, priority: 1 },
      { destination: "15557654321", transport: 4, priority: 2 },
      { destination: "acme-trunk", transport: 5, priority: 3, trunkId: 144 },
    ]);
    expect(inputsOf(rs.get("call-webhook:on-call")!)).toEqual({ eventType: "on-call", url: "https://hooks.acme.example/on-call" });
    // Keys the file omits are not managed: not even present.
    expect(inputsOf(rs.get("number:15551230003")!)).toEqual({ number: "15551230003", transcriptionEnabled: true, transcriptionThreshold: 30 });
  });

  it("keeps the same names and inputs when the file's lists are reordered", async () => {
    const [a, b] = await Promise.all([captures().inOrder, captures().reversed]);
    const ma = byName(a);
    const mb = byName(b);
    expect([...ma.keys()].sort()).toEqual([...mb.keys()].sort());
    expect(ma.size).toBe(9);
    for (const [name, r] of ma) {
      const other = inputsOf(mb.get(name)!);
      const mine = inputsOf(r);
      if (Array.isArray(mine.destinations)) {
        expect(new Set((other.destinations as unknown[]).map((d) => JSON.stringify(d)))).toEqual(
          new Set((mine.destinations as unknown[]).map((d) => JSON.stringify(d))),
        );
        delete mine.destinations;
        delete other.destinations;
      }
      expect(other).toEqual(mine);
      expect(mb.get(name)!.urn).toBe(r.urn);
    }
    expect(inputsOf(ma.get("number:15551230005")!).onDelete).toBe("release");
    // A pinned sub-account is named by its id (a rename in the file renames it in place).
    expect(inputsOf(ma.get("sub-account:id:2002")!).subAccountId).toBe(2002);
    // A tenant's number follows the file's sub_account: (Legacy Team, pinned 2002).
    expect(inputsOf(ma.get("number:15551230008")!).subAccountId).toBe(2002);
  });

  it("a tenant's number follows the file's sub_account: a pinned id as it is; an undeclared name is an error", async () => {
    // The file (startFirstCaptures): 15550000012 under the pinned 2002, 15550000013 under an undeclared name.
    await expect(captures().undeclared).rejects.toThrow(/number 15550000013: sub_account "Somebody" is not declared in the file's sub_accounts/);
    // The same file without 15550000013.
    const rs = byName(await captures().pinnedOnly);
    expect(inputsOf(rs.get("number:15550000012")!).subAccountId).toBe(2002);
  });

  it("declared in chunks (declareResourcesStreamed, the root program's way) gives the very same resources", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "wavix-streamed-"));
    const many = path.join(dir, "many.yaml");
    // 250 numbers: the first alone, then chunks of 100 (two turns of the event loop inside the list).
    writeFileSync(many, `version: 1\nnumbers:\n${Array.from({ length: 250 }, (_, i) => `  - number: "1555${String(i).padStart(7, "0")}"\n    sms_enabled: ${i % 2 === 0}\n`).join("")}`);
    const env = { ACME_PBX_PASSWORD: "pbx-secret-1", OFFICE_PHONES_PASSWORD: "office-secret-2" };
    const files = ["examples/wavix.yaml", "examples/multi-tenant.yaml", "examples/sip-trunks.yaml", "examples/messaging.yaml", many];
    // Every capture started at once: one child process captures them all, each under its own mocks
    // (capturePulumiResources batches them), instead of one @pulumi/pulumi load per capture.
    const captures = files.map((file) => {
      const state = load(file);
      return Promise.all([
        capturePulumiResources(PROGRAM, "declareResources", { args: state, env }),
        capturePulumiResources(PROGRAM, "declareResourcesStreamed", { args: state, env }),
      ]);
    });
    for (const [i, file] of files.entries()) {
      const [whole, streamed] = await captures[i]!;
      const shape = (r: CapturedResource) => ({ name: r.name, type: r.type, urn: r.urn, inputs: r.inputs, provider: r.provider, options: r.options });
      expect(streamed.map(shape).sort((a, b) => a.name.localeCompare(b.name)), file).toEqual(whole.map(shape).sort((a, b) => a.name.localeCompare(b.name)));
      expect(whole.length, file).toBeGreaterThan(2);
    }
  });

  it("runProgram declares the file named by its option", async () => {
    const sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: "prog-key" }] });
    try {
      const rs = await capturePulumiResources(PROGRAM, "runProgram", {
        args: { configFile: "examples/multi-tenant.yaml" },
        env: { WAVIX_API_KEY: "prog-key", WAVIX_BASE_URL: sim.url },
      });
      expect(rs.map((r) => r.name).sort()).toEqual([
        "call-webhook:post-call",
        "number:15551230004",
        "number:15551230005",
        "number:15551230006",
        "number:15551230008",
        "sub-account:Tenant Alpha",
        "sub-account:Tenant Beta",
        "sub-account:Tenant Gamma",
        "sub-account:id:2002",
      ]);
      // The audit section's data sources are proven where the program runs to its end (the
      // capture exits once resources are registered): test/pulumi/engine.test.ts, configFile.
    } finally {
      await sim.close();
    }
  });
});

describe("loadStateOrThrow", () => {
  it("throws one error listing every FILE:LINE:COL problem", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "wavix-pulumi-"));
    const file = path.join(dir, "bad.yaml");
    writeFileSync(file, 'version: 1\nnumbers:\n  - number: "1555"\n    sms_enabled: maybe\n    call_status_url: ftp://x\n');
    let message = "";
    try {
      loadStateOrThrow(file);
    } catch (e) {
      message = (e as Error).message;
    }
    const lines = message.split("\n").slice(1);
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(l).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:\\d+:\\d+: `));
    expect(message).toContain("numbers[0].sms_enabled");
    expect(message).toContain("numbers[0].call_status_url");
  });
});

describe("data sources", () => {
  let sim: Simulator;
  let client: WavixClient;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: "ds-key" }] });
    client = new WavixClient({ apiKey: "ds-key", baseUrl: sim.url });
  });
  afterAll(async () => {
    await sim.close();
  });

  it("getTwoFaEvents returns the audit's normalised sessions with exact totals, camelCase like its arguments", async () => {
    const data = await getTwoFaEvents({ sessions: ["8753d4308f2e11ecb75fcdafd6d2d690"] }, { client });
    expect(data.sessions).toHaveLength(1);
    expect(data.sessions[0]).toMatchObject({ sessionId: "8753d4308f2e11ecb75fcdafd6d2d690", verified: true, chargeTotal: "0.0525" });
    expect(data.chargeTotal).toBe("0.0525");
    // Only camelCase is enumerable: what a stack output or JSON shows.
    expect(Object.keys(data)).toEqual(["complete", "gapCount", "findings", "chargeTotal", "eventsByStatus", "verified", "notVerified", "unknown", "sessions"]);
    expect([data.complete, data.gapCount, data.findings]).toEqual([true, 0, []]);
    expect(Object.keys(data.sessions[0])).toEqual(["sessionId", "verified", "chargeTotal", "figuresFrom", "eventsRead", "events"]);
    expect(Object.keys(data.sessions[0].events[0])).toEqual(["createdAt", "event", "status", "charge", "error"]);
    expect(JSON.stringify(data)).not.toMatch(/_(total|id|at|by)/);
  });

  it("keeps the snake_case names of earlier versions as deprecated aliases (for one version), equal to the camelCase ones", async () => {
    const data = await getTwoFaEvents({ sessions: ["8753d4308f2e11ecb75fcdafd6d2d690"] }, { client });
    expect(data.charge_total).toBe(data.chargeTotal);
    expect(data.events_by_status).toEqual(data.eventsByStatus);
    expect(data.sessions[0].session_id).toBe("8753d4308f2e11ecb75fcdafd6d2d690");
    expect(data.sessions[0].charge_total).toBe("0.0525");
    expect(data.sessions[0].events[0].created_at).toBe(data.sessions[0].events[0].createdAt);
    const brands = await getBrandVettings({ brands: ["B6AI7PA"] }, { client });
    expect(brands.brands[0].brand_id).toBe("B6AI7PA");
    expect(brands.brands[0].effective_score).toBe(82);
    expect(brands.brands[0].vettings[0].vetting_score).toBe(brands.brands[0].vettings[0].vettingScore);
    expect(brands.brands[0].vettings[0].create_date).toBe("2026-11-03T10:15:00Z");
  });

  it("getTwoFaEventsOutput resolves Inputs and reads with environment credentials", async () => {
    const saved = { k: process.env.WAVIX_API_KEY, u: process.env.WAVIX_BASE_URL };
    process.env.WAVIX_API_KEY = "ds-key";
    process.env.WAVIX_BASE_URL = sim.url;
    try {
      const out = getTwoFaEventsOutput({
        services: [{ serviceId: "7204a030201211ee9fb47d093f2f127c", from: "2026-11-01", to: "2026-11-21" }],
      });
      const data = await new Promise<{ sessions: unknown[] }>((resolve) => out.apply((d) => resolve(d)));
      expect(data.sessions.length).toBeGreaterThanOrEqual(2);
    } finally {
      if (saved.k === undefined) delete process.env.WAVIX_API_KEY;
      else process.env.WAVIX_API_KEY = saved.k;
      if (saved.u === undefined) delete process.env.WAVIX_BASE_URL;
      else process.env.WAVIX_BASE_URL = saved.u;
    }
  });

  it("refuse reversed or malformed windows before any request, naming the argument", async () => {
    const before = sim.log.length;
    const reversed = getTwoFaEvents({ services: [{ serviceId: "7204a030201211ee9fb47d093f2f127c", from: "2026-11-21", to: "2026-11-01" }] }, { client });
    await expect(reversed).rejects.toThrow(/services\[0\]\.to: the window ends \(2026-11-01\) before it starts \(2026-11-21\)/);
    const loose = getTwoFaEvents({ services: [{ serviceId: "7204a030201211ee9fb47d093f2f127c", from: "Nov 1", to: "2026-11-21" }] }, { client });
    await expect(loose).rejects.toThrow(/services\[0\]\.from: .*YYYY-MM-DD/);
    expect(sim.log.length).toBe(before);
  });

  it("getBrandVettings of all brands lists them 100 per page", async () => {
    const before = sim.log.length;
    const data = await getBrandVettings({ brands: "all" }, { client });
    expect(data.brands.length).toBeGreaterThanOrEqual(2);
    const listings = sim.log.slice(before).filter((e) => e.path === "/v3/10dlc/brands");
    expect(listings.length).toBeGreaterThan(0);
    for (const e of listings) expect(new URLSearchParams(e.query).get("per_page")).toBe("100");
  });

  it("getBrandVettings gives each brand's effective score and pending flag", async () => {
    const data = await getBrandVettings({ brands: ["B6AI7PA", "BPEND01"] }, { client });
    const ids = data.brands.map((b) => b.brandId).sort();
    expect(ids).toEqual(["B6AI7PA", "BPEND01"]);
    expect(data.brands.find((b) => b.brandId === "BPEND01")!.pending).toBe(true);
    expect(data.brands.find((b) => b.brandId === "B6AI7PA")).toMatchObject({ effectiveScore: 82, previousScore: null, scoreFell: false, newestVettingAt: "2026-11-03T10:20:00Z" });
    await expect(getBrandVettings({ brands: ["NOPE"] }, { client })).rejects.toThrow(/NOPE/);
  });
});
