/**
 * The native provider plugin `pulumi-resource-wavix` under the real engine, from a Pulumi YAML
 * program (no SDK: Pulumi YAML reads the package schema from the plugin), against the simulator in
 * this process: every kind and a data source, through the whole life of a stack — up (creates and
 * adoptions), a no-change preview and up, refresh, replacements, destroy — and `pulumi import` of
 * every kind, whose generated code, pasted into the program, plans no change. Secrets (the API key,
 * a trunk's password and access token, sub-accounts' keys) are never in the checkpoint,
 * `pulumi stack export`, nor in what the CLI prints, normal, `--diff`, `--json` or `--debug`.
 *
 * Skipped, saying why, only where `npm run pulumi:cli` has not run; never under CI=true.
 */
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import { languageProject, languageUnavailable } from "../helpers/pulumi-languages";
import { RealStack, ROOT, must } from "../helpers/real-pulumi";

const KEY = `native-yaml-key-${randomBytes(6).toString("hex")}`;
const TRUNK_PASSWORD = `Pw-${randomBytes(9).toString("hex")}`;
const PLUGIN_DIR = path.join(ROOT, "bin");
const LONG = 600_000;

/** Every kind once, and a data source. The trunk is created (its password from secret config), the number routed to it. */
const PROGRAM = `config:
  trunkPassword:
    type: string
    secret: true
resources:
  team:
    type: wavix:index:SubAccount
    properties:
      name: Native Team
      status: enabled
      defaultDestinations:
        smsEndpoint: https://hooks.native.example/sms
  support:
    type: wavix:index:SubAccount
    properties:
      name: Acme Support
  trunk:
    type: wavix:index:SipTrunk
    properties:
      label: native-pbx
      password: \${trunkPassword}
      callerid: "15551230001"
      ipRestrict: true
      allowedIps: [203.0.113.20]
  routed:
    type: wavix:index:PhoneNumber
    properties:
      number: "15551230002"
      smsEnabled: true
      destinations:
        - destination: \${trunk.login}
          transport: trunk
          priority: 1
          trunkId: \${trunk.trunkId}
  postCall:
    type: wavix:index:CallWebhook
    properties:
      eventType: post-call
      url: https://hooks.native.example/post-call
  sender:
    type: wavix:index:SenderId
    properties:
      senderId: NATIVE
      type: alphanumeric
      countries: [GB]
      usecase: transactional
      replace: true
  link:
    type: wavix:index:TenDlcCampaignNumber
    properties:
      brandId: B6AI7PA
      campaignId: CSIM001
      number: "15551230004"
  callbacks:
    type: wavix:index:AccountCallbacks
    properties:
      smsRelayUrl: https://hooks.native.example/account-sms
      dlrRelayUrl: https://hooks.native.example/account-dlr
variables:
  vettings:
    fn::invoke:
      function: wavix:index:getBrandVettings
      arguments:
        brands: [B6AI7PA]
outputs:
  teamKey: \${team.apiKey}
  trunkToken: \${trunk.accessToken}
  trunkLogin: \${trunk.login}
  routedId: \${routed.wavixId}
  brandScore: \${vettings.brands[0].effectiveScore}
`;

let sim: Simulator;
const made: string[] = [];
const writes = (from: number): string[] => sim.log.slice(from).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);

/** Every secret the run may have touched: the key, the password, every sub-account key and trunk token the simulator holds. */
function secrets(): string[] {
  const out = [KEY, TRUNK_PASSWORD];
  for (const s of sim.store.subAccounts.values()) if (s.data.api_key) out.push(s.data.api_key);
  for (const t of sim.store.trunks.values()) {
    if (t.data.access_token) out.push(t.data.access_token);
    out.push(t.password);
  }
  return out;
}

function expectNoSecret(label: string, text: string): void {
  for (const s of secrets()) expect(text.includes(s), `${label} holds a secret (${s.slice(0, 4)}…)`).toBe(false);
}

const why = languageUnavailable("yaml");

describe.skipIf(why !== undefined)(`a Pulumi YAML program on the native provider${why ? ` — skipped: ${why}` : ""}`, () => {
  let stack: RealStack;
  let dir: string;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }] });
    const project = languageProject({ language: "yaml", program: PROGRAM, providerPaths: { wavix: PLUGIN_DIR } });
    dir = project.dir;
    made.push(dir);
    stack = new RealStack({
      projectDir: dir,
      env: { ...project.env, WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined },
      config: { trunkPassword: TRUNK_PASSWORD, "wavix:apiKey": KEY, "wavix:baseUrl": sim.url },
      secretKeys: ["trunkPassword", "wavix:apiKey"],
    });
  });

  afterAll(async () => {
    await sim?.close();
    for (const d of made) rmSync(d, { recursive: true, force: true });
  });

  it("up creates what is missing and adopts what exists, every kind through the plugin; the function runs too", { timeout: LONG }, async () => {
    const mark = sim.log.length;
    const up = await must(stack.up());
    const types = stack.state().map((r) => r.type);
    for (const t of ["SubAccount", "SipTrunk", "PhoneNumber", "CallWebhook", "SenderId", "TenDlcCampaignNumber", "AccountCallbacks"]) expect(types).toContain(`wavix:index:${t}`);
    const w = writes(mark);
    expect(w.filter((x) => x === "POST /v1/sub-organizations")).toHaveLength(1); // Native Team; Acme Support adopted
    expect(w).toContain("POST /v1/trunks");
    expect(w.some((x) => x.startsWith("PATCH /v1/numbers/"))).toBe(true);
    expect(w).toContain("POST /v1/calls/webhooks");
    expect(w).toContain("POST /v3/messages/sender-ids");
    expect(w).toContain("POST /v3/10dlc/brands/B6AI7PA/campaigns/CSIM001/numbers/15551230004");
    expect(w).toContain("PUT /v1/profile");
    expect(w.filter((x) => x.startsWith("DELETE"))).toEqual([]);
    // The number routes to the trunk made in this run, by its login and id.
    const trunk = [...sim.store.trunks.values()].find((t) => t.data.label === "native-pbx")!;
    const num = [...sim.store.numbers.values()].find((n) => n.data.number === "15551230002")!;
    expect(num.data.destination?.map((d) => [d.destination, Number(d.transport), d.trunk_id])).toEqual([[trunk.data.name, 5, trunk.data.id]]);
    // The trunk got the password of the secret config; outputs that are secrets stay secret.
    expect(trunk.password).toBe(TRUNK_PASSWORD);
    expect(up.secretOutputs.sort()).toEqual(["teamKey", "trunkToken"]);
    expect(up.outputs.trunkLogin).toBe(trunk.data.name);
    expect(up.outputs.brandScore).toEqual(expect.any(Number));
    // The provider received the API key as a secret and never wrote it anywhere.
    expectNoSecret("the checkpoint", stack.checkpointText());
    expectNoSecret("up's output", up.programOutput);
  });

  it("a no-change preview, and a no-change up, send no write", { timeout: LONG }, async () => {
    const mark = sim.log.length;
    const preview = await must(stack.preview({ expectNoChanges: true }));
    expect(preview.steps.filter((s) => s.op !== "same")).toEqual([]);
    const up = await must(stack.up());
    expect(up.steps.filter((s) => s.op !== "same")).toEqual([]);
    expect(writes(mark)).toEqual([]);
  });

  it("secrets are never in state, stack export, or the CLI's output: normal, --diff, --json, --debug", { timeout: LONG }, async () => {
    // A change, so that --diff and --json have something to show for the trunk and the sub-account.
    writeFileSync(path.join(dir, "Pulumi.yaml"), readFileSync(path.join(dir, "Pulumi.yaml"), "utf8").replace("allowedIps: [203.0.113.20]", "allowedIps: [203.0.113.20, 203.0.113.21]"));
    const outputs: Array<[string, string]> = [];
    // The `up --diff` skips its preview: it would be the `preview --diff` just above (same state,
    // same program), whose output is scanned; the up's own output is scanned too.
    for (const args of [["preview"], ["preview", "--diff"], ["preview", "--json"], ["preview", "--debug"], ["up", "--yes", "--skip-preview", "--diff"], ["up", "--yes", "--json", "--skip-preview"]]) {
      const r = await stack.cli(args);
      expect(r.code, `pulumi ${args.join(" ")}: ${r.stderr}`).toBe(0);
      outputs.push([`pulumi ${args.join(" ")}`, r.stdout + r.stderr]);
    }
    // --diff shows the change as an update of one property, nothing replaced.
    expect(outputs[1][1]).toMatch(/~ wavix:index:SipTrunk: \(update\)/);
    expect(outputs[1][1]).toMatch(/allowedIps/);
    for (const [label, text] of outputs) expectNoSecret(label, text);
    const exported = await stack.exportText();
    expect(exported).toContain("wavix:index:SipTrunk");
    expectNoSecret("pulumi stack export", exported);
    expectNoSecret("the checkpoint", stack.checkpointText());
    const outs = await stack.cli(["stack", "output", "--json"]);
    expectNoSecret("pulumi stack output", outs.stdout);
  });

  it("refresh costs the listing's pages and one read per other resource, and leaves nothing to change", { timeout: LONG }, async () => {
    const mark = sim.log.length;
    const refresh = await must(stack.refresh());
    expect(refresh.steps.filter((s) => s.op === "refresh").length).toBeGreaterThan(0);
    expect(writes(mark)).toEqual([]);
    const reads = sim.log.length - mark;
    const resources = stack.state().length;
    // One number (a GET), the rest one or two reads each (a trunk: its record; a sub-account: its record), and the pin-less profile GETs.
    expect(reads).toBeLessThanOrEqual(resources * 2 + 2);
    const preview = await must(stack.preview({ expectNoChanges: true }));
    expect(preview.steps.filter((s) => s.op !== "same")).toEqual([]);
  });

  it("`up --replace` of the sub-account, trunk and number adopts the same objects; their old halves disable, delete and release nothing", { timeout: LONG }, async () => {
    const urns = stack
      .state()
      .filter((r) => ["team", "trunk", "routed"].includes(r.urn.split("::").pop()!))
      .map((r) => r.urn);
    expect(urns).toHaveLength(3);
    const mark = sim.log.length;
    const r = await stack.cli(["up", "--yes", "--skip-preview", ...urns.flatMap((u) => ["--replace", u])]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const w = writes(mark);
    expect(w.filter((x) => x.startsWith("DELETE") || x.startsWith("POST"))).toEqual([]);
    const team = [...sim.store.subAccounts.values()].find((s) => s.data.name === "Native Team")!;
    expect(team.data.status).toBe("enabled");
    expect([...sim.store.trunks.values()].some((t) => t.data.label === "native-pbx")).toBe(true);
    expect(r.stdout + r.stderr).toMatch(/not (disabled|deleted)/);
  });

  it("a changed identity replaces: a Sender ID is deleted before it is made again (the API has no update, two cannot share a name)", { timeout: LONG }, async () => {
    writeFileSync(path.join(dir, "Pulumi.yaml"), readFileSync(path.join(dir, "Pulumi.yaml"), "utf8").replace("countries: [GB]", "countries: [GB, FR]"));
    const preview = await stack.cli(["preview", "--diff"]);
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout).toMatch(/\+-\s*wavix:index:SenderId: \(replace\)/);
    expect(preview.stdout).toMatch(/countries/);
    const mark = sim.log.length;
    await must(stack.up());
    const w = writes(mark);
    const del = w.findIndex((x) => x.startsWith("DELETE /v3/messages/sender-ids/"));
    const post = w.indexOf("POST /v3/messages/sender-ids");
    expect(del).toBeGreaterThanOrEqual(0);
    expect(post).toBeGreaterThan(del);
    const sender = [...sim.store.messaging.senderIds.values()].filter((s) => s.sender_id === "NATIVE");
    expect(sender.map((s) => [...(s.allowlisted_in ?? [])].sort())).toEqual([["FR", "GB"]]);
  });

  it("destroy deletes what the stack made and releases no number", { timeout: LONG }, async () => {
    // A trunk is never deleted while a number routes to it: the number is routed elsewhere first.
    writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      readFileSync(path.join(dir, "Pulumi.yaml"), "utf8").replace(
        /        - destination: \$\{trunk.login\}\n          transport: trunk\n          priority: 1\n          trunkId: \$\{trunk.trunkId\}\n/,
        "        - destination: sip.native.example\n          transport: sip\n          priority: 1\n",
      ).replace(
        // `up --replace` above had the trunk's replacement find it in place (adopted): say it goes.
        "      label: native-pbx\n",
        "      label: native-pbx\n      onDelete: delete\n",
      ),
    );
    await must(stack.up());
    const numbersBefore = sim.store.numbers.size;
    const mark = sim.log.length;
    await must(stack.destroy());
    expect(stack.state()).toEqual([]);
    const w = writes(mark);
    // Deleted: the trunk (onDelete: delete) and the Sender ID the stack made, never a number; the
    // post-call webhook was in the account before (adopted), so it is left as it is.
    expect(w.filter((x) => x.startsWith("DELETE /v1/numbers"))).toEqual([]);
    expect(sim.store.numbers.size).toBe(numbersBefore);
    expect([...sim.store.trunks.values()].some((t) => t.data.label === "native-pbx")).toBe(false);
    expect([...sim.store.messaging.senderIds.values()].some((s) => s.sender_id === "NATIVE")).toBe(false);
    expect(sim.store.callWebhooks.get(sim.store.masterId)?.has("post-call")).toBe(true);
    expect(w.filter((x) => x.startsWith("DELETE /v1/calls/webhooks"))).toEqual([]);
  });
});

describe.skipIf(why !== undefined)(`pulumi import of every kind into a Pulumi YAML program${why ? ` — skipped: ${why}` : ""}`, () => {
  it("reads each by its documented id, sends no write, and the code it generates plans no change once pasted", { timeout: LONG }, async () => {
    sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }] });
    try {
      const project = languageProject({ language: "yaml", program: "resources: {}\n", providerPaths: { wavix: PLUGIN_DIR } });
      made.push(project.dir);
      const stack = new RealStack({
        projectDir: project.dir,
        env: { ...project.env, WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined },
        config: { "wavix:apiKey": KEY, "wavix:baseUrl": sim.url },
        secretKeys: ["wavix:apiKey"],
      });
      await must(stack.up());
      const ids = {
        PhoneNumber: ["n1", "+15551230001"],
        tenantNumber: ["n7", "2001/15551230007"],
        SubAccount: ["support", "Acme Support"],
        pinnedSubAccount: ["legacy", "id:2002"],
        SipTrunk: ["pbx", "acme-pbx"],
        CallWebhook: ["postCall", "post-call"],
        SenderId: ["acme", "ACME"],
        TenDlcCampaignNumber: ["link", "B6AI7PA/CSIM001/15551230003"],
        AccountCallbacks: ["callbacks", "profile"],
      };
      const typeOf = (k: string) => (k === "tenantNumber" ? "PhoneNumber" : k === "pinnedSubAccount" ? "SubAccount" : k);
      const file = path.join(project.dir, "import.json");
      writeFileSync(file, JSON.stringify({ resources: Object.entries(ids).map(([k, [name, id]]) => ({ type: `wavix:index:${typeOf(k)}`, name, id })) }));
      const mark = sim.log.length;
      const out = path.join(project.dir, "imported.yaml");
      const r = await stack.cli(["import", "--file", file, "--yes", "--out", out]);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(writes(mark)).toEqual([]);
      const state = stack.state().filter((s) => s.custom);
      expect(state.map((s) => s.urn.split("::").pop()).sort()).toEqual(Object.values(ids).map(([n]) => n).sort());
      // State ids are the resources' own (Wavix ids), whatever the import id was.
      const byName = (n: string) => state.find((s) => s.urn.endsWith(`::${n}`))!;
      expect(byName("n1").id).toBe("4001");
      expect(byName("n1").inputs.number).toBe("15551230001");
      expect(byName("n7").inputs.subAccountId).toBe(2001);
      expect(byName("support").id).toBe("2001");
      expect(byName("legacy").inputs.subAccountId).toBe(2002);
      expect(byName("pbx").id).toBe("144");
      expect(byName("link").id).toBe("B6AI7PA/CSIM001/15551230003");
      // The code reproduces each object: pasted into the program, it plans no change and sends nothing.
      const code = readFileSync(out, "utf8");
      expect(code).toContain("wavix:PhoneNumber");
      writeFileSync(path.join(project.dir, "Pulumi.yaml"), readFileSync(path.join(project.dir, "Pulumi.yaml"), "utf8").replace("resources: {}\n", code));
      const again = sim.log.length;
      const preview = await must(stack.preview({ expectNoChanges: true }));
      expect(preview.steps.filter((s) => s.op !== "same")).toEqual([]);
      const up = await must(stack.up());
      expect(up.steps.filter((s) => s.op !== "same")).toEqual([]);
      expect(writes(again)).toEqual([]);
      expectNoSecret("the checkpoint", stack.checkpointText());
      // Destroyed (once unprotected: the engine protects what `pulumi import` brought in), every imported
      // object is left as it was, each warning saying the stack adopted it — never that the state was
      // written by a wavix-sync that did not record its origin.
      expect((await stack.cli(["state", "unprotect", "--all", "--yes"])).code).toBe(0);
      const destroyed = await must(stack.destroy());
      const said = destroyed.diagnostics.map((d) => d.message).join("\n") + destroyed.programOutput;
      expect(said).not.toMatch(/did not record/);
      // Each kind whose delete would act (delete, disable, unlink) says it adopted the object; numbers are
      // kept by default (never released) and the callbacks cannot be unset, each as its own kind says.
      const adopted = destroyed.diagnostics.filter((d) => /this stack adopted it/.test(d.message)).map((d) => d.urn.split("::").pop());
      expect([...new Set(adopted)].sort()).toEqual(["acme", "legacy", "link", "pbx", "postCall", "support"]);
      expect(writes(again)).toEqual([]);
    } finally {
      await sim.close();
    }
  });

  it("names the id a kind takes when given another, and says when nothing has it", { timeout: LONG }, async () => {
    sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }] });
    try {
      const project = languageProject({ language: "yaml", program: "resources: {}\n", providerPaths: { wavix: PLUGIN_DIR } });
      made.push(project.dir);
      const stack = new RealStack({
        projectDir: project.dir,
        env: { ...project.env, WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined },
        config: { "wavix:apiKey": KEY, "wavix:baseUrl": sim.url },
        secretKeys: ["wavix:apiKey"],
      });
      await must(stack.up());
      const bad = await stack.cli(["import", "wavix:index:CallWebhook", "hook", "on-hold", "--yes"]);
      expect(bad.code).not.toBe(0);
      expect(bad.stdout + bad.stderr).toMatch(/imported by its event type \(on-call or post-call\)/);
      expect(bad.stdout + bad.stderr).not.toMatch(/\n\s+at /);
      const missing = await stack.cli(["import", "wavix:index:PhoneNumber", "gone", "19999999999", "--yes"]);
      expect(missing.code).not.toBe(0);
      expect(missing.stdout + missing.stderr).toMatch(/does not exist/);
      expect(stack.state().filter((s) => s.custom)).toEqual([]);
    } finally {
      await sim.close();
    }
  });
});

describe.skipIf(why !== undefined)(`the native provider's config errors${why ? ` — skipped: ${why}` : ""}`, () => {
  const PROGRAM_ONE = `resources:
  n1:
    type: wavix:index:PhoneNumber
    properties:
      number: "15551230001"
      smsEnabled: false
`;

  /** The Diagnostics section of what the CLI printed: each error the engine reports, once. */
  const diagnostics = (text: string): string => text.slice(text.indexOf("Diagnostics:"));

  it("no API key, a bad base URL, another account: each an error naming its wavix: setting, once, without a stack trace, nothing written", { timeout: LONG }, async () => {
    sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }] });
    try {
      const run = async (config: Record<string, string>, secretKeys: string[]) => {
        const project = languageProject({ language: "yaml", program: PROGRAM_ONE, providerPaths: { wavix: PLUGIN_DIR } });
        made.push(project.dir);
        const stack = new RealStack({ projectDir: project.dir, env: { ...project.env, WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined }, config, secretKeys });
        const mark = sim.log.length;
        const r = await stack.up().then(
          () => undefined,
          (e: { result?: { programOutput: string } }) => e.result?.programOutput ?? String(e),
        );
        if (r === undefined) throw new Error("up succeeded");
        expect(r, "a stack trace").not.toMatch(/\n\s+at [\w.<>]+ \(/);
        return { text: diagnostics(r), requests: sim.log.slice(mark) };
      };

      const noKey = await run({ "wavix:baseUrl": sim.url }, []);
      expect(noKey.text).toContain("pulumi config set --secret wavix:apiKey");
      expect(noKey.text.split("wavix:apiKey").length - 1).toBe(1);
      expect(noKey.requests).toEqual([]);

      const badUrl = await run({ "wavix:apiKey": KEY, "wavix:baseUrl": "http://api.example.com" }, ["wavix:apiKey"]);
      expect(badUrl.text).toMatch(/wavix:baseUrl: .*plain http:\/\/ is only allowed to a loopback host/);
      expect(badUrl.requests).toEqual([]);

      const otherAccount = await run({ "wavix:apiKey": KEY, "wavix:baseUrl": sim.url, "wavix:accountId": "999" }, ["wavix:apiKey"]);
      expect(otherAccount.text).toMatch(/belongs to account 1000, but wavix:accountId pins account 999/);
      expect(otherAccount.requests.map((e) => `${e.method} ${e.path}`)).toEqual(["GET /v1/profile"]);
      expectNoSecret("the errors", noKey.text + badUrl.text + otherAccount.text);
    } finally {
      await sim.close();
    }
  });
});
