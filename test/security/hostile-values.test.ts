/**
 * Secrets and hostile text inside values (issue #14): a URL's password never shown (text plan,
 * --json, failure messages), CSV cells that a spreadsheet would run as formulas neutralised
 * (OWASP "CSV Injection"), and loopback names connected to loopback only.
 */
import { afterEach, describe, expect, it } from "vitest";
import { WavixClient } from "../../src/client";
import { resolveBaseUrl } from "../../src/client/base-url";
import { csvField } from "../../src/audit/render/csv";
import { parseDesiredState } from "../../src/config";
import { applyJson, computePlan, formatApplyResult, formatPlan, maskText, maskValue, planJson } from "../../src/plan";
import { startSimulator, type Simulator } from "../../src/simulator";
import { runCli, scratch, writeYaml } from "../helpers/cli";

const KEY = "test-key-hostile-values";
let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe("URL passwords in values", () => {
  it("maskValue hides only the password; maskText finds it anywhere", () => {
    expect(maskValue("https://admin:s3cr3t@hooks.example/x?y=1")).toBe("https://admin:***@hooks.example/x?y=1");
    expect(maskValue("https://admin@hooks.example/")).toBe("https://admin@hooks.example/");
    expect(maskValue("https://hooks.example/a:b@c")).toBe("https://hooks.example/a:b@c");
    expect(maskValue(5)).toBe(5);
    expect(maskText('refused "https://u:p4ss@h.example/" and http://v:w@x')).toBe('refused "https://u:***@h.example/" and http://v:***@x');
  });

  it("plan text and --json show *** for a password the API's value carries; the file may carry none (refused at load, issue #27)", async () => {
    sim = await startSimulator({
      port: 0,
      seed: { numbers: [{ id: 1, number: "15550000001", call_status_url: "https://old:0ldPa55@hooks.example/s" }] },
      apiKeys: [{ key: KEY }],
    });
    const refused = parseDesiredState("version: 1\nnumbers:\n  - number: \"15550000001\"\n    call_status_url: https://admin:s3cr3t@hooks.example/status\n", "w.yaml");
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused)).not.toContain("s3cr3t");
    const file = "version: 1\nnumbers:\n  - number: \"15550000001\"\n    call_status_url: https://hooks.example/status\n";
    const r = parseDesiredState(file, "w.yaml");
    if (!r.ok) throw new Error("invalid");
    const client = new WavixClient({ apiKey: KEY, baseUrl: sim.url });
    const { plan } = await computePlan(client, r.state);
    const text = formatPlan(plan, "w.yaml");
    const json = JSON.stringify(planJson(plan));
    for (const out of [text, json]) {
      expect(out).not.toContain("s3cr3t");
      expect(out).not.toContain("0ldPa55");
    }
    expect(text).toContain('"https://old:***@hooks.example/s" → "https://hooks.example/status"');
    expect(planJson(plan).changes[0].diff[0]).toEqual({
      path: "call_status_url",
      before: "https://old:***@hooks.example/s",
      after: "https://hooks.example/status",
    });
    const failed = { results: [{ kind: "number" as const, key: "1", action: "update" as const, outcome: "failed" as const, error: "bad https://a:s3cr3t@h/" }], pending: [], ok: false };
    expect(formatApplyResult(failed)).not.toContain("s3cr3t");
    expect(JSON.stringify(applyJson(plan, failed))).not.toContain("s3cr3t");
  });

  it("through the CLI: plan and plan --json refuse a URL with a password in the file, never printing it", async () => {
    sim = await startSimulator({ port: 0, seed: { numbers: [{ id: 1, number: "15550000001" }] }, apiKeys: [{ key: KEY }] });
    const dir = scratch();
    const f = writeYaml(dir, "w.yaml", "version: 1\ncall_webhooks:\n  on-call: https://admin:s3cr3t@hooks.example/on\n");
    const env = { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url };
    for (const args of [["plan", "-f", f], ["plan", "--json", "-f", f]]) {
      const run = await runCli(args, env);
      expect(run.stdout + run.stderr).not.toContain("s3cr3t");
      expect(run.code).not.toBe(0);
      expect(run.stdout + run.stderr).toContain("this URL carries a user name or password");
    }
  });
});

describe("the API key inside a value", () => {
  it("validate and plan refuse it at its position without echoing it, before any request", async () => {
    sim = await startSimulator({ port: 0, seed: { numbers: [{ id: 1, number: "15550000001" }] }, apiKeys: [{ key: KEY }] });
    const f = writeYaml(scratch(), "w.yaml", `version: 1\ncall_webhooks:\n  on-call: https://hooks.example/on?k=${KEY}\n`);
    for (const args of [["validate", "-f", f], ["plan", "-f", f]]) {
      const run = await runCli(args, { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: sim.url });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `${f}:3:12: this value contains the API key (WAVIX_API_KEY); secrets do not belong in this file, not even inside a URL: ` +
          "remove it (the value is not shown here) (at call_webhooks.on-call)\n",
      );
      expect(run.stdout + run.stderr).not.toContain(KEY);
    }
    expect(sim.log).toEqual([]);
  });
});

describe("CSV formula injection (OWASP)", () => {
  it("prefixes a quote to text starting with = + - @ tab or CR, and quotes the field", () => {
    expect(csvField("=HYPERLINK(\"http://x\",\"y\")")).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvField("+1+2")).toBe(`"'+1+2"`);
    expect(csvField("-2+3")).toBe(`"'-2+3"`);
    expect(csvField("@SUM(A1)")).toBe(`"'@SUM(A1)"`);
    expect(csvField("\t=1")).toBe(`"'\t=1"`);
    expect(csvField("\r=1")).toBe(`"'\r=1"`);
  });

  it("leaves numbers and ordinary text alone", () => {
    expect(csvField("-0.0050")).toBe("-0.0050");
    expect(csvField("+15551230001")).toBe("+15551230001");
    expect(csvField(-3)).toBe("-3");
    expect(csvField("a=b")).toBe("a=b");
  });
});

describe("loopback names", () => {
  it("a localhost name over http is connected to 127.0.0.1, never looked up", () => {
    expect(resolveBaseUrl("http://localhost:8080", {})).toBe("http://127.0.0.1:8080");
    expect(resolveBaseUrl("http://evil.localhost:8080/v", {})).toBe("http://127.0.0.1:8080/v");
    expect(resolveBaseUrl("https://api.localhost", {})).toBe("https://api.localhost");
    expect(resolveBaseUrl("http://[::1]:9", {})).toBe("http://[::1]:9");
  });

  it("a client given http://anything.localhost:PORT reaches the simulator on 127.0.0.1", async () => {
    sim = await startSimulator({ port: 0, seed: { numbers: [{ id: 1, number: "15550000001" }] }, apiKeys: [{ key: KEY }] });
    const client = new WavixClient({ apiKey: KEY, baseUrl: `http://no-such-host.example.localhost:${sim.port}` });
    const page = await client.listNumbers({});
    expect(page.items.map((n) => n.number)).toEqual(["15550000001"]);
  });
});
