/**
 * The native provider's SDKs checked in under sdk/ (TypeScript with its compiled bin/, Python, Go)
 * are exactly what `npm run sdk:wavix` makes from the committed schema (scripts/build-sdks.js:
 * Pulumi's own generators, then tsc), byte for byte, and each asks the engine for the plugin at
 * this package's version. Skipped, saying why, only without a Go toolchain; never under CI=true.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sdkGeneratorUnavailable } from "../helpers/pulumi-languages";

const ROOT = path.resolve(__dirname, "..", "..");
const SDK = path.join(ROOT, "sdk");
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildSdks } = require("../../scripts/build-sdks.js") as { buildSdks(out: string): string };

/** Every file under `dir`, relative, sorted. */
function files(dir: string, base = dir): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? files(full, base) : [path.relative(base, full)];
    })
    .sort();
}

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const why = sdkGeneratorUnavailable();
describe.skipIf(why !== undefined)(`the checked-in SDKs under sdk/${why ? ` — skipped: ${why}` : ""}`, () => {
  it("are what npm run sdk:wavix makes from schemas/pulumi/schema.json, byte for byte", { timeout: 300_000 }, () => {
    const out = mkdtempSync(path.join(tmpdir(), "wavix-sdk-"));
    made.push(out);
    buildSdks(out);
    expect(files(out)).toEqual(files(SDK));
    const drift = files(SDK).filter((f) => readFileSync(path.join(out, f), "utf8") !== readFileSync(path.join(SDK, f), "utf8"));
    expect(drift, "files that differ: run `npm run sdk:wavix`").toEqual([]);
  });

  it("each asks the engine for the wavix plugin at this package's version", () => {
    expect(JSON.parse(readFileSync(path.join(SDK, "nodejs", "package.json"), "utf8"))).toMatchObject({ name: "@wavix-sync/pulumi-wavix", version: VERSION, pulumi: { resource: true, name: "wavix", version: VERSION } });
    expect(JSON.parse(readFileSync(path.join(SDK, "nodejs", "bin", "package.json"), "utf8")).version).toBe(VERSION);
    expect(readFileSync(path.join(SDK, "python", "pulumi_wavix", "_utilities.py"), "utf8")).toContain(`def get_version():\n    return "${VERSION}"`);
    expect(JSON.parse(readFileSync(path.join(SDK, "python", "pulumi_wavix", "pulumi-plugin.json"), "utf8"))).toMatchObject({ resource: true, name: "wavix", version: VERSION });
    expect(readFileSync(path.join(SDK, "go", "wavix", "internal", "pulumiUtilities.go"), "utf8")).toContain(`semver.MustParse("${VERSION}")`);
    expect(JSON.parse(readFileSync(path.join(SDK, "go", "wavix", "pulumi-plugin.json"), "utf8"))).toMatchObject({ resource: true, name: "wavix", version: VERSION });
  });
});
