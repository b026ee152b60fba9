/**
 * No write from a program with problems, on the native plugin under the real engine
 * (docs/GUARD-RAILS.md, the table's "no write from a plan with problems" column): a Pulumi YAML
 * program (test/helpers/pulumi-languages.ts) whose values pass the schema's types but not the kinds'
 * rules — an SMS endpoint that is not a URL, a callback URL that is not https — fails the preview and
 * `pulumi up` naming the resource and its property (the plugin's Check; the engine stops at the first
 * resource whose Check fails, and which of the two bad ones answers first varies from run to run, so
 * each run must name at least one, and every one it names comes with its property and reason), with zero writes and nothing in the state, also for the valid resource
 * beside it. (A value outside a schema enum is refused by
 * Pulumi YAML's type checker before the plugin sees it.)
 */
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import { languageProject, languageUnavailable } from "../helpers/pulumi-languages";
import { EngineError, RealStack, ROOT } from "../helpers/real-pulumi";

const KEY = "native-problems-key-0c9e";
const PLUGIN_DIR = path.join(ROOT, "bin");
const LONG = 300_000;
const why = languageUnavailable("yaml");
if (why) process.stdout.write(`native-plugin problem tests skipped: ${why}\n`);

const PROGRAM = `resources:
  fine:
    type: wavix:index:SubAccount
    properties:
      name: Native Problems Fine
  badSms:
    type: wavix:index:SubAccount
    properties:
      name: Native Problems Bad SMS
      defaultDestinations:
        smsEndpoint: not a url
  badUrl:
    type: wavix:index:PhoneNumber
    properties:
      number: "15551230001"
      callStatusUrl: ftp://hooks.example.com/status
`;

let sim: Simulator | undefined;
const dirs: string[] = [];
afterAll(async () => {
  await sim?.close();
});

describe.skipIf(why !== undefined)("a Pulumi YAML program with problems on the native plugin (real engine)", () => {
  it("values the kinds refuse fail the preview and up, naming the resource and property, with zero writes and no state", async () => {
    sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: KEY }] });
    const project = languageProject({ language: "yaml", program: PROGRAM, providerPaths: { wavix: PLUGIN_DIR } });
    dirs.push(project.dir);
    const stack = new RealStack({
      projectDir: project.dir,
      env: { ...project.env, WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined },
      config: { "wavix:apiKey": KEY, "wavix:baseUrl": sim.url },
      secretKeys: ["wavix:apiKey"],
    });
    const mark = sim.log.length;
    const failure = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: unknown) => e,
      );
    const preview = await failure(stack.preview());
    expect(preview).toBeInstanceOf(EngineError);
    // Everything the engine said: its diagnostics (Check's failures among them) and the CLI's output.
    const said = (e: unknown) => {
      const r = (e as EngineError).result;
      return `${r.diagnostics.map((d) => d.message).join("\n")}\n${r.programOutput}`;
    };
    // Each bad resource's error, as the plugin words it: the resource, the property, the reason.
    const FAILS: Array<[string, RegExp]> = [
      ["badSms", /resource 'badSms': property defaultDestinations.*smsEndpoint/],
      ["badUrl", /resource 'badUrl': property callStatusUrl .*expected an http\(s\) URL/],
    ];
    const namesItsFailures = (out: string) => {
      const named = FAILS.filter(([name]) => new RegExp(`resource '${name}'`).test(out));
      expect(named.length, out).toBeGreaterThan(0);
      for (const [, full] of named) expect(out).toMatch(full);
    };
    const previewOut = said(preview);
    namesItsFailures(previewOut);
    const up = await failure(stack.upWithPreview());
    expect(up).toBeInstanceOf(EngineError);
    const upOut = said(up);
    namesItsFailures(upOut);
    expect(sim.log.slice(mark).filter((e) => e.method !== "GET")).toEqual([]);
    expect([...sim.store.subAccounts.values()].filter((a) => String(a.data.name).startsWith("Native Problems"))).toEqual([]);
    expect(stack.state().filter((r) => r.custom)).toEqual([]);
    expect(previewOut + upOut).not.toContain(KEY);
    expect(previewOut).not.toMatch(/\n\s+at .+:\d+:\d+\)/);
  }, LONG);
});
