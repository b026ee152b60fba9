/**
 * `apply --plan` against a hostile server (test/helpers/hostile-server.ts) in front of the real
 * simulator: the recheck of what a saved plan touches fails, lies or answers partially. Whatever it
 * does, the apply is refused with nothing written (the proxy counts every request), each problem is
 * named, and the recheck's requests stay bounded.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { WavixClient } from "../../src/client";
import { parseDesiredState } from "../../src/config";
import { applyPlan, computePlan, parseSavedPlan, recheckSavedPlan, savePlan, SavedPlanError, verifySavedPlan } from "../../src/plan";
import { startSimulator, type Simulator } from "../../src/simulator";
import { runCli, scratch, writeYaml } from "../helpers/cli";
import { startHostileServer, type Behaviour, type HostileServer } from "../helpers/hostile-server";
import { MASTER_KEY, reliabilitySeed } from "./scenario";

const YAML = `version: 1
sub_accounts:
  - name: Acme Support
    status: disabled
  - name: New Co
numbers:
  - number: "15550000001"
    sms_enabled: false
call_webhooks:
  on-call: https://hooks.example/on
`;

const UPDATES_ONLY = `version: 1
sub_accounts:
  - name: Acme Support
    status: disabled
numbers:
  - number: "15550000001"
    sms_enabled: false
`;

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

async function world(): Promise<{ sim: Simulator; proxy: HostileServer }> {
  const sim = await startSimulator({ port: 0, seed: reliabilitySeed(), apiKeys: [{ key: MASTER_KEY }], asyncDelayMs: 10 });
  opened.push(sim);
  const proxy = await startHostileServer(sim.url);
  opened.push(proxy);
  return { sim, proxy };
}

function client(url: string): WavixClient {
  return new WavixClient({
    apiKey: MASTER_KEY,
    baseUrl: url,
    requestsPerSecond: Number.POSITIVE_INFINITY,
    timeoutMs: 2_000,
    retry: { backoffBaseMs: 5, backoffLimitMs: 20 },
  });
}

/** A saved plan's text, made through the (still honest) proxy. */
async function saved(url: string, text: string): Promise<string> {
  const parsed = parseDesiredState(text, "wavix.yaml");
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const c = client(url);
  const prepared = await computePlan(c, parsed.state);
  return savePlan(prepared, { baseUrl: c.baseUrl, account: "1000", filePath: "wavix.yaml", fileBytes: Buffer.from(text), prune: false, toolVersion: "test" }).text;
}

/** Load, verify against the file it was made from, and recheck through the proxy; apply only when both pass (as the CLI does). */
async function applySaved(url: string, text: string): Promise<{ refused?: SavedPlanError; ok?: boolean }> {
  const c = client(url);
  const loaded = parseSavedPlan(text);
  const { prepared } = loaded;
  const file = JSON.parse(text).plan.file.sha256 === `sha256:${createHash("sha256").update(YAML).digest("hex")}` ? YAML : UPDATES_ONLY;
  const parsed = parseDesiredState(file, "wavix.yaml");
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  try {
    await verifySavedPlan(c, parsed.state, loaded);
    await recheckSavedPlan(c, prepared);
  } catch (err) {
    if (err instanceof SavedPlanError) return { refused: err };
    throw err;
  }
  const result = await applyPlan(c, prepared, { waitSeconds: 2, pollBaseMs: 10, settleMs: 10 });
  return { ok: result.ok };
}

const writesOf = (p: HostileServer) => p.requests.filter((r) => r.method !== "GET").length;

/** Answers every GET of `path` (prefix) with `status`. */
function failing(path: string, status: number): Behaviour {
  return { before: (req) => (req.method === "GET" && req.path.startsWith(path) ? { status, body: { message: "unavailable" } } : undefined) };
}

describe("apply --plan: the recheck fails or lies", () => {
  it("the recheck fails (503 on every sub-account read): refused naming the kind and the request, nothing written, retries bounded", async () => {
    const { proxy } = await world();
    const text = await saved(proxy.url, UPDATES_ONLY);
    const before = proxy.requests.length;
    proxy.set(failing("/v1/sub-organizations", 503));
    const r = await applySaved(proxy.url, text);
    expect(r.refused?.message).toMatch(/^Error: could not read again what the plan changes, so it cannot be checked; nothing was applied:\n {2}sub_account: GET \/v1\/sub-organizations\/2001/);
    expect(writesOf(proxy)).toBe(0);
    // One GET by id, retried by the client's bound (4 retries), and one GET for the number.
    const sent = proxy.requests.slice(before);
    expect(sent.filter((q) => q.path === "/v1/sub-organizations/2001").length).toBe(5);
    expect(sent.length).toBe(6);
  });

  it("the recheck's connection drops: refused, nothing written", async () => {
    const { proxy } = await world();
    const text = await saved(proxy.url, YAML);
    proxy.set({ before: (req) => (req.method === "GET" && req.path === "/v1/calls/webhooks" ? { drop: true } : undefined) });
    const r = await applySaved(proxy.url, text);
    expect(r.refused?.items.join("\n")).toMatch(/^call_webhook: GET \/v1\/calls\/webhooks/);
    expect(writesOf(proxy)).toBe(0);
  });

  it("the re-read answers another sub-account for the id asked: refused naming the item", async () => {
    const { proxy } = await world();
    const text = await saved(proxy.url, UPDATES_ONLY);
    proxy.set({
      rewrite: (req, status, body) =>
        req.path === "/v1/sub-organizations/2001" && status === 200 ? { ...(body as object), id: 2002, name: "Legacy" } : body,
    });
    const r = await applySaved(proxy.url, text);
    expect(r.refused?.items).toEqual(['sub_account "Acme Support": the API answered sub-account id 2002 when asked for id 2001']);
    expect(writesOf(proxy)).toBe(0);
  });

  it("the re-read answers another number for the id asked: refused naming the item", async () => {
    const { proxy } = await world();
    const text = await saved(proxy.url, UPDATES_ONLY);
    proxy.set({
      rewrite: (req, status, body) => (req.path === "/v1/numbers/11" && status === 200 ? { ...(body as object), number: "15550000002" } : body),
    });
    const r = await applySaved(proxy.url, text);
    expect(r.refused?.items).toEqual(['number "15550000001": the API answered number "15550000002" (id 11) when asked for id 11']);
    expect(writesOf(proxy)).toBe(0);
  });

  it("the re-read leaves out a field the plan read: counted as changed, refused", async () => {
    const { proxy } = await world();
    const text = await saved(proxy.url, UPDATES_ONLY);
    proxy.set({
      rewrite: (req, status, body) => {
        if (req.path !== "/v1/sub-organizations/2001" || status !== 200) return body;
        const { status: _dropped, ...rest } = body as Record<string, unknown>;
        return rest;
      },
    });
    const r = await applySaved(proxy.url, text);
    expect(r.refused?.items).toEqual(['sub_account "Acme Support": status was "enabled" when planned, now absent']);
    expect(writesOf(proxy)).toBe(0);
  });

  it("the number is gone (404) when rechecked: refused naming it", async () => {
    const { proxy } = await world();
    const text = await saved(proxy.url, UPDATES_ONLY);
    proxy.set({ before: (req) => (req.method === "GET" && req.path === "/v1/numbers/11" ? { status: 404, body: { message: "Not found" } } : undefined) });
    const r = await applySaved(proxy.url, text);
    expect(r.refused?.items).toEqual(['number "15550000001": number id 11 is no longer in the account']);
    expect(writesOf(proxy)).toBe(0);
  });

  it("a lying sub-account listing while a create is rechecked: refused (incomplete listing), nothing written", async () => {
    const { proxy } = await world();
    const text = await saved(proxy.url, YAML);
    // Two sub-accounts fit one page at 100 a page: make the listing claim more than it gives.
    proxy.set({
      rewrite: (req, status, body) =>
        req.path === "/v1/sub-organizations" && status === 200
          ? { ...(body as object), pagination: { current_page: 1, per_page: 1, total: 2, total_pages: 2 }, sub_organizations: (body as { sub_organizations: unknown[] }).sub_organizations.slice(0, 1) }
          : body,
    });
    const r = await applySaved(proxy.url, text);
    expect(r.refused).toBeDefined();
    expect(r.refused!.items).toEqual([expect.stringMatching(/^sub_account: GET \/v1\/sub-organizations\?.*listing incomplete/)]);
    expect(writesOf(proxy)).toBe(0);
  });

  it("the honest control: the same saved plan through the same proxy applies", async () => {
    const { sim, proxy } = await world();
    const text = await saved(proxy.url, YAML);
    const r = await applySaved(proxy.url, text);
    expect(r).toEqual({ ok: true });
    expect([...sim.store.subAccounts.values()].filter((s) => s.data.name === "New Co").length).toBe(1);
  });

  it("through the CLI: a failing recheck exits 1 with one error per kind, no stack trace, nothing written", async () => {
    const { proxy } = await world();
    const env = { WAVIX_API_KEY: MASTER_KEY, WAVIX_BASE_URL: proxy.url, WAVIX_TIMEOUT: "2" };
    const dir = scratch();
    const file = writeYaml(dir, "wavix.yaml", YAML);
    const planFile = `${dir}/plan.json`;
    expect((await runCli(["plan", "-f", file, "--save", planFile], env)).code).toBe(0);
    proxy.set(failing("/v1/numbers", 500));
    const r = await runCli(["apply", "--plan", planFile, "-f", file, "--auto-approve"], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    // A GET answered 500 is retried (issue #27); each retry is a notice line before the one error.
    expect(r.stderr).toMatch(/^(Retrying GET [^\n]* after 500 server error[^\n]*\n)*Error: could not read again what the plan changes, so it cannot be checked; nothing was applied:\n {2}number: GET \/v1\/numbers\/11/);
    expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    expect(r.stderr).not.toContain(MASTER_KEY);
    expect(writesOf(proxy)).toBe(0);
  });
});
