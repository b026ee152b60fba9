/**
 * End to end through the CLI (a child process) against the real simulator over HTTP.
 * docs/CONTRACT.md parts 4 and 5; the plan/apply issue's acceptance list.
 */
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generateAccount, startSimulator, type SimSeed, type Simulator } from "../../src/simulator";
import { runCli, scratch, writeYaml } from "../helpers/cli";

const KEY = "test-master-key-5f1c";
const SUB_KEY_A = "sub-key-acme-9a8b7c";
const SUB_KEY_L = "sub-key-legacy-1d2e3f";

function seed(): SimSeed {
  return {
    numbers: [
      {
        id: 11,
        number: "15550000001",
        sms_enabled: false,
        call_status_url: null,
        destination: [
          { id: 1, destination: "sip.example.net", priority: 1, transport: 1, trunk_id: null, srtp: false, trunk_label: null },
          { id: 2, destination: "trunk-login", priority: 2, transport: 5, trunk_id: 144, srtp: true, trunk_label: "Main trunk" },
        ],
      },
      { id: 12, number: "15550000002", sms_enabled: true, transcription_threshold: 10 },
      { id: 13, number: "15550000003", sms_enabled: false },
    ],
    subAccounts: [
      {
        id: 2001,
        name: "Acme Support",
        api_key: SUB_KEY_A,
        default_destinations: { sms_endpoint: "https://a.example/sms", dlr_endpoint: "https://a.example/dlr" },
      },
      { id: 2002, name: "Legacy", api_key: SUB_KEY_L },
    ],
    callWebhooks: [{ event_type: "post-call", url: "https://hooks.example/post" }],
  };
}

const FILE = `version: 1
sub_accounts:
  - name: Acme Support
    status: disabled
  - name: New Co
    default_destinations:
      sms_endpoint: https://new.example/sms
numbers:
  - number: "+15550000001"
    call_status_url: https://hooks.example/status
    destinations:
      - { destination: trunk-login, transport: trunk, trunk_id: 144, priority: 2 }
      - { destination: sip.example.net, transport: sip, priority: 1 }
  - number: "15550000002"
    transcription_threshold: 10
call_webhooks:
  on-call: https://hooks.example/on
  post-call: https://hooks.example/post
`;

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(s: SimSeed | "demo" = seed(), extra: Partial<Parameters<typeof startSimulator>[0]> = {}) {
  sim = await startSimulator({ port: 0, seed: s, apiKeys: [{ key: KEY }], asyncDelayMs: 50, ...extra });
  return { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url };
}

function noSecrets(text: string) {
  for (const secret of [KEY, SUB_KEY_A, SUB_KEY_L]) expect(text).not.toContain(secret);
  expect(text).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/); // no stack trace
}

describe("plan", () => {
  it("lists exactly the expected changes, and nothing for destinations that differ only in order", async () => {
    const env = await start();
    const file = writeYaml(scratch(), "wavix.yaml", FILE);
    const r = await runCli(["plan", "-f", file, "--json"], env);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout);
    // docs/CONTRACT.md part 5: one object with exactly these keys (no ids, no current records).
    expect(Object.keys(plan)).toEqual(["version", "changes", "unmanaged", "summary"]);
    expect(plan.version).toBe(1);
    const byKey = Object.fromEntries(plan.changes.map((c: { kind: string; key: string }) => [`${c.kind}:${c.key}`, c]));
    expect(Object.keys(byKey).sort()).toEqual(["call_webhook:on-call", "number:15550000001", "sub_account:Acme Support", "sub_account:New Co"]);
    expect(byKey["number:15550000001"]).toEqual({
      kind: "number",
      key: "15550000001",
      action: "update",
      destructive: false,
      diff: [{ path: "call_status_url", before: null, after: "https://hooks.example/status" }],
    });
    expect(byKey["sub_account:Acme Support"].diff).toEqual([{ path: "status", before: "enabled", after: "disabled" }]);
    // Disabled by the file, not by --prune: destructive all the same (issue #27 item 3).
    expect(byKey["sub_account:Acme Support"]).toMatchObject({ destructive: true, effects: ["disable"] });
    expect(byKey["sub_account:New Co"].action).toBe("create");
    expect(byKey["call_webhook:on-call"]).toMatchObject({ action: "create", diff: [{ path: "url", before: null, after: "https://hooks.example/on" }] });
    // A number the account owns and the file does not declare is reported too (issue #27).
    expect(plan.unmanaged).toEqual([{ kind: "sub_account", key: "Legacy" }, { kind: "number", key: "15550000003" }]);
    expect(plan.summary).toEqual({ create: 2, update: 2, replace: 0, delete: 0, unchanged: 2, destructive: 1 });
    noSecrets(r.stdout + r.stderr);
    // A plan only reads.
    expect(sim!.log.filter((e) => e.method !== "GET")).toEqual([]);
  });

  it("reads like terraform plan and exits 2 with --detailed-exitcode when there are changes", async () => {
    const env = await start();
    const file = writeYaml(scratch(), "wavix.yaml", FILE);
    const r = await runCli(["plan", "-f", file, "--detailed-exitcode"], env);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('~ number "15550000001"');
    expect(r.stdout).toContain('call_status_url = null → "https://hooks.example/status"');
    expect(r.stdout).toContain('+ sub_account "New Co"');
    expect(r.stdout).toContain("api_key");
    expect(r.stdout).toContain("(sensitive)");
    expect(r.stdout).toContain("Plan: 2 to create, 2 to update, 0 to delete, 2 unchanged; 1 destructive.");
    noSecrets(r.stdout + r.stderr);
  });

  it("refuses to run without WAVIX_API_KEY, and sends nothing for an invalid file", async () => {
    const env = await start();
    const dir = scratch();
    const file = writeYaml(dir, "wavix.yaml", FILE);
    const missing = await runCli(["plan", "-f", file], { WAVIX_BASE_URL: env.WAVIX_BASE_URL });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("WAVIX_API_KEY");
    const bad = writeYaml(dir, "bad.yaml", "version: 1\nnumbers:\n  - number: '15550000001'\n    sms_enabled: yes please\n");
    const r = await runCli(["plan", "-f", bad], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bad\.yaml:4:\d+: .*\(at numbers\[0\]\.sms_enabled\)/);
    expect(sim!.log).toEqual([]);
  });

  it("names a declared number the account does not own and exits 1", async () => {
    const env = await start();
    const file = writeYaml(scratch(), "wavix.yaml", "version: 1\nnumbers:\n  - number: '19990000000'\n    sms_enabled: true\n");
    const r = await runCli(["plan", "-f", file], env);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain("19990000000");
    expect(r.stdout + r.stderr).toMatch(/not owned/);
  });
});

describe("apply", () => {
  it("converges: apply then plan is empty; unmanaged fields survive the PUT; undeclared numbers get no write", async () => {
    const env = await start();
    const file = writeYaml(scratch(), "wavix.yaml", FILE);
    const a = await runCli(["apply", "-f", file, "--auto-approve", "--wait", "10"], env);
    expect(a.stderr).toBe("");
    expect(a.code).toBe(0);
    expect(a.stdout).toContain("Apply complete: 2 created, 2 updated, 0 deleted.");
    noSecrets(a.stdout);

    const acme = sim!.store.subAccounts.get(2001)!.data;
    expect(acme.status).toBe("disabled");
    // The file manages only `status`: the endpoints it does not mention keep their values.
    expect(acme.default_destinations).toEqual({ sms_endpoint: "https://a.example/sms", dlr_endpoint: "https://a.example/dlr" });
    const created = [...sim!.store.subAccounts.values()].filter((s) => s.data.name === "New Co");
    expect(created).toHaveLength(1);
    expect(created[0].data.default_destinations.sms_endpoint).toBe("https://new.example/sms");
    expect(sim!.store.webhooksOf(sim!.store.masterId).get("on-call")).toBe("https://hooks.example/on");

    const writes = sim!.log.filter((e) => e.method !== "GET");
    expect(writes.some((e) => e.path.includes("/v1/numbers") && e.path.endsWith("/13"))).toBe(false);
    expect(writes.filter((e) => e.path.startsWith("/v1/numbers"))).toHaveLength(1);

    const p = await runCli(["plan", "-f", file, "--detailed-exitcode"], env);
    expect(p.code).toBe(0);
    expect(p.stdout).toContain("No changes.");
  });

  it("renames a sub-account pinned by id, keeping what the file does not manage", async () => {
    const env = await start();
    const file = writeYaml(scratch(), "wavix.yaml", "version: 1\nsub_accounts:\n  - name: Acme Care\n    id: 2001\n");
    const p = await runCli(["plan", "-f", file, "--json"], env);
    expect(JSON.parse(p.stdout).changes).toEqual([
      { kind: "sub_account", key: "Acme Care", action: "update", destructive: false, diff: [{ path: "name", before: "Acme Support", after: "Acme Care" }] },
    ]);
    expect((await runCli(["apply", "-f", file, "--auto-approve"], env)).code).toBe(0);
    const acme = sim!.store.subAccounts.get(2001)!.data;
    expect(acme.name).toBe("Acme Care");
    expect(acme.default_destinations.sms_endpoint).toBe("https://a.example/sms");
    expect(sim!.store.subAccounts.size).toBe(2);
    expect((await runCli(["plan", "-f", file, "--detailed-exitcode"], env)).code).toBe(0);
  });

  it("refuses without --auto-approve when there is no terminal", async () => {
    const env = await start();
    const file = writeYaml(scratch(), "wavix.yaml", FILE);
    const r = await runCli(["apply", "-f", file], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--auto-approve");
    expect(sim!.log.filter((e) => e.method !== "GET")).toEqual([]);
  });

  it("--prune disables undeclared sub-accounts and deletes undeclared webhooks; without it they are left alone", async () => {
    const env = await start();
    const file = writeYaml(scratch(), "wavix.yaml", "version: 1\nsub_accounts:\n  - name: Acme Support\ncall_webhooks:\n  on-call: https://hooks.example/on\n");
    const plain = await runCli(["apply", "-f", file, "--auto-approve", "--json"], env);
    expect(plain.code).toBe(0);
    const out = JSON.parse(plain.stdout);
    expect(out.unmanaged).toEqual([
      { kind: "sub_account", key: "Legacy" },
      { kind: "call_webhook", key: "post-call" },
    ]);
    expect(sim!.store.subAccounts.get(2002)!.data.status).toBe("enabled");

    const pruned = await runCli(["apply", "-f", file, "--auto-approve", "--prune", "--json"], env);
    expect(pruned.code).toBe(0);
    const res = JSON.parse(pruned.stdout);
    expect(res.changes.map((c: { kind: string; key: string; action: string }) => `${c.action} ${c.kind}:${c.key}`).sort()).toEqual([
      "delete call_webhook:post-call",
      "delete sub_account:Legacy",
    ]);
    // apply --json: the plan's keys plus one result per change, nothing pending, ok.
    expect(Object.keys(res)).toEqual(["version", "changes", "unmanaged", "summary", "results", "pending", "ok"]);
    expect(res.results.map((r: { outcome: string }) => r.outcome)).toEqual(["ok", "ok"]);
    expect(res.pending).toEqual([]);
    expect(res.ok).toBe(true);
    expect(sim!.store.subAccounts.get(2002)!.data.status).toBe("disabled");
    expect(sim!.store.webhooksOf(sim!.store.masterId).has("post-call")).toBe(false);
  });

  it("sends a uniform change to many numbers as bulk PATCHes and waits for the asynchronous part", async () => {
    const big = generateAccount({ numbers: 250, subAccounts: 0 });
    const env = await start(big, { asyncDelayMs: 200 });
    const digits = (big.numbers ?? []).map((n) => n.number);
    const yaml = [
      "version: 1",
      // Routing every number to a new destination diverts it (destructive: docs/GUARD-RAILS.md): meant here.
      "safety: { max_destructive_percent: 100, max_destructive_total: 1000 }",
      "numbers:",
      ...digits.flatMap((d) => [`  - number: "${d}"`, "    sms_relay_url: https://bulk.example/sms", "    destinations: [{ destination: sip.bulk.example, transport: sip, priority: 1 }]"]),
    ].join("\n");
    const file = writeYaml(scratch(), "wavix.yaml", yaml + "\n");
    const a = await runCli(["apply", "-f", file, "--auto-approve", "--wait", "20"], env);
    expect(a.stderr).toBe("");
    expect(a.code).toBe(0);
    const patches = sim!.log.filter((e) => e.method === "PATCH");
    expect(patches.length).toBe(3); // 250 numbers in chunks of 100
    expect(patches.every((e) => e.path === "/v1/numbers")).toBe(true);
    const p = await runCli(["plan", "-f", file, "--detailed-exitcode"], env);
    expect(p.code).toBe(0);
  });

  it("a key that may not write numbers: one refused bulk PATCH per batch, not one PATCH per number", async () => {
    const big = generateAccount({ numbers: 250, subAccounts: 0 });
    const env = await start(big, { apiKeys: [{ key: KEY, restricted: { account: "read", numbers: "read" } }] });
    const digits = (big.numbers ?? []).map((n) => n.number);
    const yaml = ["version: 1", "numbers:", ...digits.flatMap((d) => [`  - number: "${d}"`, "    sms_relay_url: https://bulk.example/sms"])].join("\n");
    const file = writeYaml(scratch(), "wavix.yaml", yaml + "\n");
    const a = await runCli(["apply", "-f", file, "--auto-approve", "--wait", "5"], env);
    expect(a.code).toBe(1);
    const patches = sim!.log.filter((e) => e.method === "PATCH");
    // 401/403 says the key may not write: splitting the bulk into single PATCHes is refused the same
    // way (250 more refused requests here, 5,011 on a 5,000-number account).
    expect(patches.map((e) => [e.path, e.status])).toEqual([
      ["/v1/numbers", 403],
      ["/v1/numbers", 403],
      ["/v1/numbers", 403],
    ]);
    expect(a.stdout).toContain("forbidden (403): Forbidden: PATCH /v1/numbers requires scope numbers:write");
    expect(a.stdout).toContain("250 failed");
  });

  it("converges under 429 every 5th request, 503 every 7th and a create that commits then drops, with no duplicate", async () => {
    const env = await start(seed(), {
      faults: [
        { kind: "commit-then-drop", method: "POST", pathPrefix: "/v1/sub-organizations", times: 1 },
        { kind: "status", status: 429, retryAfter: "0", everyNth: 5 },
        { kind: "status", status: 503, everyNth: 7 },
      ],
    });
    const file = writeYaml(scratch(), "wavix.yaml", FILE);
    const a = await runCli(["apply", "-f", file, "--auto-approve", "--wait", "10"], env);
    expect(a.stderr).toBe("");
    expect(a.code).toBe(0);
    expect([...sim!.store.subAccounts.values()].filter((s) => s.data.name === "New Co")).toHaveLength(1);
    expect(sim!.log.some((e) => e.status === 429)).toBe(true);
    expect(sim!.log.some((e) => e.status === 503)).toBe(true);
    sim!.setFaults([]);
    const p = await runCli(["plan", "-f", file, "--detailed-exitcode"], env);
    expect(p.code).toBe(0);
  });

  it("a failed item does not stop the others; the run exits 1 naming it, and a re-run finishes", async () => {
    const env = await start();
    const file = writeYaml(
      scratch(),
      "wavix.yaml",
      `version: 1
numbers:
  - number: "15550000002"
    call_status_url: https://hooks.example/ok
  - number: "15550000003"
    call_recording_enabled: true
`,
    );
    // The first write to number 12 fails with a validation error the API names a field for.
    sim!.setFaults([
      { kind: "status", status: 422, method: "PATCH", pathPrefix: "/v1/numbers/12", times: 1, body: JSON.stringify({ success: false, message: "Validation failed", errors: { call_status_url: "is not reachable" } }) },
    ]);
    const a = await runCli(["apply", "-f", file, "--auto-approve"], env);
    expect(a.code).toBe(1);
    expect(a.stdout + a.stderr).toContain('number "15550000002"');
    expect(a.stdout + a.stderr).toContain("call_status_url");
    expect(sim!.store.numbers.get(13)!.data.call_recording_enabled).toBe(true);
    const again = await runCli(["apply", "-f", file, "--auto-approve"], env);
    expect(again.code).toBe(0);
    expect(sim!.store.numbers.get(12)!.data.call_status_url).toBe("https://hooks.example/ok");
  });
});

describe("export", () => {
  it("exports the demo account as a file that validates and plans clean, with no secrets", async () => {
    const env = await start("demo");
    const dir = scratch();
    const out = join(dir, "exported.yaml");
    const e = await runCli(["export", "--out", out], env);
    expect(e.code).toBe(0);
    const text = readFileSync(out, "utf8");
    expect(text.startsWith("# yaml-language-server: $schema=")).toBe(true);
    noSecrets(text);
    for (const s of sim!.store.subAccounts.values()) expect(text).not.toContain(s.data.api_key);
    expect((await runCli(["validate", "-f", out], env)).code).toBe(0);
    const p = await runCli(["plan", "-f", out, "--detailed-exitcode"], env);
    expect(p.stdout).toContain("No changes.");
    expect(p.code).toBe(0);
  });

  it("exports a generated account of 1,000 numbers that plans clean in pages, not one GET per number", async () => {
    const env = await start(generateAccount({ numbers: 1000, subAccounts: 20 }));
    const out = join(scratch(), "exported.yaml");
    expect((await runCli(["export", "--out", out], env)).code).toBe(0);
    sim!.log.length = 0;
    const p = await runCli(["plan", "-f", out, "--detailed-exitcode"], env);
    expect(p.code).toBe(0);
    expect(sim!.log.length).toBeLessThanOrEqual(15);
  });
});
