/**
 * The native plugin's gRPC server: unary calls only, on `node:http2` directly (h2c with prior
 * knowledge, what the engine's Go gRPC client speaks to a plugin on loopback), instead of
 * `@grpc/grpc-js`'s server, whose per-call machinery (its call objects, metadata, interceptors,
 * filters) was most of what a Check or Diff cost the plugin beyond our own work (docs/SPEED.md,
 * "The native plugin's per-call cost"). The messages are still read and written by the service
 * definition's functions (the stubs `@pulumi/pulumi` ships, Check and Diff by hand:
 * src/pulumi/plugin/fast-wire.ts); only the framing is ours.
 *
 * It follows gRPC over HTTP/2 (grpc/grpc doc/PROTOCOL-HTTP2.md):
 *  - a request is its headers (`:method POST`, `:path /pulumirpc.ResourceProvider/Check`,
 *    `content-type application/grpc[+proto]`, perhaps `grpc-timeout`, `grpc-encoding`), one
 *    Length-Prefixed-Message (a compressed flag byte, a 4-byte big-endian length, the message) in
 *    DATA frames whose boundaries say nothing, and the end of the stream;
 *  - an answer is `:status 200` and `content-type application/grpc+proto`, the Length-Prefixed-Message,
 *    then trailers `grpc-status 0`; an error is Trailers-Only (one HEADERS frame, `grpc-status` and
 *    `grpc-message`, the latter UTF-8 percent-encoded: bytes outside %x20-%x7E and `%` as `%XX`);
 *  - a content-type not `application/grpc…` gets HTTP 415; a path no handler serves, UNIMPLEMENTED;
 *  - `grpc-timeout` (at most 8 digits and a unit H M S m u n) starts a deadline: DEADLINE_EXCEEDED
 *    if the answer is not ready by then; a client's RST_STREAM cancels the call (its answer is dropped);
 *  - the compressed flag must be 0: this server accepts no compression and says so
 *    (`grpc-accept-encoding: identity`); a compressed message is refused, UNIMPLEMENTED under an
 *    encoding it does not know, INTERNAL without one (the flag must then be 0).
 * Where the spec leaves the wording to the server, the statuses and messages are `@grpc/grpc-js`'s
 * (1.14: server.ts, server-interceptors.ts), so the engine shows what it showed before.
 * test/pulumi/plugin-h2-server.test.ts holds it to `@grpc/grpc-js`'s client.
 */
import http2 from "node:http2";
import type { AddressInfo } from "node:net";

/** gRPC status codes (grpc/grpc doc/statuscodes.md). */
export const Status = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  DEADLINE_EXCEEDED: 4,
  RESOURCE_EXHAUSTED: 8,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
} as const;

/** An error a handler answers with (`@grpc/grpc-js`'s `ServerErrorResponse`, the part read here). */
export interface CallError {
  code?: number;
  details?: string;
  message?: string;
}

/** One call as a handler sees it (the part of `@grpc/grpc-js`'s `ServerUnaryCall` the plugin uses). */
export interface UnaryCall<Req = unknown> {
  readonly request: Req;
  /** Set once the client has cancelled the call or its deadline has passed: the answer is dropped. */
  readonly cancelled: boolean;
}

/** A unary handler, as `@grpc/grpc-js` calls one. */
export type UnaryHandler<Req = unknown, Res = unknown> = (call: UnaryCall<Req>, callback: (err: CallError | null, res?: Res) => void) => void;

/** Handlers by the service definition's method name (`check`, `getPluginInfo`). */
export type UnaryHandlers = Record<string, UnaryHandler<never, unknown>>;

/** A method of a service definition (`@grpc/grpc-js`'s `MethodDefinition`, the part read here). */
export interface MethodDefinition {
  readonly path: string;
  readonly requestStream: boolean;
  readonly responseStream: boolean;
  requestDeserialize(bytes: Buffer): unknown;
  responseSerialize(value: never): Buffer | Uint8Array;
}

export interface UnaryServerOptions {
  /** The largest request message taken, in bytes. @default 400 MiB (the schema and a large refresh fit well within it) */
  maxReceiveMessageLength?: number;
}

export interface UnaryServer {
  /** The loopback port it listens on. */
  readonly port: number;
  /** Takes no new calls, lets the calls in flight finish, then calls `done` (`@grpc/grpc-js`'s `tryShutdown`). */
  shutdown(done: () => void): void;
  /** Drops every connection now. */
  forceShutdown(): void;
}

const ACCEPT_ENCODING = "identity";
const CONTENT_TYPE = "application/grpc+proto";
/** grpc/grpc doc/PROTOCOL-HTTP2.md, "Timeout": TimeoutValue (at most 8 digits) and TimeoutUnit. */
const TIMEOUT = /^(\d{1,8})([HMSmun])$/;
const TIMEOUT_UNIT_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 1e-3, n: 1e-6 };
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A Status-Message as the spec percent-encodes it: UTF-8, every byte outside space..`~` and `%`
 * itself as `%XX` (grpc/grpc doc/PROTOCOL-HTTP2.md, "Responses").
 */
export function percentEncode(message: string): string {
  if (/^[\x20-\x24\x26-\x7e]*$/.test(message)) return message;
  let out = "";
  for (const b of Buffer.from(message, "utf8")) out += b >= 0x20 && b <= 0x7e && b !== 0x25 ? String.fromCharCode(b) : `%${b < 16 ? "0" : ""}${b.toString(16).toUpperCase()}`;
  return out;
}

interface Route {
  readonly name: string;
  readonly def: MethodDefinition;
  readonly handler: UnaryHandler | undefined;
}

/** One call's stream and state. */
class Call implements UnaryCall {
  request: unknown;
  /** The answer has been sent, or the call dropped: nothing more goes out. */
  done = false;
  cancelled = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(readonly stream: http2.ServerHttp2Stream) {}

  /** A deadline from `grpc-timeout`: false (and the call answered INTERNAL) when the header does not read as one. */
  deadline(header: string): boolean {
    const m = TIMEOUT.exec(header);
    if (!m) {
      this.fail(Status.INTERNAL, `Invalid grpc-timeout value "${header}"`);
      return false;
    }
    const ms = Number(m[1]) * TIMEOUT_UNIT_MS[m[2]];
    // Beyond what a timer holds (some 24.8 days) Node would fire at once: as good as no deadline.
    if (ms > MAX_TIMER_MS) return true;
    this.timer = setTimeout(() => {
      this.fail(Status.DEADLINE_EXCEEDED, "Deadline exceeded");
      this.cancelled = true;
    }, ms);
    return true;
  }

  /** The client went away (RST_STREAM, the connection closed) before the answer. */
  drop(): void {
    if (!this.done) this.cancelled = true;
    this.done = true;
    clearTimeout(this.timer);
  }

  /** Answers with a message: headers, the Length-Prefixed-Message, trailers `grpc-status 0`. */
  reply(message: Buffer | Uint8Array): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    const stream = this.stream;
    if (stream.destroyed || stream.closed) return;
    going(stream);
    const frame = Buffer.allocUnsafe(message.length + 5);
    frame[0] = 0;
    frame.writeUInt32BE(message.length, 1);
    frame.set(message, 5);
    stream.respond({ ":status": 200, "content-type": CONTENT_TYPE, "grpc-accept-encoding": ACCEPT_ENCODING }, { waitForTrailers: true });
    stream.once("wantTrailers", () => stream.sendTrailers({ "grpc-status": Status.OK, "grpc-message": "OK" }));
    stream.end(frame);
  }

  /** Answers with an error, as Trailers-Only. */
  fail(code: number, details: string): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    const stream = this.stream;
    if (stream.destroyed || stream.closed) return;
    const headers: http2.OutgoingHttpHeaders = { ":status": 200, "content-type": CONTENT_TYPE, "grpc-accept-encoding": ACCEPT_ENCODING, "grpc-status": code };
    if (details !== "") headers["grpc-message"] = percentEncode(details);
    stream.respond(headers, { endStream: true });
    // Answered before the request ended: RST_STREAM NO_ERROR frees the stream (the spec's "Early Server Closure").
    if (!stream.readableEnded) stream.close(http2.constants.NGHTTP2_NO_ERROR);
  }
}

/** The gRPC status of a handler's error: its code and details when it has them, else UNKNOWN and its message (`@grpc/grpc-js`'s `serverErrorToStatus`). */
function statusOf(err: CallError): [number, string] {
  if (typeof err.code === "number" && Number.isInteger(err.code)) return [err.code, typeof err.details === "string" ? err.details : (err.message ?? "Unknown Error")];
  return [Status.UNKNOWN, err.message ?? err.details ?? "Unknown Error"];
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Answers on their way out: each until its stream has closed (its end sent, or the client gone). */
const outgoing = new Map<http2.ServerHttp2Stream, Promise<void>>();

function going(stream: http2.ServerHttp2Stream): void {
  outgoing.set(
    stream,
    new Promise<void>((resolve) =>
      stream.once("close", () => {
        outgoing.delete(stream);
        resolve();
      }),
    ),
  );
}

/**
 * Runs `fn` once the answers given so far have gone out (their streams closed). Node's HTTP/2
 * session writes an answer's trailers (`grpc-status`, its end) on a later turn of the event loop
 * than the one that answered, and a large answer over several turns as the client's flow-control
 * window lets it: a long task queued with a `setImmediate` after an answer ran before its end went
 * out, and the client waited for it. A preload step held each call's end back by its own length; the
 * Account's reads after a Check held that Check's end back by some 100 ms at 1,000 numbers
 * (docs/SPEED.md, "One resource for a whole account"). Called before the answer is given (from the
 * handler), it looks one turn later, once the answer has been handed to the session.
 */
export function afterAnswersSent(fn: () => void): void {
  setImmediate(() => {
    const pending = [...outgoing.values()];
    if (pending.length === 0) setImmediate(fn);
    // A stream the client never lets close (it stopped reading) holds nothing back for long.
    else void Promise.race([Promise.all(pending), new Promise((r) => setTimeout(r, 2000).unref())]).then(() => setImmediate(fn));
  });
}

/**
 * Serves `handlers` (by method name) for the unary methods of `service` on a loopback port.
 * Methods without a handler, and streaming ones, answer UNIMPLEMENTED.
 */
export function serveUnary(service: Readonly<Record<string, MethodDefinition>>, handlers: UnaryHandlers, options: UnaryServerOptions = {}): Promise<UnaryServer> {
  const maxReceive = options.maxReceiveMessageLength ?? 400 * 1024 * 1024;
  const routes = new Map<string, Route>();
  for (const [name, def] of Object.entries(service)) {
    const handler = def.requestStream || def.responseStream ? undefined : (handlers[name] as UnaryHandler | undefined);
    routes.set(def.path, { name, def, handler });
  }

  const server = http2.createServer({
    // As `@grpc/grpc-js` does: Node's per-session memory cap refuses streams once a large message is buffered.
    maxSessionMemory: Number.MAX_SAFE_INTEGER,
    maxSendHeaderBlockLength: Number.MAX_SAFE_INTEGER,
  });
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
    // A connection torn down is reported by its streams' close; nothing else to do with it.
    session.on("error", () => undefined);
  });
  server.on("stream", (stream, headers) => {
    stream.on("error", () => undefined);
    const contentType = headers["content-type"];
    if (typeof contentType !== "string" || !contentType.startsWith("application/grpc")) {
      stream.respond({ ":status": 415 }, { endStream: true });
      return;
    }
    const call = new Call(stream);
    const path = headers[":path"] ?? "";
    const route = routes.get(path);
    if (!route) {
      call.fail(Status.UNIMPLEMENTED, `The server does not implement the method ${path}`);
      return;
    }
    stream.once("close", () => call.drop());
    const timeout = headers["grpc-timeout"];
    if (typeof timeout === "string" && !call.deadline(timeout)) return;
    const encoding = headers["grpc-encoding"];

    let first: Buffer | undefined;
    let chunks: Buffer[] | undefined;
    let size = 0;
    stream.on("data", (chunk: Buffer) => {
      // Refused already (too long): what still arrives is dropped.
      if (call.done) return;
      size += chunk.length;
      if (first === undefined) first = chunk;
      else (chunks ??= [first]).push(chunk);
      // The message's length is known from its prefix: refuse it as soon as it is too long.
      const head = chunks ? undefined : first;
      if (head && head.length >= 5 && head.readUInt32BE(1) > maxReceive) call.fail(Status.RESOURCE_EXHAUSTED, `Received message larger than max (${head.readUInt32BE(1)} vs ${maxReceive})`);
      else if (size > maxReceive + 5) call.fail(Status.RESOURCE_EXHAUSTED, `Received message larger than max (${size - 5} vs ${maxReceive})`);
    });
    stream.once("end", () => {
      // Already answered: refused (too long) or past its deadline.
      if (call.done) return;
      const bytes = chunks ? Buffer.concat(chunks, size) : (first ?? Buffer.alloc(0));
      if (bytes.length === 0) return call.fail(Status.UNIMPLEMENTED, `Received no request message for server streaming method ${path}`);
      if (bytes.length < 5) return call.fail(Status.INTERNAL, `the request's message prefix is cut short (${bytes.length} of 5 bytes)`);
      const length = bytes.readUInt32BE(1);
      if (bytes.length < 5 + length) return call.fail(Status.INTERNAL, `the request's message is cut short (${bytes.length - 5} of ${length} bytes)`);
      if (bytes.length > 5 + length) return call.fail(Status.UNIMPLEMENTED, `Received a second request message for server streaming method ${path}`);
      if (bytes[0] !== 0) {
        if (typeof encoding === "string" && encoding !== "identity") return call.fail(Status.UNIMPLEMENTED, `Received message compressed with unsupported encoding "${encoding}"`);
        return call.fail(Status.INTERNAL, "Received a compressed message without a grpc-encoding (the compressed flag must then be 0)");
      }
      const handler = route.handler;
      if (!handler) return call.fail(Status.UNIMPLEMENTED, `The server does not implement the method ${route.name}`);
      try {
        call.request = route.def.requestDeserialize(bytes.subarray(5));
      } catch (e) {
        return call.fail(Status.INTERNAL, `Error deserializing request: ${messageOf(e)}`);
      }
      const answer = (err: CallError | null, res?: unknown): void => {
        if (err) return call.fail(...statusOf(err));
        let message: Buffer | Uint8Array;
        try {
          message = route.def.responseSerialize(res as never);
        } catch (e) {
          return call.fail(Status.INTERNAL, `Error serializing response: ${messageOf(e)}`);
        }
        call.reply(message);
      };
      try {
        handler(call, answer);
      } catch (e) {
        call.fail(Status.UNKNOWN, `Server method handler threw error ${messageOf(e)}`);
      }
    });
  });

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      // A failure of the listening socket after this is not a call's: the process reports it as any uncaught error.
      resolve({
        port: (server.address() as AddressInfo).port,
        shutdown(done) {
          server.close(() => done());
          // GOAWAY, and each connection closes once its calls in flight are answered.
          for (const s of sessions) s.close();
        },
        forceShutdown() {
          for (const s of sessions) s.destroy();
          server.close();
        },
      });
    });
  });
}
