/**
 * The plugin's ResourceProvider service definition (src/pulumi/plugin/service.ts), built from the
 * stubs' message classes without loading `@grpc/grpc-js`, held to the one the stubs ship
 * (@pulumi/pulumi proto/provider_grpc_pb.js `ResourceProviderService`): the same methods, paths
 * and streaming, the same classes read and written; the handlers serve only methods it names; and
 * the plugin's process starts without loading `@grpc/grpc-js`, google-protobuf or the stubs.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadStubs } from "../../src/pulumi/plugin/main";
import { resourceProviderService, SERVED_METHODS } from "../../src/pulumi/plugin/service";
import type { WavixProvider as Provider } from "../../src/pulumi/plugin/server";
import { ROOT } from "../helpers/real-pulumi";

const { WavixProvider } = require(path.join(ROOT, "dist", "pulumi", "plugin", "server.js")) as { WavixProvider: typeof Provider };
const stubs = loadStubs();
type Def = {
  path: string;
  requestStream: boolean;
  responseStream: boolean;
  requestType: new () => { serializeBinary(): Uint8Array };
  responseType: new () => { serializeBinary(): Uint8Array };
  responseSerialize(v: unknown): Buffer;
};
const theirs = stubs.service as unknown as Record<string, Def>;
const ours = resourceProviderService(stubs);

describe("the plugin's service definition", () => {
  it("names every method of the stubs' ResourceProviderService, with its path and streaming", () => {
    expect(Object.keys(ours).sort()).toEqual(Object.keys(theirs).sort());
    for (const [m, def] of Object.entries(theirs)) expect({ m, path: ours[m].path, stream: ours[m].responseStream || ours[m].requestStream }).toEqual({ m, path: def.path, stream: def.responseStream || def.requestStream });
  });

  it("reads each request the handlers serve as the stubs' class, and writes each answer as the stubs' serializer does", () => {
    const served = Object.keys(new WavixProvider(stubs).handlers());
    expect(served.length).toBeGreaterThan(10);
    // The launcher routes these to the provider, loaded by the first (src/pulumi/plugin/main.ts).
    expect([...served].sort()).toEqual([...SERVED_METHODS].sort());
    for (const m of served) {
      const def = theirs[m];
      expect(def, m).toBeDefined();
      expect(ours[m].requestDeserialize(Buffer.from(new def.requestType().serializeBinary())), m).toBeInstanceOf(def.requestType);
      const answer = new def.responseType();
      expect(Buffer.from(ours[m].responseSerialize(answer as never)).equals(def.responseSerialize(answer)), m).toBe(true);
      // An answer of another type is refused, as the generated serializer refuses it.
      expect(() => ours[m].responseSerialize(new stubs.provider.ListRequest() as never), m).toThrow(/Expected argument of type/);
    }
  });

  it("lets the plugin start without loading @grpc/grpc-js, google-protobuf or the stubs", () => {
    const script = `require(${JSON.stringify(path.join(ROOT, "dist", "pulumi", "plugin", "main.js"))}).main().then(() => { process.stderr.write(JSON.stringify(Object.keys(require.cache).filter((k) => /grpc-js|google-protobuf|[\\\\/]proto[\\\\/]/.test(k)))); process.exit(0); });`;
    const r = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", timeout: 30_000 });
    expect(r.stdout).toMatch(/^\d+\n$/);
    expect(r.stderr).toBe("[]");
  });
});
