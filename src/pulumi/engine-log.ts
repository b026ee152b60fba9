/**
 * Warnings raised inside a provider plugin process — the dynamic-provider host and the native
 * plugin `pulumi-resource-wavix` (the client's contract-drift notices, the kinds' warnings) — shown
 * by Pulumi as warnings rather than dropped. The engine starts every provider plugin with its own
 * address as the last argument (`pulumi-resource-wavix [--logtostderr] [-v=N] [--tracing URL]
 * <engine>`: pulumi/pulumi pkg/resource/plugin/plugin.go `buildPluginArguments`), and its Engine
 * service takes `Log` calls from plugins as from programs (pkg/resource/plugin/host_server.go).
 * Without an address (a test, a script), stderr.
 */
import { createRequire } from "node:module";

type LogFn = (message: string, urn: string) => void;

let send: LogFn | undefined;
const seen = new Set<string>();

/** The engine's address among a plugin's arguments: the last `host:port` one. */
export function engineAddressOf(args: readonly string[]): string | undefined {
  return [...args].reverse().find((a) => /^[\w.-]+:\d+$/.test(a));
}

/** A `Log` client to the engine at `address`, built from the proto stubs `@pulumi/pulumi` ships. */
function engineLogger(address: string): LogFn {
  const fromPulumi = createRequire(require.resolve("@pulumi/pulumi/proto/engine_grpc_pb"));
  // The grpc-js instance the stubs themselves load, so credentials and client classes match.
  const grpc = fromPulumi("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
  const rpc = fromPulumi("./engine_grpc_pb") as typeof import("@pulumi/pulumi/proto/engine_grpc_pb");
  const pb = fromPulumi("./engine_pb") as typeof import("@pulumi/pulumi/proto/engine_pb");
  const client = new rpc.EngineClient(address, grpc.credentials.createInsecure());
  return (message, urn) => {
    const req = new pb.LogRequest();
    req.setSeverity(pb.LogSeverity.WARNING);
    req.setMessage(message);
    if (urn) req.setUrn(urn);
    client.log(req, (err) => {
      if (err) process.stderr.write(`warning: ${message}\n`);
    });
  };
}

/**
 * Sends `message` to the engine as a warning, once per plugin process (and resource: `urn`, shown
 * under that resource when given).
 */
export function warnEngine(message: string, urn = ""): void {
  const key = `${urn}\n${message}`;
  if (seen.has(key)) return;
  seen.add(key);
  if (!send) {
    const address = engineAddressOf(process.argv.slice(2));
    send = address ? engineLogger(address) : (m) => process.stderr.write(`warning: ${m}\n`);
  }
  send(message, urn);
}
