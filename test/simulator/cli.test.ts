import { Command } from "commander";
import { describe, expect, test } from "vitest";
import { faultRateRules, registerSimulator } from "../../src/cli/simulator";

async function runCli(args: string[], onListening: (url: string, lines: string[]) => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const stop = new AbortController();
  let resolveUrl: (url: string) => void = () => undefined;
  const urlReady = new Promise<string>((r) => (resolveUrl = r));
  const program = new Command("wavix-sync").exitOverride();
  registerSimulator(program, {
    stop: stop.signal,
    out: (line) => {
      lines.push(line);
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (m) resolveUrl(m[1]);
    },
  });
  const running = program.parseAsync(["node", "wavix-sync", "simulator", ...args]);
  const url = await Promise.race([urlReady, running.then(() => "")]);
  try {
    await onListening(url, lines);
  } finally {
    stop.abort();
    await running;
  }
  return lines;
}

describe("wavix-sync simulator", () => {
  test("serves the demo account on loopback with the default key and stops on request", async () => {
    let status = 0;
    const lines = await runCli(["--port", "0"], async (url) => {
      const r = await fetch(`${url}/v1/numbers/4001`, { headers: { authorization: "Bearer sim-demo-key" } });
      status = r.status;
    });
    expect(status).toBe(200);
    expect(lines[0]).toMatch(/^Wavix simulator listening on http:\/\/127\.0\.0\.1:\d+ \(demo account\)$/);
    expect(lines.join("\n")).toContain("sim-demo-key");
    expect(lines[lines.length - 1]).toBe("Wavix simulator stopped.");
  });

  test("--api-key replaces the default and is never printed", async () => {
    const statuses: number[] = [];
    const lines = await runCli(["--port", "0", "--api-key", "k-one-secret", "--api-key", "k-two-secret"], async (url) => {
      for (const key of ["k-one-secret", "k-two-secret", "sim-demo-key"]) {
        statuses.push((await fetch(`${url}/v1/calls`, { headers: { authorization: `Bearer ${key}` } })).status);
      }
    });
    expect(statuses).toEqual([200, 200, 401]);
    expect(lines.join("\n")).not.toContain("secret");
  });

  test("--latency-ms delays answers", async () => {
    let elapsed = 0;
    await runCli(["--port", "0", "--latency-ms", "60"], async (url) => {
      const t = Date.now();
      await fetch(`${url}/v1/calls`, { headers: { authorization: "Bearer sim-demo-key" } });
      elapsed = Date.now() - t;
    });
    expect(elapsed).toBeGreaterThanOrEqual(55);
  });

  test("--fault-rate 1 fails every request with 503 or 429", async () => {
    const statuses = new Set<number>();
    await runCli(["--port", "0", "--fault-rate", "1"], async (url) => {
      for (let i = 0; i < 10; i++) {
        statuses.add((await fetch(`${url}/v1/calls`, { headers: { authorization: "Bearer sim-demo-key" } })).status);
      }
    });
    for (const s of statuses) expect([429, 503]).toContain(s);
  });

  test("faultRateRules keeps the total failure probability at R", () => {
    const [a, b] = faultRateRules(0.2);
    const total = a.probability! + (1 - a.probability!) * b.probability!;
    expect(total).toBeCloseTo(0.2, 10);
    expect(faultRateRules(0)).toEqual([]);
  });

  test("bad option values are refused", async () => {
    const program = new Command("wavix-sync").exitOverride().configureOutput({ writeErr: () => undefined });
    registerSimulator(program);
    await expect(program.parseAsync(["node", "w", "simulator", "--fault-rate", "2"])).rejects.toThrow(/fault-rate/);
  });
  test("--variation serves as real servers may; an unknown name is refused, listing the known ones", async () => {
    let body: Record<string, unknown> = {};
    const lines = await runCli(["--port", "0", "--variation", "empty-urls,unknown-extra-fields"], async (url) => {
      const r = await fetch(`${url}/v1/numbers/4003`, { headers: { authorization: "Bearer sim-demo-key" } });
      body = (await r.json()) as Record<string, unknown>;
    });
    expect(body).toMatchObject({ sms_relay_url: "", call_status_url: "", x_sim_extra: "number" });
    expect(lines[0]).toContain("variations: empty-urls, unknown-extra-fields");
    await expect(runCli(["--port", "0", "--variation", "sideways"], async () => undefined)).rejects.toThrow(
      /unknown variation "sideways"; known: empty-urls, bulk-without-items, .*, all/,
    );
  });

  test("--refuse-url-clears answers a URL clear with 400", async () => {
    let status = 0;
    await runCli(["--port", "0", "--refuse-url-clears"], async (url) => {
      const r = await fetch(`${url}/v1/numbers/4002`, {
        method: "PATCH",
        headers: { authorization: "Bearer sim-demo-key", "content-type": "application/json" },
        body: JSON.stringify({ call_status_url: null }),
      });
      status = r.status;
    });
    expect(status).toBe(400);
  });

  const get = async (url: string, path: string, key: string) => fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  const patch = (url: string, path: string, key: string, body: unknown) =>
    fetch(`${url}${path}`, { method: "PATCH", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });

  test("--api-key KEY:read reads everything and writes nothing; the banner says which access, never the key", async () => {
    const seen: number[] = [];
    const lines = await runCli(["--port", "0", "--api-key", "write-secret-1", "--api-key", "read-secret-2:read"], async (url) => {
      seen.push((await get(url, "/v1/numbers/4002", "read-secret-2")).status);
      seen.push((await get(url, "/v1/sub-organizations", "read-secret-2")).status);
      seen.push((await get(url, "/v1/profile", "read-secret-2")).status);
      const refused = await patch(url, "/v1/numbers/4002", "read-secret-2", { sms_enabled: false });
      seen.push(refused.status);
      expect(await refused.text()).toContain("requires scope numbers:write, which this API key lacks");
      seen.push((await patch(url, "/v1/numbers/4002", "write-secret-1", { sms_enabled: false })).status);
    });
    expect(seen).toEqual([200, 200, 200, 403, 200]);
    expect(lines[1]).toBe("Accepting 2 API key(s) given with --api-key: #1 unrestricted; #2 read-only.");
    expect(lines.join("\n")).not.toContain("secret");
  });

  test("--api-key KEY:SCOPE=LEVEL,... restricts per resource (unlisted: none); KEY@ORG is a tenant's key", async () => {
    const seen: Record<string, number> = {};
    let tenantNumbers: string[] = [];
    const lines = await runCli(["--port", "0", "--api-key", "scoped:numbers=write,calls=read", "--api-key", "tenant@2001"], async (url) => {
      seen.numbers = (await get(url, "/v1/numbers/4002", "scoped")).status;
      seen.patch = (await patch(url, "/v1/numbers/4002", "scoped", { sms_enabled: true })).status;
      seen.calls = (await get(url, "/v1/calls", "scoped")).status;
      seen.subs = (await get(url, "/v1/sub-organizations", "scoped")).status;
      const r = await get(url, "/v1/numbers?page=1&per_page=100", "tenant");
      tenantNumbers = ((await r.json()) as { items: { number: string }[] }).items.map((n) => n.number);
    });
    expect(seen).toEqual({ numbers: 200, patch: 200, calls: 200, subs: 403 });
    expect(tenantNumbers).toEqual(["15551230007"]);
    expect(lines[1]).toBe("Accepting 2 API key(s) given with --api-key: #1 restricted to numbers=write,calls=read; #2 unrestricted as organisation 2001.");
  });

  test.each([
    [["--api-key", "k:bogus"], /--api-key KEY:ACCESS takes read, write, or SCOPE=LEVEL,\.\.\. .*got "bogus"/],
    [["--api-key", "k:numbers=all"], /got "numbers=all"/],
    [["--api-key", "k@acme"], /--api-key KEY@ORG takes an organisation id \(digits\) after @, got "acme"/],
    [["--api-key", ":read"], /--api-key must not be empty/],
    [["--api-key", "k@9999"], /--api-key KEY@9999: the account has no organisation 9999 \(the master is 1000; sub-accounts: 2001, 2002\)/],
    [["--generate", "numbers=ten"], /--generate takes NAME=COUNT pairs separated by commas/],
    [["--generate", "phones=10"], /--generate takes NAME=COUNT pairs .*got "phones=10"/],
    [["--generate", "numbers=2000000"], /--generate numbers is at most 1,000,000, got 2000000/],
    [["--generate", "numbers=1,numbers_per_sub_account=2"], /numbers_per_sub_account needs sub_accounts=N/],
    [["--generate", "numbers=1", "--seed", "x.yaml"], /give --seed FILE or --generate COUNTS, not both/],
  ])("%j is refused in one sentence", async (args, message) => {
    await expect(runCli(["--port", "0", ...args], async () => undefined)).rejects.toThrow(message);
  });

  test("--generate serves a large deterministic account: paged numbers, sub-accounts with their own keys and numbers", async () => {
    let total = 0;
    let subs = 0;
    let tenant: string[] = [];
    const lines = await runCli(["--port", "0", "--generate", "numbers=250,sub_accounts=3,numbers_per_sub_account=2,seed=7"], async (url) => {
      total = ((await (await get(url, "/v1/numbers?page=1&per_page=100", "sim-demo-key")).json()) as { pagination: { total: number } }).pagination.total;
      subs = ((await (await get(url, "/v1/sub-organizations?page=1&per_page=100", "sim-demo-key")).json()) as { sub_organizations: unknown[] }).sub_organizations.length;
      const r = await get(url, "/v1/numbers?page=1&per_page=100", "sim-sub-key-0002");
      tenant = ((await r.json()) as { items: { number: string }[] }).items.map((n) => n.number);
    });
    expect(lines[0]).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ \(generated account: 250 numbers, 3 sub-accounts owning 2 numbers each\)$/);
    expect([total, subs]).toEqual([250, 3]);
    expect(tenant).toEqual(["15560002001", "15560002002"]);
  });
});
