/**
 * What the tests of the plugin's gRPC server (src/pulumi/plugin/h2-server.ts) share: a method whose
 * messages are bytes as they are on the wire, a Length-Prefixed-Message as gRPC frames one, and a
 * wait for a condition.
 */
import type * as grpcTypes from "@grpc/grpc-js";
import type { MethodDefinition } from "../../src/pulumi/plugin/h2-server";

/** A unary method at `path` whose request and answer are bytes, for our server and `@grpc/grpc-js`'s client alike. */
export const bytesMethod = (path: string): MethodDefinition & grpcTypes.MethodDefinition<Buffer, Buffer> => ({
  path,
  requestStream: false,
  responseStream: false,
  requestSerialize: (b: Buffer) => b,
  requestDeserialize: (b: Buffer) => Buffer.from(b),
  responseSerialize: (b: Buffer) => b,
  responseDeserialize: (b: Buffer) => b,
});

/** A Length-Prefixed-Message, uncompressed (grpc/grpc doc/PROTOCOL-HTTP2.md). */
export function lengthPrefixed(message: Buffer): Buffer {
  const out = Buffer.alloc(message.length + 5);
  out.writeUInt32BE(message.length, 1);
  message.copy(out, 5);
  return out;
}

/** Resolves once `cond` holds; fails after `ms`. */
export async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 5));
  }
}
