/**
 * One write gate beneath every face (docs/ARCHITECTURE.md, "The write gate"; docs/GUARD-RAILS.md):
 * nothing in src/ but the gate (src/kit/gate/) and the client itself references a write method of
 * `WavixClient` (POST, PUT, PATCH, DELETE). The kinds write through the gate's `GatedClient`,
 * whose overrides wait for the gate's rails. The checker is shown to fail on a small tree.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { WRITE_METHODS } from "../../src/kit/gate";
import { WavixClient } from "../../src/client";
import { clientWritesOutside } from "./client-writes";

const SRC = path.resolve(__dirname, "../../src");

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return tsFiles(p);
    return /\.ts$/.test(name) && !/\.d\.ts$/.test(name) ? [p] : [];
  });
}

describe("src/", () => {
  it("reaches a client write only through the write gate", () => {
    const found = clientWritesOutside({
      files: tsFiles(SRC),
      root: SRC,
      clientFile: path.join(SRC, "client/client.ts"),
      className: "WavixClient",
      methods: WRITE_METHODS,
      allowed: (rel) => rel === "client/client.ts" || rel.startsWith("kit/gate/"),
    });
    expect(found.map((r) => `${r.file}:${r.line} ${r.method}`)).toEqual([]);
  }, 180_000);

  it("names every write method of the client (each sends POST, PUT, PATCH or DELETE)", () => {
    const proto = Object.getOwnPropertyNames(WavixClient.prototype);
    for (const m of WRITE_METHODS) expect(proto).toContain(m);
    // A new write method must be added to WRITE_METHODS (and overridden by GatedClient): the
    // client's methods that are not reads, by name.
    const writes = proto.filter((m) => /^(create|replace|update|bulkUpdate|release|delete|upsert|link|unlink)/.test(m));
    expect([...writes].sort()).toEqual([...WRITE_METHODS].sort());
  });
});

describe("the checker", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "client-writes-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const put = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  };
  put("client.ts", "export class WavixClient { createTrunk(b: string): Promise<string> { return Promise.resolve(b); } getTrunk(): number { return 1; } }\n");
  put("gate/gate.ts", 'import { WavixClient } from "../client";\nexport class GatedClient extends WavixClient { override createTrunk(b: string) { return super.createTrunk(b); } }\n');
  put("kinds/plain.ts", 'import type { WavixClient } from "../client";\nexport function f(c: WavixClient) {\n  c.getTrunk();\n  return c.createTrunk("x");\n}\n');
  put("kinds/gated.ts", 'import type { GatedClient } from "../gate/gate";\nexport function g(c: GatedClient) { c.getTrunk(); return c.createTrunk("x"); }\n');
  put("kinds/sneaky.ts", 'import type { WavixClient } from "../client";\nexport function h(c: WavixClient) {\n  const send = c["createTrunk"];\n  const { createTrunk } = c;\n  return [send, createTrunk, c.createTrunk.bind(c)];\n}\n');

  it("finds a plain call, a method taken as a value, an element access and a destructuring; not the gate's own calls", () => {
    const found = clientWritesOutside({
      files: ["client.ts", "gate/gate.ts", "kinds/plain.ts", "kinds/gated.ts", "kinds/sneaky.ts"].map((f) => path.join(dir, f)),
      root: dir,
      clientFile: path.join(dir, "client.ts"),
      className: "WavixClient",
      methods: ["createTrunk"],
      allowed: (rel) => rel === "client.ts" || rel.startsWith("gate/"),
      compilerOptions: { types: [] },
    });
    expect(found.map((r) => `${r.file}:${r.line}`).sort()).toEqual(["kinds/plain.ts:4", "kinds/sneaky.ts:3", "kinds/sneaky.ts:4", "kinds/sneaky.ts:5"]);
  }, 60_000);
});
