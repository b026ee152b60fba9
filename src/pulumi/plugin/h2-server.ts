/**
 * The native plugin's gRPC server: unary calls only, HTTP/2 framed by hand on a TCP socket (h2c
 * with prior knowledge, what the engine's Go gRPC client speaks to a plugin on loopback), instead
 * of `@grpc/grpc-js`'s server and then `node:http2`, whose per-call machinery (a stream object per
 * call, headers objects converted back and forth, an answer's end written on a later turn of the
 * event loop) was most of what a Check or Diff cost the plugin beyond our own work (docs/SPEED.md,
 * "The native plugin's per-call cost"). The messages are still read and written by the service
 * definition's functions (the stubs `@pulumi/pulumi` ships, Check and Diff by hand:
 * src/pulumi/plugin/fast-wire.ts).
 *
 * HTTP/2 (RFC 9113), the part a server of unary calls needs: the client's preface and SETTINGS
 * (answered, applied), HEADERS and CONTINUATION (HPACK: src/pulumi/plugin/hpack.ts), DATA with
 * flow control both ways (WINDOW_UPDATE as the message is read; an answer waits for the client's
 * windows), PING answered, RST_STREAM (the call cancelled), GOAWAY both ways, PRIORITY and unknown
 * frame types ignored. A connection error (a frame that breaks the protocol) sends GOAWAY with its
 * code and closes the connection. An answer is one write: its HEADERS, DATA and trailers together.
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
import net from "node:net";
import type { AddressInfo } from "node:net";
import { encodeHeaders, HpackDecoder, HpackError } from "./hpack";

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

// RFC 9113 §6: frame types, flags, §7: error codes, §6.5.2: settings.
const DATA = 0x0;
const HEADERS = 0x1;
const RST_STREAM = 0x3;
const SETTINGS = 0x4;
const PUSH_PROMISE = 0x5;
const PING = 0x6;
const GOAWAY = 0x7;
const WINDOW_UPDATE = 0x8;
const CONTINUATION = 0x9;
const END_STREAM = 0x1;
const ACK = 0x1;
const END_HEADERS = 0x4;
const PADDED = 0x8;
const PRIORITY_FLAG = 0x20;
const NO_ERROR = 0x0;
const PROTOCOL_ERROR = 0x1;
const FLOW_CONTROL_ERROR = 0x3;
const FRAME_SIZE_ERROR = 0x6;
const REFUSED_STREAM = 0x7;
const COMPRESSION_ERROR = 0x9;
const SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
const SETTINGS_MAX_FRAME_SIZE = 0x5;

const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");
/** The frames this server takes: the default largest (it announces no other). */
const MAX_FRAME = 16_384;
/** What a stream and the connection may receive before a WINDOW_UPDATE: announced at once, topped up at half. */
const STREAM_WINDOW = 4 * 1024 * 1024;
const CONNECTION_WINDOW = 16 * 1024 * 1024;
/** A header block's largest size, CONTINUATIONs and all: far beyond what a gRPC client sends. */
const MAX_HEADER_BLOCK = 1024 * 1024;
const MAX_WINDOW = 2 ** 31 - 1;

/** A frame's 9-byte header (§4.1) before `payload` bytes. */
function frameHead(out: Buffer, at: number, length: number, type: number, flags: number, stream: number): void {
  out[at] = (length >>> 16) & 0xff;
  out[at + 1] = (length >>> 8) & 0xff;
  out[at + 2] = length & 0xff;
  out[at + 3] = type;
  out[at + 4] = flags;
  out.writeUInt32BE(stream, at + 5);
}

function frame(type: number, flags: number, stream: number, payload: Uint8Array = Buffer.alloc(0)): Buffer {
  const out = Buffer.allocUnsafe(9 + payload.length);
  frameHead(out, 0, payload.length, type, flags, stream);
  out.set(payload, 9);
  return out;
}

const u32 = (n: number): Buffer => {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};

/** Our SETTINGS (each stream's receive window), then the connection's window raised. */
const OPENING = (() => {
  const settings = Buffer.alloc(6);
  settings.writeUInt16BE(SETTINGS_INITIAL_WINDOW_SIZE, 0);
  settings.writeUInt32BE(STREAM_WINDOW, 2);
  return Buffer.concat([frame(SETTINGS, 0, 0, settings), frame(WINDOW_UPDATE, 0, 0, u32(CONNECTION_WINDOW - 65_535))]);
})();

/** An answer's headers (an error's Trailers-Only block starts with them too). */
const ANSWER_HEADER_FIELDS: ReadonlyArray<readonly [string, string]> = [
  [":status", "200"],
  ["content-type", CONTENT_TYPE],
  ["grpc-accept-encoding", ACCEPT_ENCODING],
];
/** An answer's headers and trailers, the same for every call: encoded once. */
const ANSWER_HEADERS = encodeHeaders(ANSWER_HEADER_FIELDS);
const ANSWER_TRAILERS = encodeHeaders([
  ["grpc-status", String(0)],
  ["grpc-message", "OK"],
]);

interface Route {
  readonly name: string;
  readonly def: MethodDefinition;
  readonly handler: UnaryHandler | undefined;
}

/** One call: its stream's state on both sides. */
class Call implements UnaryCall {
  request: unknown;
  /** The answer has been given, or the call dropped: nothing more is answered. */
  done = false;
  cancelled = false;
  /** The client has ended its side (END_STREAM), or the stream was reset. */
  remoteEnded = false;
  /** The stream is gone from the connection: answered and ended both ways, or reset. */
  closed = false;
  /** The request's bytes so far. */
  first: Buffer | undefined;
  chunks: Buffer[] | undefined;
  size = 0;
  /** What the client has sent that this side has not yet made room for again (WINDOW_UPDATE). */
  unacked = 0;
  /** What the client's window for this stream lets this side send. */
  sendWindow: number;
  /** An answer's frames still to go, waiting for the client's windows: its DATA bytes and trailers. */
  pending: { data: Buffer; at: number; trailers: Buffer; sent: () => void } | undefined;
  route: Route | undefined;
  encoding: string | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly conn: Connection,
    readonly id: number,
  ) {
    this.sendWindow = conn.peerWindow;
  }

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
    this.conn.close(this);
  }

  /** Answers with a message: headers, the Length-Prefixed-Message, trailers `grpc-status 0`. */
  reply(message: Buffer | Uint8Array): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    if (this.closed) return;
    this.conn.answer(this, message);
  }

  /** Answers with an error, as Trailers-Only. */
  fail(code: number, details: string): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    if (this.closed) return;
    const headers: Array<readonly [string, string]> = [...ANSWER_HEADER_FIELDS, ["grpc-status", String(code)]];
    if (details !== "") headers.push(["grpc-message", percentEncode(details)]);
    this.conn.trailersOnly(this, encodeHeaders(headers));
  }
}

/** The gRPC status of a handler's error: its code and details when it has them, else UNKNOWN and its message (`@grpc/grpc-js`'s `serverErrorToStatus`). */
function statusOf(err: CallError): [number, string] {
  if (typeof err.code === "number" && Number.isInteger(err.code)) return [err.code, typeof err.details === "string" ? err.details : (err.message ?? "Unknown Error")];
  return [Status.UNKNOWN, err.message ?? err.details ?? "Unknown Error"];
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Answers waiting for a client's flow-control window, each until it has gone out (or its client has). */
const outgoing = new Map<Call, Promise<void>>();

/**
 * Runs `fn` once the answers given so far have gone out. An answer is written in the turn that
 * gives it, unless it is larger than the client's flow-control windows let through: then the rest
 * goes as the client's WINDOW_UPDATEs arrive, and a long task queued after the answer would hold
 * it back (a preload step, the Account's reads after a Check: docs/SPEED.md, "One resource for a
 * whole account"). Called before the answer is given (from the handler), it looks one turn later,
 * once the answer has been written or queued.
 */
export function afterAnswersSent(fn: () => void): void {
  setImmediate(() => {
    const pending = [...outgoing.values()];
    if (pending.length === 0) setImmediate(fn);
    // A client that never makes room again (it stopped reading) holds nothing back for long.
    else void Promise.race([Promise.all(pending), new Promise((r) => setTimeout(r, 2000).unref())]).then(() => setImmediate(fn));
  });
}

/** A connection that broke the protocol: GOAWAY with `code`, then closed. */
class ConnectionError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** One client's connection. */
class Connection {
  /** The client's SETTINGS_INITIAL_WINDOW_SIZE and SETTINGS_MAX_FRAME_SIZE (RFC 9113 §6.5.2 defaults until it says). */
  peerWindow = 65_535;
  private peerMaxFrame = 16_384;
  /** What the connection's window lets this side send. */
  private sendWindow = 65_535;
  /** What the client has sent on the connection that has not been made room for again. */
  private unacked = 0;
  private readonly calls = new Map<number, Call>();
  private readonly decoder = new HpackDecoder();
  /** Bytes read and not yet a whole frame; the preface not yet seen. */
  private buffer: Buffer | undefined;
  private prefaceSeen = false;
  /** A header block across CONTINUATION frames: its stream, its flags, its pieces. */
  private block: { stream: number; endStream: boolean; pieces: Buffer[]; size: number } | undefined;
  private lastStream = 0;
  /** GOAWAY sent: no new calls; the connection ends once the calls in flight have. */
  private goingAway = false;
  /** Frames written while a read is being handled: sent together at its end. */
  private out: Buffer[] | undefined;
  private ended = false;

  constructor(
    readonly socket: net.Socket,
    private readonly server: ServerState,
  ) {
    socket.setNoDelay(true);
    socket.write(OPENING);
    socket.on("data", (chunk: Buffer) => this.read(chunk));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      this.ended = true;
      for (const call of [...this.calls.values()]) call.drop();
    });
  }

  private write(bytes: Buffer): void {
    if (this.ended) return;
    if (this.out) this.out.push(bytes);
    else this.socket.write(bytes);
  }

  private read(chunk: Buffer): void {
    if (this.ended) return;
    this.out = [];
    try {
      this.frames(this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk);
    } catch (e) {
      const code = e instanceof ConnectionError ? e.code : e instanceof HpackError ? COMPRESSION_ERROR : PROTOCOL_ERROR;
      const out = [...(this.out ?? []), frame(GOAWAY, 0, 0, Buffer.concat([u32(this.lastStream), u32(code), Buffer.from(messageOf(e), "utf8")]))];
      this.buffer = undefined;
      this.out = undefined;
      if (!this.ended) this.socket.end(Buffer.concat(out));
      this.ended = true;
      for (const call of [...this.calls.values()]) call.drop();
      return;
    }
    const out = this.out;
    this.out = undefined;
    // (Undefined when the connection ended while the read was handled: end() sent what there was.)
    if (out && out.length > 0 && !this.ended) this.socket.write(out.length === 1 ? out[0] : Buffer.concat(out));
  }

  /** Handles each whole frame of `bytes`; keeps the rest for the next read. */
  private frames(bytes: Buffer): void {
    let at = 0;
    if (!this.prefaceSeen) {
      if (bytes.length < PREFACE.length) {
        if (!PREFACE.subarray(0, bytes.length).equals(bytes)) throw new ConnectionError(PROTOCOL_ERROR, "not an HTTP/2 connection preface");
        this.buffer = bytes;
        return;
      }
      if (!bytes.subarray(0, PREFACE.length).equals(PREFACE)) throw new ConnectionError(PROTOCOL_ERROR, "not an HTTP/2 connection preface");
      this.prefaceSeen = true;
      at = PREFACE.length;
    }
    while (bytes.length - at >= 9) {
      const length = (bytes[at] << 16) | (bytes[at + 1] << 8) | bytes[at + 2];
      if (length > MAX_FRAME) throw new ConnectionError(FRAME_SIZE_ERROR, `a frame of ${length} bytes, over the ${MAX_FRAME} taken`);
      if (bytes.length - at < 9 + length) break;
      const type = bytes[at + 3];
      const flags = bytes[at + 4];
      const stream = bytes.readUInt32BE(at + 5) & 0x7fffffff;
      const payload = bytes.subarray(at + 9, at + 9 + length);
      at += 9 + length;
      this.frameIn(type, flags, stream, payload);
    }
    this.buffer = at === bytes.length ? undefined : bytes.subarray(at);
  }

  private frameIn(type: number, flags: number, stream: number, payload: Buffer): void {
    // §6.10: a header block's CONTINUATIONs come next, and nothing else.
    if (this.block && type !== CONTINUATION) throw new ConnectionError(PROTOCOL_ERROR, "a header block is broken off by another frame");
    switch (type) {
      case DATA:
        return this.data(flags, stream, payload);
      case HEADERS: {
        if (stream === 0 || stream % 2 === 0) throw new ConnectionError(PROTOCOL_ERROR, `HEADERS on stream ${stream}`);
        let p = payload;
        if (flags & PADDED) p = unpad(p);
        if (flags & PRIORITY_FLAG) {
          if (p.length < 5) throw new ConnectionError(FRAME_SIZE_ERROR, "a HEADERS frame too short for its priority");
          p = p.subarray(5);
        }
        this.block = { stream, endStream: (flags & END_STREAM) !== 0, pieces: [p], size: p.length };
        if (flags & END_HEADERS) this.headerBlock();
        return;
      }
      case CONTINUATION: {
        if (!this.block || this.block.stream !== stream) throw new ConnectionError(PROTOCOL_ERROR, "a CONTINUATION without its HEADERS");
        this.block.pieces.push(payload);
        this.block.size += payload.length;
        if (this.block.size > MAX_HEADER_BLOCK) throw new ConnectionError(PROTOCOL_ERROR, `a header block over ${MAX_HEADER_BLOCK} bytes`);
        if (flags & END_HEADERS) this.headerBlock();
        return;
      }
      case RST_STREAM:
        if (payload.length !== 4) throw new ConnectionError(FRAME_SIZE_ERROR, "an RST_STREAM frame not of 4 bytes");
        this.calls.get(stream)?.drop();
        return;
      case SETTINGS:
        if (stream !== 0) throw new ConnectionError(PROTOCOL_ERROR, "SETTINGS on a stream");
        if (flags & ACK) return;
        if (payload.length % 6 !== 0) throw new ConnectionError(FRAME_SIZE_ERROR, "a SETTINGS frame not of 6-byte entries");
        for (let i = 0; i < payload.length; i += 6) this.setting(payload.readUInt16BE(i), payload.readUInt32BE(i + 2));
        this.write(frame(SETTINGS, ACK, 0));
        return this.flush();
      case PING:
        if (payload.length !== 8) throw new ConnectionError(FRAME_SIZE_ERROR, "a PING frame not of 8 bytes");
        if (!(flags & ACK)) this.write(frame(PING, ACK, 0, payload));
        return;
      case GOAWAY:
        // The client will start no more calls; those in flight are answered.
        return;
      case WINDOW_UPDATE: {
        if (payload.length !== 4) throw new ConnectionError(FRAME_SIZE_ERROR, "a WINDOW_UPDATE frame not of 4 bytes");
        const increment = payload.readUInt32BE(0) & 0x7fffffff;
        if (stream === 0) {
          if (increment === 0) throw new ConnectionError(PROTOCOL_ERROR, "a WINDOW_UPDATE of 0");
          this.sendWindow += increment;
          if (this.sendWindow > MAX_WINDOW) throw new ConnectionError(FLOW_CONTROL_ERROR, "the connection's window over 2^31-1");
        } else {
          const call = this.calls.get(stream);
          if (call) call.sendWindow += increment;
        }
        return this.flush();
      }
      case PUSH_PROMISE:
        throw new ConnectionError(PROTOCOL_ERROR, "a client sent PUSH_PROMISE");
      default:
        // PRIORITY, and types this side does not know: ignored (§5.5).
        return;
    }
  }

  private setting(id: number, value: number): void {
    if (id === SETTINGS_INITIAL_WINDOW_SIZE) {
      if (value > MAX_WINDOW) throw new ConnectionError(FLOW_CONTROL_ERROR, "SETTINGS_INITIAL_WINDOW_SIZE over 2^31-1");
      // §6.9.2: every stream's window moves by the difference.
      const delta = value - this.peerWindow;
      this.peerWindow = value;
      for (const call of this.calls.values()) call.sendWindow += delta;
    } else if (id === SETTINGS_MAX_FRAME_SIZE) {
      if (value < 16_384 || value > 16_777_215) throw new ConnectionError(PROTOCOL_ERROR, `SETTINGS_MAX_FRAME_SIZE of ${value}`);
      this.peerMaxFrame = value;
    }
    // The others (header table size: this encoder indexes nothing; push; concurrent streams; header list size) change nothing here.
  }

  private data(flags: number, stream: number, payload: Buffer): void {
    if (stream === 0) throw new ConnectionError(PROTOCOL_ERROR, "DATA on stream 0");
    // §6.9.1: the whole frame counts against the windows, padding and all.
    this.unacked += payload.length;
    if (this.unacked >= CONNECTION_WINDOW / 2) {
      this.write(frame(WINDOW_UPDATE, 0, 0, u32(this.unacked)));
      this.unacked = 0;
    }
    const call = this.calls.get(stream);
    // A stream answered early or reset: what was already on its way is dropped.
    if (!call || call.remoteEnded) return;
    const bytes = flags & PADDED ? unpad(payload) : payload;
    const end = (flags & END_STREAM) !== 0;
    if (!end) {
      call.unacked += payload.length;
      if (call.unacked >= STREAM_WINDOW / 2) {
        this.write(frame(WINDOW_UPDATE, 0, stream, u32(call.unacked)));
        call.unacked = 0;
      }
    }
    if (!call.done && bytes.length > 0) {
      call.size += bytes.length;
      if (call.first === undefined) call.first = bytes;
      else (call.chunks ??= [call.first]).push(bytes);
      // The message's length is known from its prefix: refuse it as soon as it is too long.
      const head = call.chunks ? undefined : call.first;
      const max = this.server.maxReceive;
      if (head && head.length >= 5 && head.readUInt32BE(1) > max) call.fail(Status.RESOURCE_EXHAUSTED, `Received message larger than max (${head.readUInt32BE(1)} vs ${max})`);
      else if (call.size > max + 5) call.fail(Status.RESOURCE_EXHAUSTED, `Received message larger than max (${call.size - 5} vs ${max})`);
    }
    if (end) this.requestEnded(call);
  }

  /** A whole header block: a call's request headers, or its trailers (which end it). */
  private headerBlock(): void {
    const block = this.block!;
    this.block = undefined;
    // Every block is decoded, whatever its stream: the decoder's table must follow the client's.
    const fields = this.decoder.decode(block.pieces.length === 1 ? block.pieces[0] : Buffer.concat(block.pieces, block.size));
    const existing = this.calls.get(block.stream);
    if (existing) {
      // Trailers from the client end its side.
      if (!block.endStream) throw new ConnectionError(PROTOCOL_ERROR, `a second header block on stream ${block.stream} without its end`);
      if (!existing.remoteEnded) this.requestEnded(existing);
      return;
    }
    if (block.stream <= this.lastStream) return; // a closed stream's: nothing to do
    this.lastStream = block.stream;
    if (this.goingAway) {
      this.write(frame(RST_STREAM, 0, block.stream, u32(REFUSED_STREAM)));
      return;
    }
    const headers = new Map<string, string>();
    for (const [name, value] of fields) if (!headers.has(name)) headers.set(name, value);
    const call = new Call(this, block.stream);
    this.calls.set(block.stream, call);
    if (block.endStream) call.remoteEnded = true;
    const contentType = headers.get("content-type");
    if (contentType === undefined || !contentType.startsWith("application/grpc")) {
      call.done = true;
      this.trailersOnly(call, encodeHeaders([[":status", "415"]]));
      return;
    }
    const path = headers.get(":path") ?? "";
    const route = this.server.routes.get(path);
    if (!route) {
      call.fail(Status.UNIMPLEMENTED, `The server does not implement the method ${path}`);
      return;
    }
    call.route = route;
    const timeout = headers.get("grpc-timeout");
    if (timeout !== undefined && !call.deadline(timeout)) return;
    call.encoding = headers.get("grpc-encoding");
    if (block.endStream) this.requestEnded(call);
  }

  /** The client's side of a call has ended: its message is whole, and the handler is called. */
  private requestEnded(call: Call): void {
    call.remoteEnded = true;
    // Answered already (refused, past its deadline) and now ended both ways.
    if (call.done) {
      if (!call.pending) this.close(call);
      return;
    }
    const route = call.route!;
    const bytes = call.chunks ? Buffer.concat(call.chunks, call.size) : (call.first ?? Buffer.alloc(0));
    call.first = call.chunks = undefined;
    const path = route.def.path;
    if (bytes.length === 0) return call.fail(Status.UNIMPLEMENTED, `Received no request message for server streaming method ${path}`);
    if (bytes.length < 5) return call.fail(Status.INTERNAL, `the request's message prefix is cut short (${bytes.length} of 5 bytes)`);
    const length = bytes.readUInt32BE(1);
    if (bytes.length < 5 + length) return call.fail(Status.INTERNAL, `the request's message is cut short (${bytes.length - 5} of ${length} bytes)`);
    if (bytes.length > 5 + length) return call.fail(Status.UNIMPLEMENTED, `Received a second request message for server streaming method ${path}`);
    if (bytes[0] !== 0) {
      if (call.encoding !== undefined && call.encoding !== "identity") return call.fail(Status.UNIMPLEMENTED, `Received message compressed with unsupported encoding "${call.encoding}"`);
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
  }

  /** An answer whose headers end the stream (an error, HTTP 415); a stream the client is still sending on is reset NO_ERROR (the spec's "Early Server Closure"). */
  trailersOnly(call: Call, block: Buffer): void {
    this.write(Buffer.concat(this.headersFrames(call.id, block, true)));
    if (!call.remoteEnded) {
      this.write(frame(RST_STREAM, 0, call.id, u32(NO_ERROR)));
      call.remoteEnded = true;
    }
    this.close(call);
  }

  /** An answer: its headers, its message as DATA as far as the windows let it, its trailers once all of it has gone (until then it is `outgoing`). */
  answer(call: Call, message: Uint8Array): void {
    const length = message.length + 5;
    if (length <= this.peerMaxFrame && length <= call.sendWindow && length <= this.sendWindow) {
      // What nearly every answer is: one DATA frame the windows let through. Headers, the
      // Length-Prefixed-Message and trailers in one buffer, one write.
      const h = ANSWER_HEADERS.length;
      const t = ANSWER_TRAILERS.length;
      const out = Buffer.allocUnsafe(27 + h + length + t);
      frameHead(out, 0, h, HEADERS, END_HEADERS, call.id);
      out.set(ANSWER_HEADERS, 9);
      let at = 9 + h;
      frameHead(out, at, length, DATA, 0, call.id);
      out[at + 9] = 0;
      out.writeUInt32BE(message.length, at + 10);
      out.set(message, at + 14);
      at += 9 + length;
      frameHead(out, at, t, HEADERS, END_STREAM | END_HEADERS, call.id);
      out.set(ANSWER_TRAILERS, at + 9);
      call.sendWindow -= length;
      this.sendWindow -= length;
      this.write(out);
      if (call.remoteEnded) this.close(call);
      return;
    }
    const data = Buffer.allocUnsafe(length);
    data[0] = 0;
    data.writeUInt32BE(message.length, 1);
    data.set(message, 5);
    let sent!: () => void;
    outgoing.set(call, new Promise<void>((resolve) => (sent = resolve)));
    call.pending = { data, at: 0, trailers: Buffer.concat(this.headersFrames(call.id, ANSWER_TRAILERS, true)), sent };
    const head = this.headersFrames(call.id, ANSWER_HEADERS, false);
    this.write(head.length === 1 ? head[0] : Buffer.concat(head));
    this.send(call);
  }

  /** Sends what the windows let of a call's answer; its trailers once the message has gone whole. */
  private send(call: Call): void {
    const p = call.pending;
    if (!p) return;
    const frames: Buffer[] = [];
    while (p.at < p.data.length) {
      const n = Math.min(p.data.length - p.at, this.peerMaxFrame, call.sendWindow, this.sendWindow);
      if (n <= 0) break;
      const f = Buffer.allocUnsafe(9 + n);
      frameHead(f, 0, n, DATA, 0, call.id);
      p.data.copy(f, 9, p.at, p.at + n);
      frames.push(f);
      p.at += n;
      call.sendWindow -= n;
      this.sendWindow -= n;
    }
    const whole = p.at === p.data.length;
    if (whole) frames.push(p.trailers);
    if (frames.length > 0) this.write(frames.length === 1 ? frames[0] : Buffer.concat(frames));
    if (whole) {
      call.pending = undefined;
      outgoing.delete(call);
      p.sent();
      // Written before the stream is closed: closing the last one may end the connection.
      if (call.remoteEnded) this.close(call);
    }
  }

  /** The answers waiting for room: as much of each as the windows now let. */
  private flush(): void {
    for (const call of this.calls.values()) if (call.pending) this.send(call);
  }

  /** A header block as HEADERS and, beyond the client's largest frame, CONTINUATIONs. */
  private headersFrames(id: number, block: Buffer, endStream: boolean): Buffer[] {
    const frames: Buffer[] = [];
    let at = 0;
    do {
      const piece = block.subarray(at, at + this.peerMaxFrame);
      const first = at === 0;
      at += piece.length;
      const flags = (at >= block.length ? END_HEADERS : 0) | (first && endStream ? END_STREAM : 0);
      frames.push(frame(first ? HEADERS : CONTINUATION, flags, id, piece));
    } while (at < block.length);
    return frames;
  }

  /** The call's stream is done with (answered and ended, or reset): forgotten, and the connection ended if it is going away and idle. */
  close(call: Call): void {
    if (call.closed) return;
    call.closed = true;
    this.calls.delete(call.id);
    if (call.pending) {
      call.pending.sent();
      call.pending = undefined;
      outgoing.delete(call);
    }
    if (this.goingAway && this.calls.size === 0) this.end();
  }

  /** GOAWAY (no new calls); the connection ends once the calls in flight are answered. */
  goAway(): void {
    if (this.goingAway || this.ended) return;
    this.goingAway = true;
    this.write(frame(GOAWAY, 0, 0, Buffer.concat([u32(this.lastStream), u32(NO_ERROR)])));
    if (this.calls.size === 0) this.end();
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    const out = this.out;
    this.out = undefined;
    if (out && out.length > 0) this.socket.end(Buffer.concat(out));
    else this.socket.end();
  }

  destroy(): void {
    this.ended = true;
    this.socket.destroy();
  }
}

/** A frame's payload without its padding (§6.1: a length byte, the data, that many bytes). */
function unpad(p: Buffer): Buffer {
  if (p.length < 1 || p[0] >= p.length) throw new ConnectionError(PROTOCOL_ERROR, "padding longer than its frame");
  return p.subarray(1, p.length - p[0]);
}

interface ServerState {
  readonly routes: ReadonlyMap<string, Route>;
  readonly maxReceive: number;
}

/**
 * Serves `handlers` (by method name) for the unary methods of `service` on a loopback port.
 * Methods without a handler, and streaming ones, answer UNIMPLEMENTED.
 */
export function serveUnary(service: Readonly<Record<string, MethodDefinition>>, handlers: UnaryHandlers, options: UnaryServerOptions = {}): Promise<UnaryServer> {
  const routes = new Map<string, Route>();
  for (const [name, def] of Object.entries(service)) {
    const handler = def.requestStream || def.responseStream ? undefined : (handlers[name] as UnaryHandler | undefined);
    routes.set(def.path, { name, def, handler });
  }
  const state: ServerState = { routes, maxReceive: options.maxReceiveMessageLength ?? 400 * 1024 * 1024 };
  const connections = new Set<Connection>();
  let closing = false;
  const server = net.createServer((socket) => {
    const conn = new Connection(socket, state);
    connections.add(conn);
    socket.once("close", () => connections.delete(conn));
    if (closing) conn.goAway();
  });

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      // A failure of the listening socket after this is not a call's: the process reports it as any uncaught error.
      resolve({
        port: (server.address() as AddressInfo).port,
        shutdown(done) {
          closing = true;
          server.close(() => done());
          // GOAWAY, and each connection closes once its calls in flight are answered.
          for (const c of connections) c.goAway();
        },
        forceShutdown() {
          closing = true;
          for (const c of connections) c.destroy();
          server.close();
        },
      });
    });
  });
}
