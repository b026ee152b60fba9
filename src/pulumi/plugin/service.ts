/**
 * The ResourceProvider service's methods as the plugin serves them (src/pulumi/plugin/h2-server.ts):
 * each method's path and its messages' classes from the stubs `@pulumi/pulumi` ships
 * (proto/provider_pb.js, plugin_pb.js, google-protobuf's Empty), read and written as
 * proto/provider_grpc_pb.js's `ResourceProviderService` does. That module is not loaded: it loads
 * `@grpc/grpc-js`, some 65 ms of every plugin start the server no longer needs (docs/SPEED.md,
 * "The native plugin's start"). test/pulumi/plugin-service.test.ts holds this table to it: the
 * same methods, paths and message classes. A class is looked up by the method's first call, so
 * that the stubs load only when a method that needs them is called: `fastService` serves the
 * calls of every instance without them (src/pulumi/plugin/fast-wire.ts, fast-answers.ts).
 */
import type { MethodDefinition } from "./h2-server";
import type { Stubs } from "./server";
import { RawConfigureRequest, RawMessage, readCheckRequest, readDiffRequest } from "./fast-wire";
import { CheckResponseOut, ConfigureResponseOut, DiffResponseOut, EmptyOut, PluginInfoOut, SchemaResponseOut } from "./fast-answers";

/** A generated message class: `deserializeBinary` and instances that `serializeBinary`. */
interface MessageClass {
  deserializeBinary(bytes: Uint8Array): unknown;
  name: string;
}

/** The methods the plugin serves: the request's and the answer's message, by name in provider_pb (else as named). */
const SERVED: Readonly<Record<string, readonly [request: string, response: string]>> = {
  getSchema: ["GetSchemaRequest", "GetSchemaResponse"],
  checkConfig: ["CheckRequest", "CheckResponse"],
  diffConfig: ["DiffRequest", "DiffResponse"],
  configure: ["ConfigureRequest", "ConfigureResponse"],
  invoke: ["InvokeRequest", "InvokeResponse"],
  check: ["CheckRequest", "CheckResponse"],
  diff: ["DiffRequest", "DiffResponse"],
  create: ["CreateRequest", "CreateResponse"],
  read: ["ReadRequest", "ReadResponse"],
  update: ["UpdateRequest", "UpdateResponse"],
  delete: ["DeleteRequest", "Empty"],
  cancel: ["Empty", "Empty"],
  getPluginInfo: ["Empty", "PluginInfo"],
};

/** The methods the plugin serves (the provider's handlers: src/pulumi/plugin/server.ts). */
export const SERVED_METHODS: readonly string[] = Object.keys(SERVED);

/** The service's other methods: answered UNIMPLEMENTED by their name, as `@grpc/grpc-js` answers them (List streams its answer). */
const UNSERVED: Readonly<Record<string, { readonly responseStream?: true }>> = {
  handshake: {},
  parameterize: {},
  call: {},
  list: { responseStream: true },
  construct: {},
  attach: {},
  getMapping: {},
  getMappings: {},
};

const pathOf = (method: string): string => `/pulumirpc.ResourceProvider/${method[0].toUpperCase()}${method.slice(1)}`;

/** The ResourceProvider service definition over the stubs' message classes. */
export function resourceProviderService(stubs: Pick<Stubs, "provider" | "plugin" | "Empty">): Record<string, MethodDefinition> {
  const classOf = (name: string): MessageClass =>
    (name === "Empty" ? stubs.Empty : name === "PluginInfo" ? stubs.plugin.PluginInfo : (stubs.provider as unknown as Record<string, MessageClass>)[name]) as unknown as MessageClass;
  const out: Record<string, MethodDefinition> = {};
  for (const [method, [request, response]] of Object.entries(SERVED)) {
    out[method] = {
      path: pathOf(method),
      requestStream: false,
      responseStream: false,
      requestDeserialize: (bytes) => classOf(request).deserializeBinary(bytes),
      responseSerialize: (value: { serializeBinary(): Uint8Array }) => {
        // As the generated serializers do: an answer of another type is a bug, not bytes to send.
        if (!(value instanceof (classOf(response) as unknown as new () => unknown))) throw new Error(`Expected argument of type ${response === "Empty" ? "google.protobuf" : "pulumirpc"}.${response}`);
        return value.serializeBinary();
      },
    };
  }
  for (const [method, shape] of Object.entries(UNSERVED)) {
    out[method] = {
      path: pathOf(method),
      requestStream: false,
      responseStream: shape.responseStream === true,
      requestDeserialize: () => {
        throw new Error(`${method} is not served`);
      },
      responseSerialize: () => {
        throw new Error(`${method} is not served`);
      },
    };
  }
  return out;
}

/** An answer's class: one with `serializeBinary` (src/pulumi/plugin/fast-answers.ts). */
type AnswerClass = abstract new (...args: never[]) => { serializeBinary(): Uint8Array };

/**
 * The methods served without the stubs: each request's reader (src/pulumi/plugin/fast-wire.ts) and
 * the class of its answer (src/pulumi/plugin/fast-answers.ts), which writes the stubs' bytes.
 * test/pulumi/plugin-fast-answers.test.ts holds both to the stubs.
 */
export const HAND_SERVED: Readonly<Record<string, readonly [read: (bytes: Buffer) => unknown, answer: AnswerClass]>> = {
  getPluginInfo: [(b) => RawMessage.read(b), PluginInfoOut],
  getSchema: [(b) => RawMessage.read(b, true), SchemaResponseOut],
  checkConfig: [readCheckRequest, CheckResponseOut],
  diffConfig: [readDiffRequest, DiffResponseOut],
  configure: [RawConfigureRequest.read, ConfigureResponseOut],
  check: [readCheckRequest, CheckResponseOut],
  diff: [readDiffRequest, DiffResponseOut],
  cancel: [(b) => RawMessage.read(b), EmptyOut],
};

/** The service definition with the methods of {@link HAND_SERVED} read and written by hand; the others as given (the stubs'). */
export function fastService<S extends Readonly<Record<string, object>>>(service: S): S {
  const out: Record<string, object> = { ...service };
  for (const [method, [read, answer]] of Object.entries(HAND_SERVED)) {
    if (!service[method]) continue;
    out[method] = {
      ...service[method],
      requestDeserialize: read,
      responseSerialize: (value: { serializeBinary(): Uint8Array }) => {
        // As the generated serializers do: an answer of another type is a bug, not bytes to send.
        if (!(value instanceof answer)) throw new Error(`Expected argument of type ${answer.name} for ${method}`);
        return value.serializeBinary();
      },
    };
  }
  return out as S;
}
