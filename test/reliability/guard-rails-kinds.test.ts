/**
 * Issue #27, the kinds' half of the guard rails, each rule against a server we did not write: the
 * strict server (test/helpers/strict-server.ts: only the official schemas' required fields, PUTs
 * replacing, normalising what it stores) and the hostile server (test/helpers/hostile-server.ts:
 * lies, barriers, dropped listing entries). Each test names the rule it holds.
 */
import { afterEach, describe, expect, it } from "vitest";
import { WavixClient } from "../../src/client";
import { formatProblem, parseDesiredState } from "../../src/config";
import { applyPlan, computePlan } from "../../src/plan";
import { startSimulator, type SimSeed, type Simulator } from "../../src/simulator";
import { runCli, scratch, writeYaml } from "../helpers/cli";
import { startHostileServer, type HostileServer, type ProxyRequest } from "../helpers/hostile-server";
import { startStrictServer, type StrictServer } from "../helpers/strict-server";

const KEY = "guard-rails-kinds-key-5e7b";
/** The edge trunk's password, as a user's apply job has it: every trunk PUT carries it (the official PUT requires it). */
const EDGE_PW = "edge-trunk-password-3a9d";
process.env.GRK_EDGE_PW = EDGE_PW;
const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

async function strict(seed: SimSeed): Promise<{ server: StrictServer; client: WavixClient }> {
  const server = await startStrictServer({ seed, apiKeys: [{ key: KEY }], asyncDelayMs: 20 });
  opened.push(server);
  return { server, client: new WavixClient({ apiKey: KEY, baseUrl: server.url }) };
}

async function hostile(seed: SimSeed): Promise<{ sim: Simulator; proxy: HostileServer; client: WavixClient }> {
  const sim = await startSimulator({ seed, apiKeys: [{ key: KEY }], asyncDelayMs: 20 });
  opened.push(sim);
  const proxy = await startHostileServer(sim.url);
  opened.push(proxy);
  return { sim, proxy, client: new WavixClient({ apiKey: KEY, baseUrl: proxy.url }) };
}

function parse(yaml: string) {
  const parsed = parseDesiredState(yaml, "g.yaml");
  if (!parsed.ok) throw new Error(parsed.problems.map(formatProblem).join("\n"));
  return parsed.state;
}

function problemsOf(yaml: string): string {
  const parsed = parseDesiredState(yaml, "g.yaml");
  return parsed.ok ? "" : parsed.problems.map(formatProblem).join("\n");
}

const writes = (requests: readonly ProxyRequest[]) => requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);

/** A trunk with every limit set: what a PUT built without them would reset. */
const LIMITED_TRUNK = {
  id: 700,
  name: "70000",
  label: "edge",
  callerid: "15550000001",
  host: "203.0.113.5",
  ip_restrict: true,
  allowed_ips: [{ id: 1, ip: "203.0.113.10" }],
  call_restrict: true,
  call_limit: 600,
  cost_limit: true,
  max_call_cost: "0.1800",
  channels_restrict: true,
  max_channels: 4,
  rewrite_enabled: true,
  rewrite_prefix: "1",
  rewrite_cond: "2",
};
const NUMBERS = [{ id: 11, number: "15550000001" }, { id: 12, number: "15550000002" }];

/** Every setting of the trunk above, as a file declares it (what a PUT must carry). */
const WHOLE_TRUNK = `  - label: edge
    password_env: GRK_EDGE_PW
    host: 203.0.113.5
    callerid: "15550000001"
    multiple_numbers: false
    ip_restrict: true
    allowed_ips: [203.0.113.10]
    didinfo_enabled: true
    call_restrict: true
    call_limit: 600
    cost_limit: true
    max_call_cost: "0.18"
    channels_restrict: true
    max_channels: 4
    rewrite_enabled: true
    rewrite_prefix: "1"
    rewrite_cond: "2"
    call_recording_enabled: false
    transcription_enabled: false
    transcription_threshold: 6
    machine_detection_enabled: false
`;

describe("1. only keys present are managed: a full-replace write only from a read holding every field it carries", () => {
  it("strict server: a trunk update whose read does not show the settings the file leaves out is a plan problem naming them; nothing is written", async () => {
    const { server, client } = await strict({ numbers: NUMBERS, trunks: [LIMITED_TRUNK] });
    const prepared = await computePlan(client, parse(`version: 1\nsip_trunks:\n  - label: edge\n    encrypted_media: true\n`));
    expect(prepared.plan.changes).toEqual([]);
    expect(prepared.plan.problems).toHaveLength(1);
    const message = prepared.plan.problems[0].message;
    for (const f of ["host", "multiple_numbers", "ip_restrict", "didinfo_enabled", "call_restrict", "call_limit", "cost_limit", "max_call_cost", "channels_restrict", "max_channels", "rewrite_enabled", "rewrite_prefix", "rewrite_cond", "transcription_threshold"]) {
      expect(message).toMatch(new RegExp(`\\b${f}\\b`));
    }
    expect(message).toContain("a PUT replaces the whole trunk");
    // Nothing is written from a plan with problems (src/plan/engine.ts, IncompletePlanError).
    await expect(applyPlan(client, prepared)).rejects.toThrowError(/nothing is written from an incomplete plan/);
    expect(writes(server.proxy.requests)).toEqual([]);
    const data = server.sim.store.trunks.get(700)!.data;
    expect([data.host, data.call_limit, data.max_call_cost, data.max_channels, data.rewrite_prefix, data.encrypted_media]).toEqual(["203.0.113.5", 600, "0.1800", 4, "1", false]);
  });

  it("strict server, through the CLI: apply exits 1 naming the fields, and the cost limit, call limit and static host stay", async () => {
    const { server } = await strict({ numbers: NUMBERS, trunks: [LIMITED_TRUNK] });
    const file = writeYaml(scratch(), "w.yaml", `version: 1\nsip_trunks:\n  - label: edge\n    encrypted_media: true\n`);
    const run = await runCli(["apply", "-f", file, "--auto-approve"], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: server.url });
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toMatch(/does not show .*max_call_cost/);
    expect(writes(server.proxy.requests)).toEqual([]);
    expect(server.sim.store.trunks.get(700)!.data).toMatchObject({ host: "203.0.113.5", call_limit: 600, max_call_cost: "0.1800" });
  });

  it("strict server: the trunk declared whole is written with one PUT carrying every setting, and keeps them all", async () => {
    const { server, client } = await strict({ numbers: NUMBERS, trunks: [LIMITED_TRUNK] });
    const prepared = await computePlan(client, parse(`version: 1\nsip_trunks:\n${WHOLE_TRUNK}    encrypted_media: true\n`));
    expect(prepared.plan.problems).toEqual([]);
    const result = await applyPlan(client, prepared, { settleMs: 10 });
    expect(result.results).toMatchObject([{ key: "edge", outcome: "ok" }]);
    expect(writes(server.proxy.requests)).toEqual(["PUT /v1/trunks/700"]);
    expect(server.sim.store.trunks.get(700)!.data).toMatchObject({ host: "203.0.113.5", call_limit: 600, max_call_cost: "0.1800", max_channels: 4, rewrite_prefix: "1", rewrite_cond: "2", encrypted_media: true });
  });

  it("strict server, saved plan: the trunk declared whole is saved from a read that lacks the optional settings, and apply --plan writes it with one PUT keeping them all", async () => {
    const { server } = await strict({ numbers: NUMBERS, trunks: [LIMITED_TRUNK] });
    const dir = scratch();
    const file = writeYaml(dir, "w.yaml", `version: 1\nsip_trunks:\n${WHOLE_TRUNK}    encrypted_media: true\n`);
    const env = { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: server.url, GRK_EDGE_PW: EDGE_PW };
    const plan = await runCli(["plan", "-f", file, "--save", `${dir}/p.json`], env);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    const apply = await runCli(["apply", "--plan", `${dir}/p.json`, "-f", file, "--auto-approve"], env);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(writes(server.proxy.requests)).toEqual(["PUT /v1/trunks/700"]);
    expect(server.sim.store.trunks.get(700)!.data).toMatchObject({ host: "203.0.113.5", call_limit: 600, max_call_cost: "0.1800", max_channels: 4, rewrite_prefix: "1", rewrite_cond: "2", encrypted_media: true });
  });

  it("strict server, saved plan: a trunk update saved from a read that lacks settings the file leaves out is refused at plan --save, nothing written", async () => {
    const { server } = await strict({ numbers: NUMBERS, trunks: [LIMITED_TRUNK] });
    const dir = scratch();
    const file = writeYaml(dir, "w.yaml", `version: 1\nsip_trunks:\n  - label: edge\n    encrypted_media: true\n`);
    const plan = await runCli(["plan", "-f", file, "--save", `${dir}/p.json`], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: server.url });
    expect(plan.stdout + plan.stderr).toMatch(/does not show .*max_call_cost/);
    expect(writes(server.proxy.requests)).toEqual([]);
  });

  it("hostile server, saved plan: a plan saved while the GET showed every setting, applied when it no longer does, sends no PUT (the fresh read before the PUT is guarded on apply --plan too)", async () => {
    const { sim, proxy } = await hostile({ numbers: NUMBERS, trunks: [LIMITED_TRUNK] });
    const dir = scratch();
    const file = writeYaml(dir, "w.yaml", `version: 1\nsip_trunks:\n  - label: edge\n    password_env: GRK_EDGE_PW\n    encrypted_media: true\n`);
    const env = { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: proxy.url, GRK_EDGE_PW: EDGE_PW };
    const plan = await runCli(["plan", "-f", file, "--save", `${dir}/p.json`], env);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    proxy.set({
      rewrite: (req, status, body) => {
        if (req.method !== "GET" || req.path !== "/v1/trunks/700" || status !== 200) return body;
        const { host: _h, call_limit: _c, max_call_cost: _m, ...rest } = body as Record<string, unknown>;
        return rest;
      },
    });
    const apply = await runCli(["apply", "--plan", `${dir}/p.json`, "-f", file, "--auto-approve"], env);
    expect(apply.code).toBe(1);
    expect(apply.stdout + apply.stderr).toMatch(/does not show host, call_limit, max_call_cost/);
    expect(writes(proxy.requests)).toEqual([]);
    expect(sim.store.trunks.get(700)!.data).toMatchObject({ host: "203.0.113.5", call_limit: 600, max_call_cost: "0.1800", encrypted_media: false });
  });

  it("hostile server: a trunk GET that leaves out host, call_limit and max_call_cost is refused the same way (allowed_ips with ip_restrict too)", async () => {
    const { sim, proxy, client } = await hostile({ numbers: NUMBERS, trunks: [LIMITED_TRUNK] });
    proxy.set({
      rewrite: (req, status, body) => {
        if (req.method !== "GET" || req.path !== "/v1/trunks/700" || status !== 200) return body;
        const { host: _h, call_limit: _c, max_call_cost: _m, allowed_ips: _a, ...rest } = body as Record<string, unknown>;
        return rest;
      },
    });
    const prepared = await computePlan(client, parse(`version: 1\nsip_trunks:\n  - label: edge\n    ip_restrict: true\n    encrypted_media: true\n`));
    expect(prepared.plan.problems.map((p) => p.message)).toEqual([expect.stringMatching(/does not show host, allowed_ips, call_limit, max_call_cost,/)]);
    // Nothing is written from a plan with problems (src/plan/engine.ts, IncompletePlanError).
    await expect(applyPlan(client, prepared)).rejects.toThrowError(/nothing is written from an incomplete plan/);
    expect(writes(proxy.requests)).toEqual([]);
    expect(sim.store.trunks.get(700)!.data).toMatchObject({ host: "203.0.113.5", call_limit: 600, max_call_cost: "0.1800", allowed_ips: [{ ip: "203.0.113.10" }] });
  });

  it("strict server: a sub-account PUT is the merge of the fresh record and the file, so an endpoint the file does not manage stays", async () => {
    const { server, client } = await strict({ subAccounts: [{ id: 2001, name: "Acme", api_key: "sub-key-acme-1", default_destinations: { sms_endpoint: "https://acme.example/sms", dlr_endpoint: "https://acme.example/dlr" } }] });
    const prepared = await computePlan(client, parse(`version: 1\nsub_accounts:\n  - name: Acme\n    status: disabled\n`));
    const result = await applyPlan(client, prepared, { settleMs: 10 });
    expect(result.ok).toBe(true);
    expect(server.sim.store.subAccounts.get(2001)!.data).toMatchObject({ status: "disabled", default_destinations: { sms_endpoint: "https://acme.example/sms", dlr_endpoint: "https://acme.example/dlr" } });
  });

  it("strict server (PUT /v1/profile replacing): one callback declared is a problem naming the other; company details it does not show are a problem; else the PUT carries the profile as read", async () => {
    // The official CompanyInfo requires none of its fields: the strict server shows `company_info: {}`.
    const hidden = await strict({ profile: { company_info: { name: "Acme", industry: "telecommunications", address: "1 Main St", attn_contact_name: "Ann", vat_number: "GB123", country: { country_name: "United Kingdom", country_id: 826 } } } });
    const refused = await computePlan(hidden.client, parse(`version: 1\naccount_callbacks:\n  sms_relay_url: https://h.example/sms\n  dlr_relay_url: https://h.example/dlr\n`), { flags: ["send-callbacks"] });
    expect(refused.plan.problems.map((p) => p.message)).toEqual([expect.stringMatching(/does not show company_info\.name, company_info\.industry/)]);
    const { server, client } = await strict({ profile: { first_name: "Ann", job_title: "CTO", company_info: null }, profileCallbacks: { dlr_relay_url: "https://old.example/dlr" } });
    const one = await computePlan(client, parse(`version: 1\naccount_callbacks:\n  sms_relay_url: https://h.example/sms\n`), { flags: ["send-callbacks"] });
    expect(one.plan.problems.map((p) => p.message)).toEqual([expect.stringContaining("declare dlr_relay_url too")]);
    await expect(applyPlan(client, one)).rejects.toThrowError(/nothing is written from an incomplete plan/);
    expect(server.sim.store.messaging.callbacks).toEqual({ dlr_relay_url: "https://old.example/dlr" });
    const both = await computePlan(client, parse(`version: 1\naccount_callbacks:\n  sms_relay_url: https://h.example/sms\n  dlr_relay_url: https://h.example/dlr\n`), { flags: ["send-callbacks"] });
    expect(both.plan.problems).toEqual([]);
    expect((await applyPlan(client, both)).ok).toBe(true);
    expect(server.sim.store.messaging.callbacks).toEqual({ sms_relay_url: "https://h.example/sms", dlr_relay_url: "https://h.example/dlr" });
    expect(server.sim.store.messaging.profile).toMatchObject({ first_name: "Ann", last_name: "Owner", job_title: "CTO", timezone: "UTC", company_info: null });
  });

  it("strict server: a Sender ID field the listing leaves out (usecase, samples) is not a difference: no replace, no problem", async () => {
    const { client } = await strict({ senderIds: [{ sender_id: "ACME", type: "alphanumeric", allowlisted_in: ["GB"], usecase: "promo", samples: ["Hi"] }] });
    const prepared = await computePlan(client, parse(`version: 1\nsender_ids:\n  - { sender_id: ACME, type: alphanumeric, countries: [GB], usecase: promo, samples: [Hi] }\n`));
    expect(prepared.plan.problems).toEqual([]);
    expect(prepared.plan.changes).toEqual([]);
  });
});

describe("2. values compared as the API means them", () => {
  it("strict server: money written 0.180 against 0.1800 served, and IPv6 written in capitals and uncompressed against the server's canonical text, plan clean after apply", async () => {
    const { server, client } = await strict({ numbers: NUMBERS, trunks: [{ ...LIMITED_TRUNK, allowed_ips: [{ id: 1, ip: "2001:db8::10" }] }] });
    const yaml = WHOLE_TRUNK.replace('max_call_cost: "0.18"', 'max_call_cost: "0.180"').replace("allowed_ips: [203.0.113.10]", 'allowed_ips: ["2001:DB8:0:0:0:0:0:10", "2001:db8::11"]');
    const file = `version: 1\nsip_trunks:\n${yaml}    encrypted_media: false\n`;
    expect((await applyPlan(client, await computePlan(client, parse(file)), { settleMs: 10 })).ok).toBe(true);
    expect(server.sim.store.trunks.get(700)!.data.allowed_ips.map((x) => x.ip)).toEqual(["2001:db8::10", "2001:db8::11"]);
    // What the strict server shows (allowed_ips) compares equal; what it does not show stays unreadable, never "different".
    const again = await computePlan(client, parse(file));
    expect(again.plan.changes.flatMap((c) => c.diff.filter((d) => !d.unreadable && d.path !== "password"))).toEqual([]);
  });

  it("in the file: IPv6 written two ways is one address (a duplicate in a set); money and addresses are normalised at load", () => {
    expect(problemsOf(`version: 1\nsip_trunks:\n  - label: a\n    allowed_ips: ["2001:db8::1", "2001:DB8:0:0:0:0:0:1"]\n`)).toMatch(/duplicate IP "2001:DB8:0:0:0:0:0:1" \(the same address as "2001:db8::1"\)/);
    const t = parse(`version: 1\nsip_trunks:\n  - label: a\n    host: "2001:DB8::0:5"\n    max_call_cost: "0.2500"\n    allowed_ips: ["2001:DB8::7"]\n`).sip_trunks![0];
    expect([t.host, t.max_call_cost, t.allowed_ips]).toEqual(["2001:db8::5", "0.25", ["2001:db8::7"]]);
  });

  it("hostile server: a webhook URL served with its host in Unicode and its escapes in lower case is the same URL (no change)", async () => {
    const { proxy, client } = await hostile({ callWebhooks: [{ event_type: "on-call", url: "https://xn--mnchen-3ya.example/hook%C3%BC?a=%7E" }] });
    proxy.set({
      rewrite: (req, status, body) =>
        req.method === "GET" && req.path === "/v1/calls/webhooks" && Array.isArray(body) ? body.map((w: Record<string, unknown>) => ({ ...w, url: "https://münchen.example/hook%c3%bc?a=~" })) : body,
    });
    const prepared = await computePlan(client, parse(`version: 1\ncall_webhooks:\n  on-call: https://xn--mnchen-3ya.example/hook%C3%BC?a=%7E\n`));
    expect(prepared.plan.changes).toEqual([]);
  });
});

/** Holds the first `n` requests `match` picks until all `n` arrived (or `ms` passed), then lets them go together; later ones pass. */
function barrier(match: (r: ProxyRequest) => boolean, n = 2, ms = 10_000) {
  const held: Array<() => void> = [];
  let seen = 0;
  return async (req: ProxyRequest): Promise<void> => {
    if (!match(req) || ++seen > n) return;
    await new Promise<void>((go) => {
      held.push(go);
      if (held.length >= n) for (const release of held.splice(0)) release();
      setTimeout(go, ms);
    });
  };
}

describe("3. no twin of a trunk or a Sender ID", () => {
  it("hostile server: two applies at once, their creates held until both arrive, leave one trunk and one Sender ID, and both succeed", async () => {
    const { sim, proxy } = await hostile({ numbers: NUMBERS });
    const trunks = barrier((r) => r.method === "POST" && r.path === "/v1/trunks");
    const senders = barrier((r) => r.method === "POST" && r.path === "/v3/messages/sender-ids");
    proxy.set({ before: async (req) => { await trunks(req); await senders(req); } });
    const file = writeYaml(scratch(), "w.yaml", `version: 1\nsip_trunks:\n  - label: pbx\n    password_env: PBX_PW\n    callerid: "15550000001"\nsender_ids:\n  - { sender_id: ACME, type: alphanumeric, countries: [GB], usecase: promo }\n`);
    const env = { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: proxy.url, PBX_PW: "pbx-password-1234" };
    const runs = await Promise.all([runCli(["apply", "-f", file, "--auto-approve"], env), runCli(["apply", "-f", file, "--auto-approve"], env)]);
    expect(proxy.requests.filter((r) => r.method === "POST" && r.path === "/v1/trunks")).toHaveLength(2);
    expect([...sim.store.trunks.values()].map((t) => t.data.label)).toEqual(["pbx"]);
    expect([...sim.store.messaging.senderIds.values()].map((s) => s.sender_id)).toEqual(["ACME"]);
    for (const run of runs) expect(run.code, run.stdout + run.stderr).toBe(0);
  });

  it("hostile server: a listing that leaves the trunk out once makes no twin (the label is read again right before the POST)", async () => {
    const { sim, proxy, client } = await hostile({ numbers: NUMBERS, trunks: [{ id: 700, name: "70000", label: "pbx", callerid: "15550000001" }] });
    let dropped = false;
    proxy.set({
      rewrite: (req, status, body) => {
        if (dropped || req.method !== "GET" || req.path !== "/v1/trunks" || status !== 200) return body;
        dropped = true;
        const o = body as { sip_trunks: unknown[]; pagination: Record<string, number> };
        return { ...o, sip_trunks: [], pagination: { ...o.pagination, total: 0 } };
      },
    });
    process.env.GUARD_PBX_PW = "pbx-password-1234";
    try {
      const prepared = await computePlan(client, parse(`version: 1\nsip_trunks:\n  - label: pbx\n    password_env: GUARD_PBX_PW\n    callerid: "15550000001"\n`));
      expect(prepared.plan.changes.map((c) => c.action)).toEqual(["create"]);
      const result = await applyPlan(client, prepared);
      expect(result.ok).toBe(true);
    } finally {
      delete process.env.GUARD_PBX_PW;
    }
    expect(writes(proxy.requests)).toEqual([]);
    expect([...sim.store.trunks.keys()]).toEqual([700]);
  });

  it("strict server (NFC, upper case): a Sender ID kept as ACME for acme makes no twin on the next apply; forms that cannot match are refused at load", async () => {
    const { server, client } = await strict({});
    const file = parse(`version: 1\nsender_ids:\n  - { sender_id: acme, type: alphanumeric, countries: [GB], usecase: promo }\n`);
    expect((await applyPlan(client, await computePlan(client, file))).ok).toBe(true);
    const again = await computePlan(client, file);
    expect(again.plan.changes).toEqual([]);
    expect(again.plan.problems).toEqual([]);
    expect([...server.sim.store.messaging.senderIds.values()].map((s) => s.sender_id)).toEqual(["ACME"]);
    expect(problemsOf(`version: 1\nsender_ids:\n  - { sender_id: ACME, type: alphanumeric, countries: [GB], usecase: promo }\n  - { sender_id: acme, type: alphanumeric, countries: [FR], usecase: promo }\n`)).toMatch(/g\.yaml:4:\d+: duplicate sender ID "acme": "ACME" is declared at line 3 .*compared without case/);
    expect(problemsOf(`version: 1\nsip_trunks:\n  - label: "Cafe\u0301"\n`)).toMatch(/trunk label "Cafe\u0301" is not in Unicode NFC form \(U\+0065 U\+0301 where NFC has U\+00E9\)/);
  });

  it("strict server (NFC): a trunk label sent in NFC and kept in NFC is found again: a second plan creates nothing", async () => {
    const { server, client } = await strict({ numbers: NUMBERS });
    process.env.GUARD_CAFE_PW = "cafe-password-1234";
    try {
      const file = parse(`version: 1\nsip_trunks:\n  - label: "Caf\u00e9"\n    password_env: GUARD_CAFE_PW\n    callerid: "15550000001"\n`);
      expect((await applyPlan(client, await computePlan(client, file))).ok).toBe(true);
      expect((await computePlan(client, file)).plan.changes.filter((c) => c.action === "create")).toEqual([]);
    } finally {
      delete process.env.GUARD_CAFE_PW;
    }
    expect(server.sim.store.trunks.size).toBe(1);
  });
});

describe("4. prune never deletes a linked Sender ID", () => {
  it("hostile server: a listing without `type` — the numeric Sender ID of a 10DLC-linked number is decided from its digits and left; one of unknown type is not judged", async () => {
    const { sim, proxy, client } = await hostile({
      numbers: NUMBERS,
      brands: [{ brand_id: "BRAND01" }],
      campaigns: [{ brand_id: "BRAND01", campaign_id: "CAMP001", numbers: [{ number: "15550000001", status: "APPROVED" }] }],
      senderIds: [
        { id: "11111111-1111-4111-8111-111111111111", sender_id: "15550000001", type: "numeric", allowlisted_in: ["US"], usecase: "transactional" },
        { id: "22222222-2222-4222-8222-222222222222", sender_id: "OLDCO", type: "alphanumeric", allowlisted_in: ["DE"], usecase: "promo" },
      ],
    });
    proxy.set({
      rewrite: (req, status, body) =>
        req.method === "GET" && req.path === "/v3/messages/sender-ids" && status === 200
          ? { items: (body as { items: Array<Record<string, unknown>> }).items.map(({ type: _t, ...rest }) => rest) }
          : body,
    });
    const prepared = await computePlan(client, parse(`version: 1\nsender_ids: []\n`), { prune: true });
    expect(prepared.plan.changes).toEqual([]);
    expect(prepared.plan.unmanaged.map((u) => u.key).sort()).toEqual(["15550000001", "OLDCO"]);
    await applyPlan(client, prepared);
    expect(writes(proxy.requests)).toEqual([]);
    expect(sim.store.messaging.senderIds.size).toBe(2);
  });
});

describe("5. a plan needs no secret", () => {
  it("CLI: plan (and plan --save) of a new trunk runs without its password variable and shows the password as (sensitive); apply without it is refused, writing nothing", async () => {
    const { sim, proxy } = await hostile({ numbers: NUMBERS });
    const dir = scratch();
    const file = writeYaml(dir, "w.yaml", `version: 1\nsip_trunks:\n  - label: pbx\n    password_env: NEW_PBX_PW\n    callerid: "15550000001"\n`);
    const env = { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: proxy.url };
    const plan = await runCli(["plan", "-f", file, "--save", `${dir}/p.json`], env);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/password\s*=\s*\(sensitive\)|password: \(sensitive\)|\+ password = \(sensitive\)/);
    const apply = await runCli(["apply", "-f", file, "--auto-approve"], env);
    expect(apply.code).toBe(1);
    expect(apply.stdout + apply.stderr).toContain("the environment variable NEW_PBX_PW (password_env) is not set or empty");
    expect(apply.stderr).toContain("Apply refused (nothing was written)");
    expect(writes(proxy.requests)).toEqual([]);
    expect(sim.store.trunks.size).toBe(0);
  });
});

describe("6. the smaller rails", () => {
  it("password_env naming WAVIX_API_KEY is refused at load; a variable holding the API key is refused at apply, nothing written", async () => {
    expect(problemsOf(`version: 1\nsip_trunks:\n  - label: pbx\n    password_env: WAVIX_API_KEY\n`)).toMatch(/g\.yaml:4:\d+: password_env names WAVIX_API_KEY, the variable that holds the API key/);
    const { sim, proxy } = await hostile({ numbers: NUMBERS });
    const file = writeYaml(scratch(), "w.yaml", `version: 1\nsip_trunks:\n  - label: pbx\n    password_env: SAME_AS_KEY\n    callerid: "15550000001"\n`);
    const run = await runCli(["apply", "-f", file, "--auto-approve"], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: proxy.url, SAME_AS_KEY: KEY });
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain("SAME_AS_KEY (password_env) holds the API key");
    expect(run.stdout + run.stderr).not.toContain(KEY);
    expect(sim.store.trunks.size).toBe(0);
  });

  it("hostile server: one password variable for two trunks (a create, then a rotation) is no API key: both are written; a sub-account's key is still refused", async () => {
    const { sim, proxy, client } = await hostile({ numbers: NUMBERS, trunks: [{ id: 700, name: "70000", label: "old", callerid: "15550000001" }] });
    process.env.GRK_SHARED_PW = "shared-trunk-pw-77c1";
    try {
      const file = parse(`version: 1\nsip_trunks:\n  - label: new\n    password_env: GRK_SHARED_PW\n    callerid: "15550000001"\n  - label: old\n    password_env: GRK_SHARED_PW\n`);
      const result = await applyPlan(client, await computePlan(client, file, { rotate: ["old"] }), { settleMs: 10 });
      expect(result.results.map((r) => `${r.key} ${r.outcome}`).sort()).toEqual(["new ok", "old ok"]);
      expect(writes(proxy.requests).sort()).toEqual(["POST /v1/trunks", "PUT /v1/trunks/700"]);
      expect(sim.store.trunks.get(700)!.password).toBe("shared-trunk-pw-77c1");
      const tenant = client.withApiKey("tenant-key-0d9e");
      expect([client.isApiKey("tenant-key-0d9e"), tenant.isApiKey(KEY), client.isApiKey("shared-trunk-pw-77c1")]).toEqual([true, true, false]);
    } finally {
      delete process.env.GRK_SHARED_PW;
    }
  });

  it("hostile server: a DELETE that commits and loses its answer is retried; the 404 that follows is success, not a failure", async () => {
    const { sim, proxy, client } = await hostile({ numbers: NUMBERS, trunks: [{ id: 700, name: "70000", label: "old", callerid: "15550000001" }] });
    let dropped = 0;
    proxy.set({ after: (req) => (req.method === "DELETE" && dropped++ === 0 ? "drop" : undefined) });
    const prepared = await computePlan(client, parse(`version: 1\nsip_trunks: []\n`), { prune: true });
    const result = await applyPlan(client, prepared);
    expect(result.results).toMatchObject([{ key: "old", action: "delete", outcome: "ok" }]);
    expect(proxy.requests.filter((r) => r.method === "DELETE").length).toBe(2);
    expect(sim.store.trunks.size).toBe(0);
  });

  it("hostile server answering the official 422 to a PUT without the password: an ordinary update carries it, so the PUT is taken", async () => {
    const { sim, proxy } = await hostile({ numbers: NUMBERS, trunks: [{ id: 700, name: "70000", label: "edge", callerid: "15550000001" }] });
    proxy.set({ before: (req) => (req.method === "PUT" && JSON.parse(req.body).password === undefined ? { status: 422, body: { success: false, message: "Missing or invalid parameter password" } } : undefined) });
    const file = writeYaml(scratch(), "w.yaml", `version: 1\nsip_trunks:\n  - label: edge\n    password_env: GRK_EDGE_PW\n    encrypted_media: true\n`);
    const run = await runCli(["apply", "-f", file, "--auto-approve"], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: proxy.url, GRK_EDGE_PW: EDGE_PW });
    expect(run.code, run.stderr).toBe(0);
    expect(sim.store.trunks.get(700)!.data.encrypted_media).toBe(true);
    expect(sim.store.trunks.get(700)!.password).toBe(EDGE_PW);
  });

  it("hostile server: two applies changing different trunk fields at once, their PUTs held until both arrive, lose neither (the read-back repairs)", async () => {
    const { sim, proxy } = await hostile({ numbers: NUMBERS, trunks: [{ ...LIMITED_TRUNK }] });
    const puts = barrier((r) => r.method === "PUT" && r.path === "/v1/trunks/700");
    proxy.set({ before: (req) => puts(req) });
    const dir = scratch();
    const a = writeYaml(dir, "a.yaml", `version: 1\nsip_trunks:\n  - label: edge\n    password_env: GRK_EDGE_PW\n    max_channels: 9\n`);
    const b = writeYaml(dir, "b.yaml", `version: 1\nsip_trunks:\n  - label: edge\n    password_env: GRK_EDGE_PW\n    call_limit: 1200\n`);
    const env = { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: proxy.url, GRK_EDGE_PW: EDGE_PW };
    const runs = await Promise.all([runCli(["apply", "-f", a, "--auto-approve"], env), runCli(["apply", "-f", b, "--auto-approve"], env)]);
    for (const run of runs) expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(sim.store.trunks.get(700)!.data).toMatchObject({ max_channels: 9, call_limit: 1200, host: "203.0.113.5", max_call_cost: "0.1800" });
  });

  it("Sender IDs: an alphanumeric one longer than 11, with an emoji, a country that is not ISO 3166-1 (UK, XX), is refused at load", () => {
    const text = problemsOf(
      [
        "version: 1",
        "sender_ids:",
        `  - { sender_id: ${"A".repeat(50)}, type: alphanumeric, countries: [GB], usecase: promo }`,
        "  - { sender_id: 'Shop 🛒', type: alphanumeric, countries: [GB], usecase: promo }",
        "  - { sender_id: ACME, type: alphanumeric, countries: [UK, XX], usecase: promo }",
        "",
      ].join("\n"),
    );
    expect(text).toMatch(/g\.yaml:3:\d+: alphanumeric sender ID "A+…?" is 50 characters long: a phone shows at most 11/);
    expect(text).toMatch(/g\.yaml:4:\d+: alphanumeric sender ID "Shop 🛒" may hold only the letters A to Z, digits and spaces/);
    expect(text).toMatch(/g\.yaml:5:\d+: "UK" is not an ISO 3166-1 country code \(the United Kingdom is GB\)/);
    expect(text).toMatch(/g\.yaml:5:\d+: "XX" is not an ISO 3166-1 country code/);
  });

  it("account_id 9007199254740993 (and an id past what the API can mean) is refused, never silently rounded", () => {
    const text = problemsOf(`version: 1\naccount_id: 9007199254740993\nsub_accounts:\n  - { name: A, id: 3000000000 }\n`);
    expect(text).toContain("g.yaml:2:13: account_id must be at most 2147483647: the number written is too large to be read exactly (at account_id)");
    expect(text).toMatch(/g\.yaml:4:\d+: .*must be at most 2147483647, got 3000000000/);
    expect(text).not.toContain("9007199254740992");
  });

  it("a URL with a user name or password is refused at load, never quoted", () => {
    const text = problemsOf(`version: 1\ncall_webhooks:\n  on-call: https://bob:hunter2@hooks.example/on\n`);
    expect(text).toMatch(/g\.yaml:3:\d+: this URL carries a user name or password/);
    expect(text).not.toContain("hunter2");
  });

  it("WAVIX_BASE_URL ending in /v1 reaches /v1/..., never /v1/v1/...", async () => {
    const { proxy } = await hostile({ numbers: NUMBERS });
    const client = new WavixClient({ apiKey: KEY, baseUrl: `${proxy.url}/v1` });
    expect((await client.listNumbers({ page: 1, perPage: 10 })).items).toHaveLength(2);
    expect(proxy.requests.map((r) => r.path)).toEqual(["/v1/numbers"]);
  });

  it("CLI: on_delete in the file is noted as a Pulumi-only key the CLI never acts on", async () => {
    const { proxy } = await hostile({ numbers: NUMBERS });
    const file = writeYaml(scratch(), "w.yaml", `version: 1\nnumbers:\n  - { number: "15550000001", on_delete: release }\n  - { number: "15550000002" }\n`);
    const run = await runCli(["plan", "-f", file], { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: proxy.url });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("on_delete (on number 15550000001) is a Pulumi-only key: the CLI never releases a number");
  });

  it("numbers the account owns that the file does not declare are unmanaged: named up to 20, all counted, with no request beyond the listing", async () => {
    const numbers = Array.from({ length: 150 }, (_, i) => ({ id: 100 + i, number: `1555100${String(i).padStart(4, "0")}` }));
    const { proxy, client } = await hostile({ numbers });
    const prepared = await computePlan(client, parse(`version: 1\nnumbers:\n  - { number: "15551000000", sms_enabled: true }\n`));
    const named = prepared.plan.unmanaged.filter((u) => u.kind === "number");
    expect(named).toHaveLength(20);
    expect(named[0].key).toBe("15551000001");
    expect(prepared.plan.notes).toEqual([{ kind: "number", key: "numbers", message: expect.stringContaining("the account holds 149 numbers this file does not declare (20 named as unmanaged, 129 more, counted from the listing's total)") }]);
    expect(proxy.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/numbers"]);
  });

  it("hostile server: a listing page answered 500 once is read again (an idempotent GET); a POST answered 500 is sent once, never repeated", async () => {
    const { sim, proxy, client } = await hostile({ numbers: NUMBERS, trunks: [{ id: 700, name: "70000", label: "old", callerid: "15550000001" }] });
    let listings = 0;
    let posts = 0;
    proxy.set({
      before: (req) => {
        if (req.method === "GET" && req.path === "/v1/trunks" && listings++ === 0) return { status: 500, body: { success: false, message: "Internal Server Error" } };
        if (req.method === "POST" && req.path === "/v1/trunks" && posts++ === 0) return { status: 500, body: { success: false, message: "Internal Server Error" } };
      },
    });
    process.env.GRK_PBX_PW = "pbx-secret-4f1a";
    try {
      const prepared = await computePlan(client, parse(`version: 1\nsip_trunks:\n  - label: pbx\n    password_env: GRK_PBX_PW\n    callerid: "15550000001"\n`));
      expect(prepared.plan.problems).toEqual([]);
      expect(prepared.plan.changes.map((c) => `${c.action} ${c.key}`)).toEqual(["create pbx"]);
      expect(proxy.requests.filter((r) => r.method === "GET" && r.path === "/v1/trunks")).toHaveLength(2);
      const result = await applyPlan(client, prepared, { settleMs: 10 });
      expect(result.results.find((r) => r.key === "pbx")?.outcome).not.toBe("ok");
      expect(proxy.requests.filter((r) => r.method === "POST" && r.path === "/v1/trunks")).toHaveLength(1);
      expect(sim.store.trunks.size).toBe(1);
    } finally {
      delete process.env.GRK_PBX_PW;
    }
  });
});
