/**
 * Bad input and unexpected answers, through the CLI (a child process) against the real simulator:
 * every case ends with a clear message and the right exit code — no crash, no stack trace, and
 * nothing half-written without saying so (docs/CONTRACT.md parts 4, 5 and 8).
 */
import { afterEach, describe, expect, it } from "vitest";
import { startSimulator, type FaultRule, type SimSeed, type Simulator } from "../../src/simulator";
import { runCli, scratch, writeYaml, type CliRun } from "../helpers/cli";

const KEY = "bad-input-master-key-Vv40";

function seed(): SimSeed {
  return {
    numbers: [
      { id: 11, number: "15550000001", sms_enabled: false },
      { id: 12, number: "15550000002", sms_enabled: false, call_recording_enabled: true },
    ],
    subAccounts: [
      { id: 3001, name: "Twin", api_key: "bad-input-sub-twin-a-Kq1" },
      { id: 3002, name: "Twin", api_key: "bad-input-sub-twin-b-Kq2" },
      { id: 3003, name: "Solo", api_key: "bad-input-sub-solo-Kq3" },
    ],
  };
}

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(faults: FaultRule[] = []) {
  sim = await startSimulator({ port: 0, seed: seed(), apiKeys: [{ key: KEY }], asyncDelayMs: 20, faults });
  return { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url };
}

/** Clear for a person: no stack trace, no internal error names, no key. */
function clean(r: CliRun) {
  const all = r.stdout + r.stderr;
  expect(all).not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(all).not.toMatch(/TypeError|ReferenceError|SyntaxError|Unhandled|undefined is not/);
  expect(all).not.toContain(KEY);
}

/** The simulator's own answer for a GET, to tamper with. */
async function fetchJson(path: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${sim!.url}${path}`, { headers: { authorization: `Bearer ${KEY}` } });
  return (await res.json()) as Record<string, unknown>;
}


const TWO_NUMBERS = `version: 1
numbers:
  - number: "15550000001"
    sms_enabled: true
  - number: "15550000002"
    sms_enabled: true
`;

describe("declared things the account does not have", () => {
  it("a number the account does not own: apply exits 1 naming it, and writes nothing at all", async () => {
    const env = await start();
    const file = writeYaml(scratch(), "wavix.yaml", TWO_NUMBERS + '  - number: "19990000000"\n    sms_enabled: true\n');
    const r = await runCli(["apply", "-f", file, "--auto-approve"], env);
    clean(r);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/number "19990000000": number 19990000000 is not owned by the account \(wavix-sync never buys numbers/);
    // A plan with problems writes nothing (docs/GUARD-RAILS.md), not even the numbers it owns.
    expect(sim!.log.filter((e) => e.method !== "GET")).toEqual([]);
    // Never bought: still two numbers.
    expect(sim!.store.numbers.size).toBe(2);
  });

  it("a sub-account name matching two existing ones asks for `id:`; with `id:` it works", async () => {
    const env = await start();
    const dir = scratch();
    const ambiguous = writeYaml(dir, "a.yaml", "version: 1\nsub_accounts:\n  - name: Twin\n    status: disabled\n");
    const p = await runCli(["plan", "-f", ambiguous], env);
    clean(p);
    expect(p.code).toBe(1);
    expect(p.stdout + p.stderr).toContain('sub-account "Twin" matches 2 existing sub-accounts (ids 3001, 3002): add `id:` to the entry to pin one');
    const a = await runCli(["apply", "-f", ambiguous, "--auto-approve"], env);
    expect(a.code).toBe(1);
    expect(sim!.log.filter((e) => e.method !== "GET")).toEqual([]);

    const pinned = writeYaml(dir, "b.yaml", "version: 1\nsub_accounts:\n  - name: Twin\n    id: 3002\n    status: disabled\n");
    const ok = await runCli(["apply", "-f", pinned, "--auto-approve"], env);
    clean(ok);
    expect(ok.code).toBe(0);
    expect(sim!.store.subAccounts.get(3002)!.data.status).toBe("disabled");
    expect(sim!.store.subAccounts.get(3001)!.data.status).toBe("enabled");
    expect(sim!.store.subAccounts.size).toBe(3);
    const again = await runCli(["plan", "-f", pinned, "--detailed-exitcode"], env);
    expect(again.stdout + again.stderr).toContain("No changes.");
    expect(again.code).toBe(0);
  });
});

describe("the API refuses a write", () => {
  it("a trunk the API rejects: its validation error is shown with the field; the other number is applied", async () => {
    const env = await start([
      {
        kind: "status",
        status: 422,
        method: "PATCH",
        pathPrefix: "/v1/numbers/11",
        body: JSON.stringify({ success: false, message: "The given data was invalid.", errors: { "destinations.0.trunk_id": "The selected trunk 999 does not exist" } }),
      },
    ]);
    const file = writeYaml(
      scratch(),
      "wavix.yaml",
      `version: 1
numbers:
  - number: "15550000001"
    destinations: [{ destination: gone-trunk, transport: trunk, trunk_id: 999, priority: 1 }]
  - number: "15550000002"
    sms_enabled: true
`,
    );
    const r = await runCli(["apply", "-f", file, "--auto-approve"], env);
    clean(r);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Failed: number "15550000001" (update): PATCH /v1/numbers/11: validation failed: destinations.0.trunk_id: The selected trunk 999 does not exist');
    expect(r.stdout).toMatch(/Apply incomplete: 0 created, 1 updated, 0 deleted, 1 failed \(a re-run finishes the rest\)\./);
    expect(sim!.store.numbers.get(11)!.data.destination).toEqual([]);
    expect(sim!.store.numbers.get(12)!.data.sms_enabled).toBe(true);
  });
});

describe("unexpected responses", () => {
  it("extra fields in a response: plan works; a quiet note per field in verbose mode, nothing without (issue #22)", async () => {
    const env = await start();
    const page = await fetchJson("/v1/numbers?page=1&per_page=100");
    const items = page.items as Array<Record<string, unknown>>;
    items[0].porting_status = "complete";
    items[0].new_feature = { enabled: true };
    sim!.setFaults([{ kind: "status", status: 200, method: "GET", pathPrefix: "/v1/numbers", body: JSON.stringify(page) }]);
    const file = writeYaml(scratch(), "wavix.yaml", TWO_NUMBERS);
    const r = await runCli(["plan", "-f", file, "--json"], { ...env, WAVIX_SYNC_VERBOSE: "1" });
    clean(r);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).summary).toEqual({ create: 0, update: 2, replace: 0, delete: 0, unchanged: 0, destructive: 0 });
    expect(r.stderr).toMatch(/^Note: GET \/v1\/numbers: response addition: number: new property "porting_status" \(not in the documented schema; ignored\)$/m);
    expect(r.stderr).toMatch(/^Note: .*new property "new_feature"/m);
    // Without verbose: an added property is harmless, so nothing is printed (no drift summary).
    const q = await runCli(["plan", "-f", file], env);
    expect(q.stderr).toBe("");
  });

  it("missing fields in a response: a warning, not a crash; apply still converges", async () => {
    const env = await start();
    const page = await fetchJson("/v1/numbers?page=1&per_page=100");
    const items = page.items as Array<Record<string, unknown>>;
    for (const n of items) {
      delete n.transcription_threshold;
      delete n.destination;
      delete n.city;
    }
    sim!.setFaults([{ kind: "status", status: 200, method: "GET", pathPrefix: "/v1/numbers", times: 1, body: JSON.stringify(page) }]);
    const file = writeYaml(scratch(), "wavix.yaml", TWO_NUMBERS);
    const r = await runCli(["apply", "-f", file, "--auto-approve"], { ...env, WAVIX_SYNC_VERBOSE: "1" });
    clean(r);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Warning: GET \/v1\/numbers: response drift: .*transcription_threshold/);
    expect(sim!.store.numbers.get(11)!.data.sms_enabled).toBe(true);
  });

  it("an HTML 502 page is retried; when it persists, a clear error and exit 1", async () => {
    const html = "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>";
    const env = await start([{ kind: "status", status: 502, method: "GET", pathPrefix: "/v1/numbers", body: html, contentType: "text/html", times: 2 }]);
    const file = writeYaml(scratch(), "wavix.yaml", TWO_NUMBERS);
    const transient = await runCli(["plan", "-f", file], env);
    clean(transient);
    expect(transient.code).toBe(0);
    expect(sim!.log.filter((e) => e.status === 502)).toHaveLength(2);

    sim!.setFaults([{ kind: "status", status: 502, method: "GET", pathPrefix: "/v1/numbers", body: html, contentType: "text/html" }]);
    const r = await runCli(["plan", "-f", file], env);
    clean(r);
    expect(r.code).toBe(1);
    // The long backoffs of the last retries are announced, one line each, before the error.
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines.at(-1)).toBe(
      'Error: GET /v1/numbers?page=1&per_page=100: the API answered with a server error (502) as an HTML page ("502 Bad Gateway") ' +
        "instead of JSON; the fault is on the API's side or a proxy in between: try again later",
    );
    for (const line of lines.slice(0, -1)) expect(line).toMatch(/^Retrying GET \/v1\/numbers\?page=1&per_page=100 \(attempt [2-5] of 5\) after 502 server error: waiting \d+\.\d s$/);
    expect(r.stderr).not.toContain("<html>");
  });

  it("truncated JSON from a read: clear error, exit 1, nothing written", async () => {
    const env = await start();
    const page = JSON.stringify(await fetchJson("/v1/numbers?page=1&per_page=100"));
    sim!.setFaults([{ kind: "status", status: 200, method: "GET", pathPrefix: "/v1/numbers", body: page.slice(0, Math.floor(page.length / 2)) }]);
    const file = writeYaml(scratch(), "wavix.yaml", TWO_NUMBERS);
    const r = await runCli(["apply", "-f", file, "--auto-approve"], env);
    clean(r);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: GET \/v1\/numbers\?page=1&per_page=100: expected JSON, got malformed or truncated JSON \(\d+ bytes\) \(200\)\n$/);
    expect(sim!.log.filter((e) => e.method !== "GET")).toEqual([]);
  });

  it("truncated JSON answering a write: that item is reported failed (not silently ok); a re-run converges", async () => {
    const env = await start([{ kind: "status", status: 200, method: "PATCH", pathPrefix: "/v1/numbers/11", body: '{"id": 11, "number": "155', times: 1 }]);
    const file = writeYaml(scratch(), "wavix.yaml", 'version: 1\nnumbers:\n  - number: "15550000001"\n    sms_enabled: true\n  - number: "15550000002"\n    call_recording_enabled: false\n');
    const r = await runCli(["apply", "-f", file, "--auto-approve"], env);
    clean(r);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Failed: number "15550000001" \(update\): PATCH \/v1\/numbers\/11: expected JSON, got malformed or truncated JSON/);
    expect(r.stdout).toContain("1 failed (a re-run finishes the rest)");
    expect(sim!.store.numbers.get(12)!.data.call_recording_enabled).toBe(false);
    const again = await runCli(["apply", "-f", file, "--auto-approve"], env);
    expect(again.code).toBe(0);
    expect(sim!.store.numbers.get(11)!.data.sms_enabled).toBe(true);
    expect((await runCli(["plan", "-f", file, "--detailed-exitcode"], env)).code).toBe(0);
  });

  it("a JSON body of the wrong shape (an error object where a list belongs) ends clearly, not in a crash", async () => {
    const env = await start([{ kind: "status", status: 200, method: "GET", pathPrefix: "/v1/numbers", body: JSON.stringify({ success: false, message: "maintenance" }) }]);
    const file = writeYaml(scratch(), "wavix.yaml", TWO_NUMBERS);
    const r = await runCli(["plan", "-f", file], env);
    clean(r);
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")[0]).toBe('Error: GET /v1/numbers?page=1&per_page=100: expected a JSON object with an "items" array, got object (message: maintenance) (200)');
    // The drift itself is summed up on its own line (details with WAVIX_SYNC_VERBOSE=1).
    expect(r.stderr.split("\n").slice(1).filter((l) => l !== "")).toEqual([expect.stringMatching(/^Warning: \d+ API response difference/)]);
  });
});
