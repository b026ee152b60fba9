// Proves the Pulumi harness (test/helpers/pulumi-host.ts, pulumi-capture.js) end to end with a
// trivial fixture provider (test/fixtures/pulumi-echo), before the real providers use it
// (docs/CONTRACT.md part 6: capture under setMocks, then drive the real dynamic-provider host).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  PROVIDER_KEY,
  capturePulumiResources,
  startPulumiHost,
  stripProvider,
  type CapturedResource,
  type PulumiHost,
} from "../helpers/pulumi-host";

const FIXTURE = "test/fixtures/pulumi-echo/index.js";
const CAPTURE_SECRET = "capture-time-secret-9f3c1a";
const HOST_TOKEN = "host-token-77e2b0";

interface EchoItem {
  message: string;
  tag: string;
  secretToken: string;
}

/** The echo fixture's backend: items in memory, Bearer token required, every request logged. */
interface EchoServer {
  url: string;
  items: Map<string, EchoItem>;
  log: { method: string; path: string; auth: string | undefined }[];
  failNext: number | undefined;
  close(): Promise<void>;
}

async function startEchoServer(token: string): Promise<EchoServer> {
  const items = new Map<string, EchoItem>();
  const log: EchoServer["log"] = [];
  let next = 1;
  const state: { failNext: number | undefined } = { failNext: undefined };
  const send = (res: ServerResponse, status: number, body?: unknown): void => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(body === undefined ? "" : JSON.stringify(body));
  };
  const readBody = async (req: IncomingMessage): Promise<Partial<EchoItem>> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    return text ? (JSON.parse(text) as Partial<EchoItem>) : {};
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = req.url ?? "/";
      log.push({ method: req.method ?? "", path, auth: req.headers.authorization });
      if (state.failNext !== undefined) {
        const status = state.failNext;
        state.failNext = undefined;
        return send(res, status, { error: "injected" });
      }
      if (req.headers.authorization !== `Bearer ${token}`) return send(res, 401, { error: "unauthorized" });
      const body = await readBody(req);
      const m = /^\/items\/([^/]+)$/.exec(path);
      if (req.method === "POST" && path === "/items") {
        const id = `item-${next++}`;
        items.set(id, { message: String(body.message), tag: String(body.tag), secretToken: `tok-${id}` });
        return send(res, 201, { id, secretToken: `tok-${id}` });
      }
      if (m) {
        const id = decodeURIComponent(m[1]);
        const item = items.get(id);
        if (!item) return send(res, 404, { error: "not found" });
        if (req.method === "GET") return send(res, 200, item);
        if (req.method === "PUT") {
          const updated = { ...item, message: String(body.message), tag: String(body.tag) };
          items.set(id, updated);
          return send(res, 200, updated);
        }
        if (req.method === "DELETE") {
          items.delete(id);
          return send(res, 204);
        }
      }
      return send(res, 405, { error: "unsupported" });
    })().catch(() => send(res, 500, { error: "server" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    items,
    log,
    get failNext() {
      return state.failNext;
    },
    set failNext(v) {
      state.failNext = v;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let echoes: CapturedResource[];
let server: EchoServer;
const hosts: PulumiHost[] = [];

async function newHost(env: Record<string, string | undefined> = {}): Promise<PulumiHost> {
  // No ECHO_* from the runner: each test decides what the host's environment holds.
  const host = await startPulumiHost({ env: { ECHO_BASE_URL: undefined, ECHO_TOKEN: undefined, ...env } });
  hosts.push(host);
  return host;
}

function echo(name: string): CapturedResource {
  const r = echoes.find((e) => e.name === name);
  if (!r) throw new Error(`no captured resource ${name}`);
  return r;
}

beforeAll(async () => {
  server = await startEchoServer(HOST_TOKEN);
  // A secret is in the capture process's environment, as WAVIX_API_KEY would be on `pulumi up`.
  echoes = await capturePulumiResources(FIXTURE, "declareEchoes", {
    args: { messages: ["hello", "world"] },
    env: { ECHO_TOKEN: CAPTURE_SECRET },
  });
});

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

afterAll(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
  await server.close();
});

describe("capture under setMocks", () => {
  it("records each dynamic resource with its type token, URN, inputs and serialized provider", () => {
    expect(echoes.map((e) => e.name).sort()).toEqual(["echo-0", "echo-1"]);
    const first = echo("echo-0");
    expect(first.type).toBe("pulumi-nodejs:dynamic/echo:Echo");
    expect(first.urn).toBe("urn:pulumi:stack::project::pulumi-nodejs:dynamic/echo:Echo::echo-0");
    expect(stripProvider(first.inputs)).toEqual({ message: "hello", tag: "first" });
    // Undefined inputs are not sent at all.
    expect(stripProvider(echo("echo-1").inputs)).toEqual({ message: "world" });
    expect(first.inputs[PROVIDER_KEY]).toBe(first.provider);
    expect(first.provider).toMatch(/^exports\.handler = /);
  });

  it("captures resource options such as additionalSecretOutputs", () => {
    expect(echo("echo-0").options.additionalSecretOutputs).toEqual(["secretToken"]);
    expect(echo("echo-0").options.protect).toBe(false);
  });

  it("keeps secrets out of the serialized provider, and detects a provider that captures one", async () => {
    for (const e of echoes) {
      expect(e.provider).not.toContain(CAPTURE_SECRET);
      expect(e.providerIsSecret).toBe(false);
    }
    // Negative control: a provider closing over the env value at declaration time leaks it.
    const [leaky] = await capturePulumiResources(FIXTURE, "declareLeakyEcho", { env: { ECHO_TOKEN: CAPTURE_SECRET } });
    expect(leaky.type).toBe("pulumi-nodejs:dynamic/echo:Leaky");
    expect(leaky.provider).toContain(CAPTURE_SECRET);
  });

  it("serializes a lean provider: packages as require(), project code as source", () => {
    const text = echo("echo-0").provider;
    expect(text.length).toBeLessThan(20_000);
    expect(text).toContain('require("p-retry")');
    expect(text).toContain("async function /*echoRequest*/");
    // The Pulumi SDK itself is not dragged in.
    expect(text).not.toContain("CustomResource");
  });

  it("fails with the capture's stderr when the export does not exist", async () => {
    await expect(capturePulumiResources(FIXTURE, "nope")).rejects.toThrow(/has no export nope/);
  });
});

describe("dynamic-provider host over gRPC", () => {
  it("runs check, create, diff, read, update, read-after-gone and delete with configure credentials", async () => {
    const host = await newHost();
    await host.configure({ "echo:baseUrl": server.url, "echo:token": HOST_TOKEN }, { secretKeys: ["echo:token"] });
    const r = host.forResource(echo("echo-0"));
    const logStart = server.log.length;

    const checked = await r.check({}, { message: "hello", tag: "first" });
    expect(checked.failures).toEqual([]);
    expect(stripProvider(checked.inputs)).toEqual({ message: "hello", tag: "first" });
    expect(checked.inputs[PROVIDER_KEY]).toBe(r.provider);

    const created = await r.create(checked.inputs);
    expect(created.id).toMatch(/^item-\d+$/);
    expect(stripProvider(created.properties)).toEqual({
      message: "hello",
      tag: "first",
      secretToken: `tok-${created.id}`,
      // The provider saw the token through configure (the host env has no ECHO_TOKEN).
      credentialSource: "configure",
    });
    expect(created.properties[PROVIDER_KEY]).toBe(r.provider);
    expect(server.items.get(created.id)?.message).toBe("hello");

    const same = await r.diff(created.id, created.properties, checked.inputs);
    expect(same).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
    const changed = await r.diff(created.id, created.properties, { ...checked.inputs, message: "bye" });
    expect(changed.changes).toBe(true);
    expect(changed.replaces).toEqual([]);
    const replaced = await r.diff(created.id, created.properties, { ...checked.inputs, tag: "other" });
    expect(replaced.replaces).toEqual(["tag"]);

    const read = await r.read(created.id, created.properties, checked.inputs);
    expect(read.id).toBe(created.id);
    expect(stripProvider(read.properties)).toEqual(stripProvider(created.properties));
    expect(read.inputs && stripProvider(read.inputs)).toEqual({ message: "hello", tag: "first" });

    const updatedOuts = await r.update(created.id, created.properties, { ...checked.inputs, message: "bye" });
    expect(updatedOuts.message).toBe("bye");
    expect(server.items.get(created.id)?.message).toBe("bye");

    server.items.delete(created.id); // out-of-band deletion
    const gone = await r.read(created.id, updatedOuts);
    expect(gone.id).toBe("");

    await r.delete(created.id, updatedOuts);
    expect(server.log.slice(logStart).map((l) => `${l.method} ${l.path}`)).toEqual([
      "POST /items",
      `GET /items/${created.id}`,
      `PUT /items/${created.id}`,
      `GET /items/${created.id}`,
      `DELETE /items/${created.id}`,
    ]);
    expect(server.log.slice(logStart).every((l) => l.auth === `Bearer ${HOST_TOKEN}`)).toBe(true);
  });

  it("lets the provider fall back to the host's environment when configure carries nothing", async () => {
    const host = await newHost({ ECHO_BASE_URL: server.url, ECHO_TOKEN: HOST_TOKEN });
    await host.configure({});
    const r = host.forResource(echo("echo-1"));
    const created = await r.create({ message: "world", tag: "default" });
    expect(created.properties.credentialSource).toBe("env");
    await r.delete(created.id, created.properties);
    expect(server.items.has(created.id)).toBe(false);
  });

  it("returns check failures from the provider", async () => {
    const host = await newHost();
    await host.configure({});
    const res = await host.forResource(echo("echo-0")).check({}, { message: "" });
    expect(res.failures).toEqual([{ property: "message", reason: "message must be a non-empty string" }]);
  });

  it("rejects with the provider's error message when a call fails", async () => {
    const host = await newHost();
    await host.configure({ "echo:baseUrl": server.url, "echo:token": HOST_TOKEN });
    server.failNext = 500;
    await expect(host.forResource(echo("echo-0")).create({ message: "x", tag: "t" })).rejects.toThrow(
      /create failed: echo create failed: 500/,
    );
    // read errors are also printed by the host on stderr, which the rejection carries.
    server.failNext = 500;
    await expect(host.forResource(echo("echo-0")).read("item-x", {})).rejects.toThrow(/read failed/);
  });

  it("refuses resource calls before configure or without __provider", async () => {
    const host = await newHost();
    await expect(host.create(echo("echo-0").urn, { message: "x", [PROVIDER_KEY]: echo("echo-0").provider })).rejects.toThrow(
      /configure\(\) before create/,
    );
    await host.configure({});
    await expect(host.create(echo("echo-0").urn, { message: "x" })).rejects.toThrow(/needs __provider/);
  });

  it("kills the host process on close", async () => {
    const host = await newHost();
    expect(() => process.kill(host.pid, 0)).not.toThrow();
    await host.close();
    expect(() => process.kill(host.pid, 0)).toThrow();
    await expect(host.configure({})).rejects.toThrow(/closed/);
  });
});
