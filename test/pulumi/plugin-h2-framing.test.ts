/**
 * The plugin's gRPC server reads HTTP/2 by hand (src/pulumi/plugin/h2-server.ts): what real clients
 * may send that the other tests' calls do not. The referees are clients we did not write —
 * `@grpc/grpc-js` and node:http2 (nghttp2) — and, for what no client sends on purpose, bytes written
 * by hand from RFC 9113. Covered: a byte stream cut anywhere (a proxy that re-cuts both directions
 * at random), padded HEADERS and DATA, a header block over one frame (CONTINUATION, both ways), a
 * client's small flow-control window and a change of it by SETTINGS, PING, and a connection that
 * breaks the protocol (not HTTP/2, a frame over the size taken): GOAWAY with the error's code, the
 * connection closed, the server still serving others.
 */
import { createRequire } from "node:module";
import net from "node:net";
import http2 from "node:http2";
import type * as grpcTypes from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeHeaders } from "../../src/pulumi/plugin/hpack";
import { serveUnary, Status, type UnaryCall, type UnaryHandlers, type UnaryServer } from "../../src/pulumi/plugin/h2-server";
import { bytesMethod, lengthPrefixed, until } from "../helpers/grpc-bytes";

const grpc = createRequire(require.resolve("@pulumi/pulumi/proto/provider_grpc_pb"))("@grpc/grpc-js") as typeof grpcTypes;

const ECHO = { echo: bytesMethod("/test.Echo/Echo") };
type Client = grpcTypes.Client & { echo(b: Buffer, cb: (e: grpcTypes.ServiceError | null, r: Buffer) => void): void };
const EchoClient = grpc.makeGenericClientConstructor(ECHO, "Echo") as unknown as new (address: string, creds: grpcTypes.ChannelCredentials, options?: object) => Client;

const handlers: UnaryHandlers = {
  echo: ((call: UnaryCall<Buffer>, cb: (e: { code?: number; details?: string } | null, r?: Buffer) => void) => {
    const text = call.request.toString("latin1", 0, Math.min(call.request.length, 5));
    if (text === "fail:") cb({ code: Status.UNKNOWN, details: call.request.toString("utf8", 5) });
    else cb(null, call.request);
  }) as UnaryHandlers[string],
};

const lpm = lengthPrefixed;

/** A deterministic series of piece sizes (1 to `max` bytes). */
function pieces(seed: number, max: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_103_515_245) + 12_345) >>> 0;
    return 1 + (s % max);
  };
}

/** A TCP proxy to `port` that re-cuts what it carries, both ways, into pieces written a turn apart. */
function recuttingProxy(port: number, seed: number, max: number): Promise<net.Server> {
  const proxy = net.createServer((a) => {
    const b = net.connect(port, "127.0.0.1");
    for (const [from, to, next] of [
      [a, b, pieces(seed, max)],
      [b, a, pieces(seed + 1, max)],
    ] as const) {
      let queue = Promise.resolve();
      from.on("data", (chunk: Buffer) => {
        queue = queue.then(async () => {
          for (let at = 0; at < chunk.length; ) {
            const n = next();
            if (!to.destroyed) to.write(chunk.subarray(at, at + n));
            at += n;
            await new Promise((r) => setImmediate(r));
          }
        });
      });
      from.on("close", () => void queue.then(() => to.destroy()));
      from.on("error", () => undefined);
    }
  });
  return new Promise((resolve) => proxy.listen(0, "127.0.0.1", () => resolve(proxy)));
}

const echo = (client: Client, b: Buffer) =>
  new Promise<{ res?: Buffer; err?: grpcTypes.ServiceError }>((resolve) => client.echo(b, (err, res) => resolve(err ? { err } : { res })));

const pattern = (size: number) => {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (i * 7 + size) & 0xff;
  return b;
};

/** One call by node:http2's client: the answer's headers, body and trailers. */
function rawCall(session: http2.ClientHttp2Session, body: Buffer, extra: http2.OutgoingHttpHeaders = {}): Promise<{ headers: http2.IncomingHttpHeaders; body: Buffer; trailers: http2.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = session.request({ ":method": "POST", ":path": "/test.Echo/Echo", "content-type": "application/grpc", te: "trailers", ...extra });
    let headers: http2.IncomingHttpHeaders = {};
    let trailers: http2.IncomingHttpHeaders | undefined;
    const chunks: Buffer[] = [];
    req.on("response", (h) => (headers = h));
    req.on("trailers", (t) => (trailers = t));
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("close", () => resolve({ headers, body: Buffer.concat(chunks), trailers: trailers ?? headers }));
    req.on("error", reject);
    req.end(body);
  });
}

/** What a server sends a raw connection that writes `bytes`, until it closes the connection (or `ms`). */
function rawConnection(port: number, bytes: Buffer, ms = 3000): Promise<{ got: Buffer; closed: boolean }> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1", () => s.write(bytes));
    const got: Buffer[] = [];
    const timer = setTimeout(() => {
      s.destroy();
      resolve({ got: Buffer.concat(got), closed: false });
    }, ms);
    s.on("data", (d: Buffer) => got.push(d));
    s.on("error", () => undefined);
    s.on("close", () => {
      clearTimeout(timer);
      resolve({ got: Buffer.concat(got), closed: true });
    });
  });
}

/** The frames in `bytes`: type, flags, stream, payload. */
function framesOf(bytes: Buffer): Array<{ type: number; flags: number; stream: number; payload: Buffer }> {
  const out = [];
  for (let at = 0; at + 9 <= bytes.length; ) {
    const length = bytes.readUIntBE(at, 3);
    out.push({ type: bytes[at + 3], flags: bytes[at + 4], stream: bytes.readUInt32BE(at + 5) & 0x7fffffff, payload: bytes.subarray(at + 9, at + 9 + length) });
    at += 9 + length;
  }
  return out;
}

const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");
const rawFrame = (length: number, type: number, flags: number, stream: number, payload: Buffer = Buffer.alloc(length)) => {
  const head = Buffer.alloc(9);
  head.writeUIntBE(length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(stream, 5);
  return Buffer.concat([head, payload]);
};

describe("the plugin's HTTP/2, read by hand, against what clients may send", () => {
  let server: UnaryServer;

  beforeAll(async () => {
    server = await serveUnary(ECHO, handlers);
  });

  afterAll(() => server?.forceShutdown());

  it("answers every call whole through a proxy that cuts both directions anywhere (frames split across reads, several in one)", async () => {
    for (const [seed, max] of [
      [1, 3],
      [2, 40],
      [3, 5000],
    ]) {
      const proxy = await recuttingProxy(server.port, seed, max);
      const client = new EchoClient(`127.0.0.1:${(proxy.address() as net.AddressInfo).port}`, grpc.credentials.createInsecure());
      try {
        const sizes = max === 3 ? [0, 1, 300] : [0, 1, 17, 16_379, 16_390, 70_000];
        const got = await Promise.all(sizes.map((n) => echo(client, pattern(n))));
        got.forEach((g, i) => {
          expect(g.err, `${sizes[i]} bytes, pieces of 1-${max}`).toBeUndefined();
          expect(g.res!.equals(pattern(sizes[i])), `${sizes[i]} bytes, pieces of 1-${max}`).toBe(true);
        });
      } finally {
        client.close();
        proxy.close();
      }
    }
  });

  it("reads padded HEADERS and DATA frames (node:http2 padding all it can)", async () => {
    const session = http2.connect(`http://127.0.0.1:${server.port}`, { paddingStrategy: http2.constants.PADDING_STRATEGY_MAX });
    try {
      for (const size of [3, 20_000]) {
        const got = await rawCall(session, lpm(pattern(size)));
        expect(got.trailers["grpc-status"]).toBe("0");
        expect(got.body.equals(lpm(pattern(size)))).toBe(true);
      }
    } finally {
      session.close();
    }
  });

  it("reads a request's header block over CONTINUATION frames, and writes an error's long message over them", async () => {
    const session = http2.connect(`http://127.0.0.1:${server.port}`, { settings: { maxHeaderListSize: 1 << 20 } });
    try {
      const big = "v".repeat(40_000);
      const got = await rawCall(session, lpm(Buffer.from("hello")), { "x-big": big });
      expect(got.trailers["grpc-status"]).toBe("0");
      expect(got.body.subarray(5).toString()).toBe("hello");
      const message = `a problem ${"é".repeat(8000)}`; // 16,000 bytes of UTF-8, 48,000 percent-encoded (nghttp2 takes a field of up to 64 KB)
      const failed = await rawCall(session, lpm(Buffer.from(`fail:${message}`)));
      expect(failed.trailers["grpc-status"]).toBe(String(Status.UNKNOWN));
      expect(decodeURIComponent(String(failed.trailers["grpc-message"]))).toBe(message);
    } finally {
      session.close();
    }
  });

  it("sends an answer larger than a client's small window as the client makes room, and follows a window changed by SETTINGS", async () => {
    const session = http2.connect(`http://127.0.0.1:${server.port}`, { settings: { initialWindowSize: 1000 } });
    try {
      const got = await rawCall(session, lpm(pattern(100_000)));
      expect(got.trailers["grpc-status"]).toBe("0");
      expect(got.body.equals(lpm(pattern(100_000)))).toBe(true);
      session.settings({ initialWindowSize: 70_000 });
      const again = await rawCall(session, lpm(pattern(300_000)));
      expect(again.body.equals(lpm(pattern(300_000)))).toBe(true);
    } finally {
      session.close();
    }
  });

  it("moves the window of a stream in flight by the change of SETTINGS_INITIAL_WINDOW_SIZE (RFC 9113 §6.9.2), with no WINDOW_UPDATE", async () => {
    const socket = net.connect(server.port, "127.0.0.1");
    const got: Buffer[] = [];
    socket.on("data", (d: Buffer) => got.push(d));
    const dataBytes = () => framesOf(Buffer.concat(got)).filter((f) => f.type === 0x0 && f.stream === 1).reduce((n, f) => n + f.payload.length, 0);
    const settings = (window: number, flags = 0) => {
      const p = Buffer.alloc(6);
      p.writeUInt16BE(0x4, 0);
      p.writeUInt32BE(window, 2);
      return rawFrame(6, 0x4, flags, 0, p);
    };
    try {
      await new Promise((r) => socket.once("connect", r));
      const block = encodeHeaders([
        [":method", "POST"],
        [":scheme", "http"],
        [":path", "/test.Echo/Echo"],
        [":authority", "x"],
        ["content-type", "application/grpc"],
      ]);
      const body = lpm(pattern(1000));
      socket.write(Buffer.concat([PREFACE, settings(100), rawFrame(block.length, 0x1, 0x4, 1, block), rawFrame(body.length, 0x0, 0x1, 1, body)]));
      await until(() => dataBytes() === 100);
      await new Promise((r) => setTimeout(r, 50));
      expect(dataBytes()).toBe(100);
      socket.write(settings(2000));
      await until(() => dataBytes() === 1005);
      await until(() => framesOf(Buffer.concat(got)).some((f) => f.type === 0x1 && f.stream === 1 && (f.flags & 0x1) === 0x1));
    } finally {
      socket.destroy();
    }
  });

  it("answers PING with its payload", async () => {
    const session = http2.connect(`http://127.0.0.1:${server.port}`);
    try {
      await new Promise((r) => session.once("connect", r));
      const payload = Buffer.from("8 bytes!");
      const echoed = await new Promise<Buffer>((resolve, reject) => session.ping(payload, (err, _ms, p) => (err ? reject(err) : resolve(p))));
      expect(echoed.equals(payload)).toBe(true);
    } finally {
      session.close();
    }
  });

  it("closes a connection that breaks the protocol with GOAWAY and the error's code, and goes on serving others", async () => {
    const notHttp2 = await rawConnection(server.port, Buffer.from("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    expect(notHttp2.closed).toBe(true);
    const goaway = framesOf(notHttp2.got).find((f) => f.type === 0x7);
    expect(goaway?.payload.readUInt32BE(4)).toBe(0x1); // PROTOCOL_ERROR

    // A DATA frame of 16,385 bytes, one over the size this server takes (it announces none larger).
    const tooBig = await rawConnection(server.port, Buffer.concat([PREFACE, rawFrame(0, 0x4, 0, 0), rawFrame(16_385, 0x0, 0, 1)]));
    expect(tooBig.closed).toBe(true);
    expect(framesOf(tooBig.got).find((f) => f.type === 0x7)?.payload.readUInt32BE(4)).toBe(0x6); // FRAME_SIZE_ERROR

    // A header block that is not HPACK: COMPRESSION_ERROR.
    const badBlock = await rawConnection(server.port, Buffer.concat([PREFACE, rawFrame(0, 0x4, 0, 0), rawFrame(1, 0x1, 0x5, 1, Buffer.from([0x80]))]));
    expect(badBlock.closed).toBe(true);
    expect(framesOf(badBlock.got).find((f) => f.type === 0x7)?.payload.readUInt32BE(4)).toBe(0x9);

    const client = new EchoClient(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
    try {
      expect((await echo(client, Buffer.from("still here"))).res?.toString()).toBe("still here");
    } finally {
      client.close();
    }
  });

  it("acknowledges the client's SETTINGS and opens with its own: each stream's window, and the connection's raised", async () => {
    const { got } = await rawConnection(server.port, Buffer.concat([PREFACE, rawFrame(6, 0x4, 0, 0, Buffer.from([0, 4, 0, 0, 0x10, 0]))]), 300);
    const frames = framesOf(got);
    expect(frames[0]).toMatchObject({ type: 0x4, flags: 0, stream: 0 });
    expect(frames[0].payload.readUInt16BE(0)).toBe(0x4); // SETTINGS_INITIAL_WINDOW_SIZE
    expect(frames[0].payload.readUInt32BE(2)).toBeGreaterThan(65_535); // over the default
    expect(frames[1]).toMatchObject({ type: 0x8, stream: 0 });
    expect(frames[1].payload.readUInt32BE(0)).toBeGreaterThan(0); // the connection's window raised
    expect(frames.some((f) => f.type === 0x4 && f.flags === 0x1)).toBe(true);
  });
});
