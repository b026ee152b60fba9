/**
 * Warnings raised inside the dynamic-provider host (the client's contract-drift notices), shown
 * by Pulumi as warnings rather than dropped. The engine starts every provider plugin with its own
 * address as the first argument (`node cmd/dynamic-provider/index.js <engine>`), and its Engine
 * service takes `Log` calls from plugins as from programs (pulumi/pulumi
 * pkg/resource/plugin/host_server.go). Without an address (a test, a script), stderr.
 */
import { createRequire } from "node:module";

type LogFn = (message: string) => void;

let send: LogFn | undefined;
const seen = new Set<string>();

/** A `Log` client to the engine at `address`, built from the proto stubs `@pulumi/pulumi` ships. */
function engineLogger(address: string): LogFn {
  const fromPulumi = createRequire(require.resolve("@pulumi/pulumi/proto/engine_grpc_pb"));
  // The grpc-js instance the stubs themselves load, so credentials and client classes match.
  const grpc = fromPulumi("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
  const rpc = fromPulumi("./engine_grpc_pb") as typeof import("@pulumi/pulumi/proto/engine_grpc_pb");
  const pb = fromPulumi("./engine_pb") as typeof import("@pulumi/pulumi/proto/engine_pb");
  const client = new rpc.EngineClient(address, grpc.credentials.createInsecure());
  return (message) => {
    const req = new pb.LogRequest();
    req.setSeverity(pb.LogSeverity.WARNING);
    req.setMessage(message);
    client.log(req, (err) => {
      if (err) process.stderr.write(`warning: ${message}\n`);
    });
  };
}

/** Sends `message` to the engine as a warning, once per host process. */
export function warnEngine(message: string): void {
  if (seen.has(message)) return;
  seen.add(message);
  if (!send) {
    const address = process.argv[2];
    send = address && /^[\w.-]+:\d+$/.test(address) ? engineLogger(address) : (m) => process.stderr.write(`warning: ${m}\n`);
  }
  send(message);
}
