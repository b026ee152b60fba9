/**
 * The native provider plugin under the real engine from Python, Go and TypeScript programs, each
 * through its SDK checked in under sdk/ (generated from the package schema), each finding the
 * plugin another way a user installs it (docs/PULUMI.md, "Install"):
 *  - Python: Pulumi's plugin cache, `pulumi plugin install resource wavix VERSION --file
 *    node_modules/wavix-sync/bin`, the SDK asking for the plugin at its own version;
 *  - TypeScript: the package installed globally, its bin `pulumi-resource-wavix` on PATH (the
 *    layout `npm install -g` makes); and `pulumi import --out index.ts` of every kind, the code
 *    pasted, compiled and planning no change;
 *  - Go: `plugins.providers[].path` in Pulumi.yaml, relative to the project (what suits CI).
 * Each program makes a SIP trunk with a password from secret config, gives a number a destination
 * made of the trunk's login (an output), sets a webhook and calls a data source; then a no-change preview and a destroy. Secrets are in
 * no checkpoint, `stack export` or output.
 *
 * Skipped, saying why, only where `npm run pulumi:cli` has not run (or PyPI could not be reached
 * for the Python environment); never under CI=true.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import { languageProject, languageUnavailable, type Language, type LanguageProjectOptions } from "../helpers/pulumi-languages";
import { RealStack, ROOT, must } from "../helpers/real-pulumi";

const SDK = path.join(ROOT, "sdk");
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const LONG = 900_000;

const PROGRAMS: Record<Exclude<Language, "yaml">, string> = {
  python: `import pulumi
import pulumi_wavix as wavix

config = pulumi.Config()
trunk = wavix.SipTrunk("trunk", label="lang-pbx", password=config.require_secret("trunkPassword"), callerid="15551230001")
num = wavix.PhoneNumber("num", number="15551230003", sms_enabled=True,
    destinations=[wavix.DestinationArgs(destination=trunk.login.apply(lambda login: f"{login}@pbx.lang.example"), transport=wavix.Transport.SIP, priority=1)])
hook = wavix.CallWebhook("hook", event_type=wavix.CallWebhookEventType.ON_CALL, url="https://hooks.lang.example/on-call")
vettings = wavix.get_brand_vettings_output(brands=["B6AI7PA"])
pulumi.export("login", trunk.login)
pulumi.export("token", trunk.access_token)
pulumi.export("score", vettings.brands[0].effective_score)
`,
  go: `package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
	"wavix-sync/sdk/go/wavix"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		trunk, err := wavix.NewSipTrunk(ctx, "trunk", &wavix.SipTrunkArgs{Label: pulumi.String("lang-pbx"), Password: cfg.RequireSecret("trunkPassword"), Callerid: pulumi.String("15551230001")})
		if err != nil {
			return err
		}
		_, err = wavix.NewPhoneNumber(ctx, "num", &wavix.PhoneNumberArgs{
			Number:       pulumi.String("15551230003"),
			SmsEnabled:   pulumi.Bool(true),
			Destinations: wavix.DestinationArray{wavix.DestinationArgs{Destination: pulumi.Sprintf("%s@pbx.lang.example", trunk.Login), Transport: pulumi.String("sip"), Priority: pulumi.Int(1)}},
		})
		if err != nil {
			return err
		}
		_, err = wavix.NewCallWebhook(ctx, "hook", &wavix.CallWebhookArgs{EventType: wavix.CallWebhookEventTypeOnCall, Url: pulumi.String("https://hooks.lang.example/on-call")})
		if err != nil {
			return err
		}
		vettings := wavix.GetBrandVettingsOutput(ctx, wavix.GetBrandVettingsOutputArgs{Brands: pulumi.ToStringArray([]string{"B6AI7PA"})})
		ctx.Export("login", trunk.Login)
		ctx.Export("token", trunk.AccessToken)
		ctx.Export("score", vettings.Brands().Index(pulumi.Int(0)).EffectiveScore())
		return nil
	})
}
`,
  typescript: `import * as pulumi from "@pulumi/pulumi";
import * as wavix from "@wavix-sync/pulumi-wavix";

const config = new pulumi.Config();
const trunk = new wavix.SipTrunk("trunk", { label: "lang-pbx", password: config.requireSecret("trunkPassword"), callerid: "15551230001" });
new wavix.PhoneNumber("num", {
  number: "15551230003",
  smsEnabled: true,
  destinations: [{ destination: pulumi.interpolate\`\${trunk.login}@pbx.lang.example\`, transport: wavix.Transport.Sip, priority: 1 }],
});
new wavix.CallWebhook("hook", { eventType: wavix.CallWebhookEventType.OnCall, url: "https://hooks.lang.example/on-call" });
const vettings = wavix.getBrandVettingsOutput({ brands: ["B6AI7PA"] });
export const login = trunk.login;
export const token = trunk.accessToken;
export const score = vettings.brands[0].effectiveScore;
`,
};

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** What `npm install -g wavix-sync @pulumi/pulumi` lays out: PREFIX/lib/node_modules/wavix-sync, PREFIX/bin/<its bins>. */
function globalInstall(): string {
  const prefix = mkdtempSync(path.join(tmpdir(), "wavix-global-"));
  made.push(prefix);
  mkdirSync(path.join(prefix, "lib", "node_modules"), { recursive: true });
  mkdirSync(path.join(prefix, "bin"));
  symlinkSync(ROOT, path.join(prefix, "lib", "node_modules", "wavix-sync"), "dir");
  symlinkSync(path.join("..", "lib", "node_modules", "wavix-sync", "bin", "pulumi-resource-wavix"), path.join(prefix, "bin", "pulumi-resource-wavix"));
  return path.join(prefix, "bin");
}

/** A project folder that installed wavix-sync (node_modules/wavix-sync, as npm leaves it), for the plugin cache's launcher. */
function withPackage(dir: string): void {
  mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  symlinkSync(ROOT, path.join(dir, "node_modules", "wavix-sync"), "dir");
}

async function runLanguage(language: Exclude<Language, "yaml">, install: "plugin-cache" | "path" | "providers-path"): Promise<{ sim: Simulator; stack: RealStack; dir: string; secrets: () => string[] }> {
  const apiKey = `lang-key-${randomBytes(6).toString("hex")}`;
  const sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: apiKey }] });
  const options: LanguageProjectOptions = { language, program: PROGRAMS[language], sdkDir: SDK };
  if (install === "path") options.pathDirs = [globalInstall()];
  const project = languageProject(options);
  made.push(project.dir);
  if (install === "providers-path") {
    // Relative to the project folder, as a project committed to git names it.
    withPackage(project.dir);
    const yaml = readFileSync(path.join(project.dir, "Pulumi.yaml"), "utf8");
    writeFileSync(path.join(project.dir, "Pulumi.yaml"), `${yaml}plugins:\n  providers:\n    - name: wavix\n      path: ./node_modules/wavix-sync/bin\n`);
  }
  if (install === "plugin-cache") withPackage(project.dir);
  const password = `Pw-${randomBytes(9).toString("hex")}`;
  const stack = new RealStack({
    projectDir: project.dir,
    env: { ...project.env, WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined },
    config: { trunkPassword: password, "wavix:apiKey": apiKey, "wavix:baseUrl": sim.url },
    secretKeys: ["trunkPassword", "wavix:apiKey"],
  });
  if (install === "plugin-cache") {
    const r = await stack.command(["plugin", "install", "resource", "wavix", VERSION, "--file", path.join(project.dir, "node_modules", "wavix-sync", "bin")]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const ls = await stack.command(["plugin", "ls"]);
    expect(ls.stdout).toMatch(new RegExp(`wavix\\s+resource\\s+${VERSION.replace(/\./g, "\\.")}`));
  }
  const secrets = () => {
    const out = [apiKey, password];
    for (const s of sim.store.subAccounts.values()) if (s.data.api_key) out.push(s.data.api_key);
    for (const t of sim.store.trunks.values()) {
      if (t.data.access_token) out.push(t.data.access_token);
      out.push(t.password);
    }
    return out;
  };
  return { sim, stack, dir: project.dir, secrets };
}

const CASES: Array<[Exclude<Language, "yaml">, "plugin-cache" | "path" | "providers-path"]> = [
  ["python", "plugin-cache"],
  ["typescript", "path"],
  ["go", "providers-path"],
];

describe.each(CASES)("a %s program on the native provider (plugin found by %s)", (language, install) => {
  const why = languageUnavailable(language);
  it.skipIf(why !== undefined)(`up, a no-change preview, destroy; secrets in no state, export or output${why ? ` — skipped: ${why}` : ""}`, { timeout: LONG }, async () => {
    const { sim, stack, secrets } = await runLanguage(language, install);
    try {
      const writes = (from: number) => sim.log.slice(from).filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);
      const up = await must(stack.up());
      expect(stack.state().filter((r) => r.custom).map((r) => r.type).sort()).toEqual(["wavix:index:CallWebhook", "wavix:index:PhoneNumber", "wavix:index:SipTrunk"]);
      const trunk = [...sim.store.trunks.values()].find((t) => t.data.label === "lang-pbx")!;
      expect(trunk.password).toBe(secrets()[1]);
      const num = [...sim.store.numbers.values()].find((n) => n.data.number === "15551230003")!;
      // The number takes its SIP destination from the trunk's login, an output of the trunk made in this run.
      expect(num.data.destination?.map((d) => [d.destination, Number(d.transport)])).toEqual([[`${trunk.data.name}@pbx.lang.example`, 1]]);
      expect(up.outputs.login).toBe(trunk.data.name);
      expect(up.secretOutputs).toContain("token");
      expect(up.outputs.score).toEqual(expect.any(Number));
      const mark = sim.log.length;
      const preview = await must(stack.preview({ expectNoChanges: true }));
      expect(preview.steps.filter((s) => s.op !== "same")).toEqual([]);
      expect(writes(mark)).toEqual([]);
      const exported = await stack.exportText();
      for (const [label, text] of [["checkpoint", stack.checkpointText()], ["export", exported], ["up", up.programOutput], ["preview", preview.programOutput]]) {
        for (const s of secrets()) expect(text.includes(s), `${label} holds a secret`).toBe(false);
      }
      await must(stack.destroy());
      expect([...sim.store.trunks.values()].some((t) => t.data.label === "lang-pbx")).toBe(false);
      expect(sim.store.numbers.has(num.data.id)).toBe(true);
    } finally {
      await sim.close();
    }
  });
});

describe("pulumi import into a TypeScript program", () => {
  const why = languageUnavailable("typescript");
  it.skipIf(why !== undefined)(`generates code for every kind that, pasted and compiled, plans no change; no write${why ? ` — skipped: ${why}` : ""}`, { timeout: LONG }, async () => {
    const { sim, stack, dir } = await runLanguage("typescript", "path");
    try {
      // No up first: `pulumi import` does not run the program and makes the stack's root itself;
      // the stack and its config only need to exist.
      await stack.init();
      const file = path.join(dir, "import.json");
      const resources = [
        ["PhoneNumber", "n1", "15551230001"],
        ["PhoneNumber", "n7", "2001/15551230007"],
        ["SubAccount", "support", "Acme Support"],
        ["SubAccount", "legacy", "id:2002"],
        ["SipTrunk", "pbx", "acme-pbx"],
        ["CallWebhook", "postCall", "post-call"],
        ["SenderId", "acme", "ACME"],
        ["TenDlcCampaignNumber", "link", "B6AI7PA/CSIM001/15551230003"],
        ["AccountCallbacks", "callbacks", "profile"],
      ];
      writeFileSync(file, JSON.stringify({ resources: resources.map(([t, name, id]) => ({ type: `wavix:index:${t}`, name, id })) }));
      const mark = sim.log.length;
      const r = await stack.cli(["import", "--file", file, "--yes", "--out", path.join(dir, "index.ts")]);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(sim.log.slice(mark).filter((e) => e.method !== "GET")).toEqual([]);
      const code = readFileSync(path.join(dir, "index.ts"), "utf8");
      expect(code).toContain('import * as wavix from "@wavix-sync/pulumi-wavix"');
      expect(code).toContain("new wavix.SipTrunk(");
      tsc(dir);
      const again = sim.log.length;
      const preview = await must(stack.preview({ expectNoChanges: true }));
      expect(preview.steps.filter((s) => s.op !== "same")).toEqual([]);
      expect(sim.log.slice(again).filter((e) => e.method !== "GET")).toEqual([]);
    } finally {
      await sim.close();
    }
  });
});

/** Compiles the project's index.ts (the TypeScript project of test/helpers/pulumi-languages.ts). */
function tsc(dir: string): void {
  const r = spawnSync(process.execPath, [path.join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { cwd: dir, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`tsc failed:\n${r.stdout}${r.stderr}`);
}
