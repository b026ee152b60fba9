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
});
