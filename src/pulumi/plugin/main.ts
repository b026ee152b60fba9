/**
 * `pulumi-resource-wavix` (package.json `bin`): the native provider plugin's process, as the
 * engine's plugin protocol asks (pulumi/pulumi pkg/resource/plugin/plugin.go): started with the
 * engine's address as its last argument, it serves the ResourceProvider service on a loopback
 * port, prints that port as the first line of its standard output, and serves until the engine
 * interrupts it (SIGINT, then SIGKILL after 5 s) — it then stops taking calls and exits.
 *
 * Nothing else goes to standard output; standard error is shown by the engine, so only a failure
 * to start is written there (one line). Start-up loads only the stubs' message classes before
 * printing the port; an instance that serves resources (its first CheckConfig, Configure or Check) then loads
 * the settings' checks, the API client and the file's checks a small step at a time between the
 * engine's calls, and the other kinds once the first resource call is answered
 * (WavixProvider.preloadSteps); one that only answers GetSchema never loads them.
 */
import { createRequire } from "node:module";
import type { Stubs } from "./server";
import { fastService } from "./fast-wire";
import { afterAnswersSent, serveUnary } from "./h2-server";
import { resourceProviderService } from "./service";

/**
 * The stubs `@pulumi/pulumi` ships, and the gRPC library they load (so their classes match). The
 * message classes load now; `@grpc/grpc-js` and the service definition that loads it only when
 * asked for (the plugin serves on its own HTTP/2 server, src/pulumi/plugin/h2-server.ts: a test's client needs them).
 */
export function loadStubs(): Stubs {
  let from: NodeJS.Require;
  try {
    from = createRequire(require.resolve("@pulumi/pulumi/proto/provider_pb"));
  } catch {
    throw new Error("pulumi-resource-wavix needs the package @pulumi/pulumi installed beside wavix-sync (npm install @pulumi/pulumi)");
  }
  return {
    get grpc() {
      return from("@grpc/grpc-js");
    },
    provider: from("./provider_pb"),
    plugin: from("./plugin_pb"),
    Struct: from("google-protobuf/google/protobuf/struct_pb").Struct,
    Empty: from("google-protobuf/google/protobuf/empty_pb").Empty,
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

/** Starts the server; resolves with the port once it is printed. */
export function main(): Promise<number> {
  let stubs: Stubs;
  try {
    stubs = loadStubs();
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  const { WavixProvider } = require("./server") as typeof import("./server");
  const provider: import("./server").WavixProvider = new WavixProvider(stubs, { onServing: () => preload(provider.preloadSteps()) });
  // Check and Diff, the calls made once per resource, are read from their bytes (src/pulumi/plugin/fast-wire.ts);
  // the calls are served on HTTP/2 framed by hand on the socket (src/pulumi/plugin/h2-server.ts).
  return serveUnary(fastService(resourceProviderService(stubs)), provider.handlers()).then(
    (server) => {
      // The engine reads the port from the first line of standard output.
      process.stdout.write(`${server.port}\n`);
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
