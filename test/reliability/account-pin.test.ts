/**
 * The account pin against a hostile server (test/helpers/hostile-server.ts) in front of the real
 * simulator: a `GET /v1/profile` answer that is malformed stops plan and apply with exit 1, one
 * error line naming the profile, no stack trace, and no other request (nothing read, nothing written).
 */
import { afterEach, describe, expect, it } from "vitest";
import { startSimulator } from "../../src/simulator";
import { runCli, scratch, writeYaml } from "../helpers/cli";
import { startHostileServer } from "../helpers/hostile-server";

const KEY = "pin-hostile-key-8c1f";
const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

const LIES: Array<{ label: string; body: unknown }> = [
  { label: "an object without id", body: { email: "x@example.com" } },
  { label: "the id as a string", body: { id: "1000" } },
  { label: "a fractional id", body: { id: 1000.5 } },
  { label: "an id past 2^53", body: { id: 9007199254740993 } },
  { label: "id 0", body: { id: 0 } },
  { label: "an array", body: [{ id: 1000 }] },
  { label: "null", body: null },
];

describe("a malformed profile answer", () => {
  for (const lie of LIES) {
    it(`${lie.label}: exit 1, no stack trace, one GET /v1/profile and nothing else`, async () => {
      const sim = await startSimulator({ port: 0, seed: { numbers: [{ id: 11, number: "15550000001", sms_enabled: false }] }, apiKeys: [{ key: KEY }] });
      opened.push(sim);
      const hostile = await startHostileServer(sim.url, { rewrite: (req, status, body) => (req.path === "/v1/profile" ? lie.body : body) });
      opened.push(hostile);
      const f = writeYaml(scratch(), "wavix.yaml", 'version: 1\naccount_id: 1000\nnumbers:\n  - number: "15550000001"\n    sms_enabled: true\n');
      const r = await runCli(["apply", "-f", f, "--auto-approve"], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: hostile.url });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^Error: GET \/v1\/profile: /m);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stderr).not.toContain(KEY);
      expect(hostile.requests.map((q) => `${q.method} ${q.path}`)).toEqual(["GET /v1/profile"]);
      expect(sim.store.numbers.get(11)!.data.sms_enabled).toBe(false);
    });
  }

  it("an HTML page instead of JSON: the same", async () => {
    const sim = await startSimulator({ port: 0, seed: "empty", apiKeys: [{ key: KEY }] });
    opened.push(sim);
    const hostile = await startHostileServer(sim.url, {
      before: (req) => (req.path === "/v1/profile" ? { status: 200, headers: { "content-type": "text/html" }, body: "<html>login</html>" } : undefined),
    });
    opened.push(hostile);
    const f = writeYaml(scratch(), "wavix.yaml", "version: 1\naccount_id: 1000\nnumbers: []\n");
    const r = await runCli(["plan", "-f", f], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: hostile.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: GET \/v1\/profile: /m);
    expect(hostile.requests.every((q) => q.path === "/v1/profile")).toBe(true);
  });
});
