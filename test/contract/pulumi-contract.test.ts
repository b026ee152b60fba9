/**
 * The official contract as referee for the Pulumi layer: the root program run by the real Pulumi CLI
 * (`npm run pulumi:cli`; test/helpers/real-pulumi.ts) as `pulumi preview / up / up / refresh / up
 * (a change with a URL clear) / destroy`, against the strict simulator (every request checked against schemas/api/*.request.schema.json,
 * every answer against the response schemas). Zero violations after each operation, and the
 * request count per operation printed, as test/contract/cli-contract.test.ts does for the CLI.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import { RealStack, engineUnavailable, must, type OperationResult } from "../helpers/real-pulumi";
import { checkoutProject, type TempProject } from "../helpers/pulumi-project";
import { requestCounts } from "./request-counts";

const KEY = "pulumi-contract-master-key-7c2e";

let sim: Simulator | undefined;
let project: TempProject | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  project?.remove();
  project = undefined;
});

const file = (callStatusUrl: string | null, smsEnabled: boolean) => `version: 1
sub_accounts:
  - name: Contract Tenant
    status: enabled
    default_destinations:
      sms_endpoint: https://hooks.contract.example/sms
numbers:
  - number: "15551230002"
    sms_enabled: ${smsEnabled}
    call_status_url: ${callStatusUrl === null ? "null" : callStatusUrl}
    destinations:
      - { destination: support.sip.demo.example, transport: sip, priority: 1 }
call_webhooks:
  on-call: https://hooks.contract.example/on-call
audit:
  two_fa:
    sessions: [8753d4308f2e11ecb75fcdafd6d2d690]
  ten_dlc:
    brands: all
    min_vetting_score: 75
`;

const unavailable = engineUnavailable();
if (unavailable) process.stdout.write(`pulumi-contract: skipped: ${unavailable}\n`);

describe.skipIf(unavailable)("the Pulumi provider lifecycle against the strict simulator", () => {
  it("preview, up, up, refresh, up with a URL clear, destroy: zero contract violations", async () => {
    sim = await startSimulator({ port: 0, asyncDelayMs: 50, checkResponses: true, apiKeys: [{ key: KEY }] });
    project = checkoutProject({ "wavix.yaml": file("https://hooks.contract.example/status", true) });
    const stack = new RealStack({
      projectDir: project.dir,
      config: { "wavix:apiKey": KEY, "wavix:baseUrl": sim.url },
      secretKeys: ["wavix:apiKey"],
      env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined },
    });
    const report: string[] = [];
    const step = async (name: string, run: () => Promise<OperationResult>) => {
      const from = sim!.log.length;
      const result = await must(run());
      report.push(requestCounts(sim!.log, name, from).line);
      expect(sim!.violations, name).toEqual([]);
      return result;
    };

    await step("preview", () => stack.preview());
    await step("up", () => stack.up());
    expect(sim.store.numbers.get(4002)!.data.call_status_url).toBe("https://hooks.contract.example/status");
    await step("up (no change)", () => stack.up());
    await step("refresh", () => stack.refresh());
    project.write("wavix.yaml", file(null, false));
    await step("up (URL clear, sms off)", () => stack.up());
    const n = sim.store.numbers.get(4002)!.data;
    expect([n.call_status_url ?? null, n.sms_enabled]).toEqual([null, false]);
    const beforeDestroy = sim.log.length;
    await step("destroy", () => stack.destroy());
    // Disabling reads the sub-account once (the provider's read is the fresh one the PUT merges
    // onto) and once more to read the write back: no third read.
    const subReads = sim.log.slice(beforeDestroy).filter((e) => e.method === "GET" && /^\/v1\/sub-organizations\/\d+$/.test(e.path));
    expect(subReads).toHaveLength(2);
    // Deleting retains the number (onDelete: retain), disables the sub-account, deletes the webhook.
    expect(sim.store.numbers.has(4002)).toBe(true);
    expect([...sim.store.subAccounts.values()].find((s) => s.data.name === "Contract Tenant")!.data.status).toBe("disabled");

    process.stdout.write(`Request count per Pulumi operation (demo account):\n  ${report.join("\n  ")}\n`);
    expect(sim.violations).toEqual([]);
  }, 240_000);
});
