/**
 * The suite's contract check itself (test/global-setup.ts): a simulator records each request that
 * breaks the request schemas in the folder named by WAVIX_SIM_VIOLATIONS_DIR, with the test file,
 * and leaves out the ones a test says it sends on purpose. Here the folder is this test's own, so
 * the deliberate breaks below never reach the run's check.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSimulator, VIOLATIONS_DIR_ENV, type ContractViolation, type Simulator } from "../../src/simulator";

let dir: string;
let saved: string | undefined;
let sim: Simulator | undefined;
beforeEach(() => {
  saved = process.env[VIOLATIONS_DIR_ENV];
  dir = mkdtempSync(join(tmpdir(), "wavix-violations-test-"));
  process.env[VIOLATIONS_DIR_ENV] = dir;
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  if (saved === undefined) delete process.env[VIOLATIONS_DIR_ENV];
  else process.env[VIOLATIONS_DIR_ENV] = saved;
  rmSync(dir, { recursive: true, force: true });
});

function recorded(): ContractViolation[] {
  return readdirSync(dir).flatMap((f) =>
    readFileSync(join(dir, f), "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as ContractViolation),
  );
}

function patch(s: Simulator, body: unknown): Promise<Response> {
  return fetch(`${s.url}/v1/numbers/4001`, {
    method: "PATCH",
    headers: { authorization: "Bearer sim-demo-key", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe("the contract check", () => {
  it("records a request breaking its schema, naming the test file, and answers 400", async () => {
    sim = await startSimulator({ port: 0 });
    const r = await patch(sim, { label: "x", sms_relay_url: "" });
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({
      success: false,
      message: expect.any(String),
      errors: { label: "is not allowed", sms_relay_url: "must be a valid URI" },
    });
    const found = recorded();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ kind: "request", method: "PATCH", path: "/v1/numbers/4001" });
    expect(found[0].message).toContain("label: is not allowed");
    expect(found[0].test).toMatch(/violation-check\.test\.ts$/);
    expect(sim.violations).toHaveLength(1);
  });

  it("records nothing for a conforming request, or one a test says it sends on purpose", async () => {
    sim = await startSimulator({ port: 0 });
    expect((await patch(sim, { sms_enabled: true, call_status_url: null })).status).toBe(200);
    sim.expectBadRequests();
    expect((await patch(sim, { label: "x" })).status).toBe(400);
    expect(recorded()).toEqual([]);
    expect(sim.violations).toEqual([]);
  });

  it("records an answer of the simulator's own that breaks the response schemas", async () => {
    sim = await startSimulator({ port: 0 });
    // A store the seed could never produce: a boolean field holding text.
    (sim.store.numbers.get(4001)!.data as unknown as Record<string, unknown>).sms_enabled = "yes";
    const r = await fetch(`${sim.url}/v1/numbers/4001`, { headers: { authorization: "Bearer sim-demo-key" } });
    expect(r.status).toBe(200);
    const found = recorded();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ kind: "response", method: "GET", path: "/v1/numbers/4001" });
    expect(found[0].message).toContain("/sms_enabled");
  });
});
