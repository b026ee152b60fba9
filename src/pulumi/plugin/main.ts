/**
 * `pulumi-resource-wavix` (package.json `bin`): the native provider plugin's process, as the
 * engine's plugin protocol asks (pulumi/pulumi pkg/resource/plugin/plugin.go): started with the
 * engine's address as its last argument, it serves the ResourceProvider service on a loopback
 * port, prints that port as the first line of its standard output, and serves until the engine
 * interrupts it (SIGINT, then SIGKILL after 5 s) — it then stops taking calls and exits.
 *
 * Nothing else goes to standard output; standard error is shown by the engine, so only a failure
 * to start is written there (one line). Start-up loads only the HTTP/2 server before printing the
 * port: the provider loads with the first call that needs it (`handlersOf`), the stubs with the first
 * write (`loadStubs`). An instance that serves resources (its first CheckConfig, Configure or Check) then loads
 * the settings' checks, the API client and the file's checks a small step at a time between the
 * engine's calls, and the other kinds once the first resource call is answered
 * (WavixProvider.preloadSteps); one that only answers GetSchema never loads them.
 */
import { createRequire } from "node:module";
import type { Stubs } from "./server";
import { writeSync } from "node:fs";
import { afterAnswersSent, serveUnary, Status, type UnaryHandler, type UnaryHandlers } from "./h2-server";
import { fastService, resourceProviderService, SERVED_METHODS } from "./service";
import { PluginInfoOut, SchemaResponseOut } from "./fast-answers";
import { packageVersion } from "./version";
import { committedSchemaText } from "./schema-file";

/**
 * The stubs `@pulumi/pulumi` ships, and the gRPC library they load (so their classes match), each
 * loaded when first asked for: the calls every instance serves are read and written by hand
 * (src/pulumi/plugin/fast-wire.ts, fast-answers.ts), so an instance that only answers GetSchema, or
 * serves a stack that changes nothing, loads none of them; a write loads the message classes, a
 * test's client `@grpc/grpc-js` and the service definition. Only where `@pulumi/pulumi` is is
 * looked up now: the plugin needs it beside wavix-sync.
 */
export function loadStubs(): Stubs {
  let from: NodeJS.Require;
  try {
    from = createRequire(require.resolve("@pulumi/pulumi/proto/provider_pb"));
  } catch {
    throw new Error("pulumi-resource-wavix needs the package @pulumi/pulumi installed beside wavix-sync (npm install @pulumi/pulumi)");
  }
  const once = <T>(load: () => T): (() => T) => {
    let loaded: { value: T } | undefined;
    return () => (loaded ??= { value: load() }).value;
  };
  const provider = once(() => from("./provider_pb"));
  const plugin = once(() => from("./plugin_pb"));
  const struct = once(() => from("google-protobuf/google/protobuf/struct_pb").Struct);
  const empty = once(() => from("google-protobuf/google/protobuf/empty_pb").Empty);
  return {
    get grpc() {
      return from("@grpc/grpc-js");
    },
    get provider() {
      return provider();
    },
    get plugin() {
      return plugin();
    },
    get Struct() {
      return struct();
    },
    get Empty() {
      return empty();
    },
    get service() {
      return from("./provider_grpc_pb").ResourceProviderService;
    },
  };
}

/**
 * Runs the steps one at a time, each once the answers given before it have gone out
 * (`afterAnswersSent`): the engine's calls are served between them. A
 * step that returns a promise is waited for (the preload's second part waits for the first resource
 * call). A step that fails is left to the call that needs it, which reports it; so are the steps after it.
 */
function preload(steps: Iterator<() => void | Promise<unknown>>): void {
  const next = (): void => {
    afterAnswersSent(() => {
      let waitFor: void | Promise<unknown>;
      try {
        const step = steps.next();
        if (step.done) return;
        waitFor = step.value();
      } catch {
        // The call that needs it loads it again and reports the error.
        return;
      }
      if (waitFor instanceof Promise) waitFor.then(next, () => undefined);
      else next();
    });
  };
  next();
}

function fail(message: string): never {
  process.stderr.write(`pulumi-resource-wavix: ${message}\n`);
  process.exit(1);
}

/**
 * The handlers the engine's calls reach. The provider (src/pulumi/plugin/server.ts) is loaded by the
 * first call that needs it; until then GetPluginInfo and GetSchema are answered here, as it answers
 * them (the package's version, its schema file), so that the instance the language host starts
 * for the schema alone loads nothing more (docs/SPEED.md, "The plugin without google-protobuf").
 */
function handlersOf(stubs: Stubs): UnaryHandlers {
  let provider: UnaryHandlers | undefined;
  const served = (): UnaryHandlers => {
    if (!provider) {
      const { WavixProvider } = require("./server") as typeof import("./server");
      const p: import("./server").WavixProvider = new WavixProvider(stubs, { onServing: () => preload(p.preloadSteps()) });
      provider = p.handlers();
    }
    return provider;
  };
  let schema: SchemaResponseOut | undefined;
  const early: Record<string, UnaryHandler<never>> = {
    getPluginInfo: (_call, callback) => callback(null, new PluginInfoOut(packageVersion())),
    getSchema: (_call, callback) => {
      try {
        schema ??= new SchemaResponseOut(committedSchemaText());
      } catch (err) {
        // Unreadable: the error's message, as the provider answers a call that fails.
        callback({ code: Status.UNKNOWN, details: err instanceof Error ? err.message : String(err) });
        return;
      }
      callback(null, schema);
    },
  };
  const out: UnaryHandlers = {};
  for (const m of SERVED_METHODS) out[m] = (call, callback) => (provider === undefined && early[m] ? early[m](call, callback) : served()[m](call, callback));
  return out;
}

/** Starts the server; resolves with the port once it is printed. */
export function main(): Promise<number> {
  let stubs: Stubs;
  try {
    stubs = loadStubs();
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  // The calls every instance serves are read and written by hand (src/pulumi/plugin/fast-wire.ts,
  // fast-answers.ts); the calls are served on HTTP/2 framed by hand on the socket (src/pulumi/plugin/h2-server.ts).
  return serveUnary(fastService(resourceProviderService(stubs)), handlersOf(stubs)).then(
    (server) => {
      // The engine reads the port from the first line of standard output: written to the descriptor
      // itself (some 2 ms of every start went to setting up `process.stdout`'s stream on the pipe,
      // for this one line; nothing else is written there).
      writeSync(1, `${server.port}\n`);
      // Told to stop: finish the calls in flight (the engine waits 5 s before it kills), then exit.
      const stop = () => {
        const forced = setTimeout(() => {
          server.forceShutdown();
          process.exit(0);
        }, 4000);
        forced.unref();
        server.shutdown(() => process.exit(0));
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      return server.port;
    },
    (err: Error) => fail(`cannot listen on a loopback port: ${err.message}`),
  );
}
