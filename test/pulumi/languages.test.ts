/**
 * The SDK generator of the language tooling (`npm run sdk`, docs/PULUMI-TOOLING.md) on a
 * hand-written fixture schema (test/fixtures/native-provider/schema.json): it regenerates the
 * checked-in fixture SDKs byte for byte and stamps the version it is given. Programs in each
 * language run under the real engine against the real plugin in test/pulumi/native-yaml.test.ts
 * and test/pulumi/native-languages.test.ts.
 *
 * Skipped, saying why, only without a Go toolchain; never under CI=true.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateSdks, sdkGeneratorUnavailable } from "../helpers/pulumi-languages";

const FIXTURE = path.resolve(__dirname, "..", "fixtures", "native-provider");
const SCHEMA = path.join(FIXTURE, "schema.json");
const SDK = path.join(FIXTURE, "sdk");

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Every file under `dir`, relative, sorted. */
function files(dir: string, base = dir): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? files(full, base) : [path.relative(base, full)];
    })
    .sort();
}

const sdkWhy = sdkGeneratorUnavailable();
describe.skipIf(sdkWhy !== undefined)(`the SDK generator (npm run sdk)${sdkWhy ? ` — skipped: ${sdkWhy}` : ""}`, () => {
  it("regenerates the checked-in fixture SDKs byte for byte, version-stamped", () => {
    const out = mkdtempSync(path.join(tmpdir(), "wavix-sdk-"));
    made.push(out);
    generateSdks(SCHEMA, out);
    expect(files(out)).toEqual(files(SDK));
    for (const f of files(SDK)) expect(readFileSync(path.join(out, f), "utf8"), f).toBe(readFileSync(path.join(SDK, f), "utf8"));
    // The version the engine will ask the plugin for, in each SDK.
    expect(JSON.parse(readFileSync(path.join(out, "nodejs", "package.json"), "utf8")).version).toBe("0.1.0");
    expect(readFileSync(path.join(out, "python", "pulumi_wavix", "_utilities.py"), "utf8")).toContain('def get_version():\n    return "0.1.0"');
    expect(readFileSync(path.join(out, "go", "wavix", "internal", "pulumiUtilities.go"), "utf8")).toContain('semver.MustParse("0.1.0")');
  });

  it("stamps the version it is given, not the schema's", () => {
    const out = mkdtempSync(path.join(tmpdir(), "wavix-sdk-"));
    made.push(out);
    generateSdks(SCHEMA, out, "2.3.4");
    expect(JSON.parse(readFileSync(path.join(out, "nodejs", "package.json"), "utf8")).version).toBe("2.3.4");
    expect(JSON.parse(readFileSync(path.join(out, "go", "wavix", "pulumi-plugin.json"), "utf8")).version).toBe("2.3.4");
    expect(readFileSync(path.join(out, "python", "setup.py"), "utf8")).toContain('VERSION = "2.3.4"');
  });
});
