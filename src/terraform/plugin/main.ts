/**
 * `terraform-provider-wavix` (package.json `bin`): the provider plugin's process, as OpenTofu and
 * Terraform start it through HashiCorp's go-plugin (docs/TERRAFORM.md, "How the provider works"):
 *
 *  - it refuses to run unless TF_PLUGIN_MAGIC_COOKIE holds the engines' cookie (it is a plugin, not
 *    a command), and speaks protocol 6 only (PLUGIN_PROTOCOL_VERSIONS must offer it);
 *  - it serves `tfplugin6.Provider` (proto/tfplugin6.proto), go-plugin's `plugin.GRPCController`
 *    (Shutdown: exit) and `plugin.GRPCStdio` (proto/go-plugin.proto) on a loopback TCP port
 *    (PLUGIN_MIN_PORT..PLUGIN_MAX_PORT when given), with mutual TLS when the engine sends its client
 *    certificate in PLUGIN_CLIENT_CERT (it always does): only that certificate is accepted;
 *  - it prints one line, `1|6|tcp|127.0.0.1:PORT|grpc|<its certificate, base64>`, and nothing else
 *    on standard output; it exits when the engine says Shutdown, or on SIGINT/SIGTERM.
 */
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { packageRoot } from "../../util/package-root";
import { makePluginCert } from "./cert";

/** The cookie OpenTofu and Terraform set for their plugins (go-plugin's handshake). */
export const MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE";
export const MAGIC_COOKIE_VALUE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";
/** go-plugin's own protocol version (the line's first field), and the plugin protocol spoken. */
const CORE_PROTOCOL_VERSION = 1;
const PROTOCOL_VERSION = 6;

function fail(message: string): never {
  process.stderr.write(`terraform-provider-wavix: ${message}\n`);
  process.exit(1);
}

interface Loaded {
  tfplugin6: { Provider: { service: grpc.ServiceDefinition } };
  plugin: { GRPCController: { service: grpc.ServiceDefinition }; GRPCStdio: { service: grpc.ServiceDefinition } };
}

function load(): Loaded {
  const dir = path.join(packageRoot(), "proto");
  const def = protoLoader.loadSync([path.join(dir, "tfplugin6.proto"), path.join(dir, "go-plugin.proto")], {
    keepCase: true,
    longs: Number,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  return grpc.loadPackageDefinition(def) as unknown as Loaded;
}

async function bind(server: grpc.Server, credentials: grpc.ServerCredentials): Promise<number> {
  const min = Number(process.env.PLUGIN_MIN_PORT ?? 0);
  const max = Number(process.env.PLUGIN_MAX_PORT ?? 0);
  const ports = min > 0 && max >= min ? Array.from({ length: max - min + 1 }, (_, i) => min + i) : [0];
  for (const port of ports) {
    try {
      return await new Promise<number>((resolve, reject) => server.bindAsync(`127.0.0.1:${port}`, credentials, (err, p) => (err ? reject(err) : resolve(p))));
    } catch (err) {
      if (port === ports.at(-1)) throw err;
    }
  }
  throw new Error("no port to listen on");
}

/** Starts the plugin; resolves with the port once the handshake line is printed. */
export async function main(): Promise<number> {
  if (process.env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) {
    fail("this is a plugin of OpenTofu and Terraform, not a command: they start it themselves (docs/TERRAFORM.md tells how to install it)");
  }
  const offered = (process.env.PLUGIN_PROTOCOL_VERSIONS ?? String(PROTOCOL_VERSION)).split(",").map((v) => Number(v.trim()));
  if (!offered.includes(PROTOCOL_VERSION)) fail(`the engine offers plugin protocol ${offered.join(", ")}; this provider speaks protocol ${PROTOCOL_VERSION} (OpenTofu >= 1.0, Terraform >= 1.0)`);

  const loaded = load();
  const { TerraformProvider } = require("./server") as typeof import("./server");
  const server = new grpc.Server({
    "grpc.max_receive_message_length": 256 * 1024 * 1024,
    "grpc.max_send_message_length": 256 * 1024 * 1024,
  });
  const exit = () => {
    const forced = setTimeout(() => {
      server.forceShutdown();
      process.exit(0);
    }, 2000);
    forced.unref();
    server.tryShutdown(() => process.exit(0));
  };
  server.addService(loaded.tfplugin6.Provider.service, new TerraformProvider().handlers() as unknown as grpc.UntypedServiceImplementation);
  server.addService(loaded.plugin.GRPCController.service, {
    Shutdown: (_call: unknown, callback: grpc.sendUnaryData<object>) => {
      callback(null, {});
      setImmediate(exit);
    },
  });
  // Nothing is written to standard output or error after the handshake: the stream stays open, empty.
  server.addService(loaded.plugin.GRPCStdio.service, { StreamStdio: () => undefined });

  const clientCert = process.env.PLUGIN_CLIENT_CERT;
  let credentials = grpc.ServerCredentials.createInsecure();
  let certField = "";
  if (clientCert) {
    const own = makePluginCert();
    credentials = grpc.ServerCredentials.createSsl(Buffer.from(clientCert), [{ cert_chain: Buffer.from(own.certPem), private_key: Buffer.from(own.keyPem) }], true);
    certField = own.handshake;
  }
  let port: number;
  try {
    port = await bind(server, credentials);
  } catch (err) {
    fail(`cannot listen on a loopback port: ${err instanceof Error ? err.message : String(err)}`);
  }
  process.stdout.write(`${CORE_PROTOCOL_VERSION}|${PROTOCOL_VERSION}|tcp|127.0.0.1:${port}|grpc|${certField}\n`);
  process.once("SIGINT", exit);
  process.once("SIGTERM", exit);
  return port;
}
