/**
 * The built native plugin (bin/pulumi-resource-wavix) spawned as the engine spawns it (its port read
 * from its first line), and a gRPC client of it on the stubs `@pulumi/pulumi` ships: the client of
 * scripts/plugin-client.js, typed for the tests.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { ROOT } from "./real-pulumi";

interface PluginClient {
  providerStubs(): unknown;
  portOf(child: ChildProcess): Promise<number>;
  connect(stubs: unknown, port: number): { client: { close(): void }; call(method: string, req: unknown): Promise<unknown> };
}

const pluginClient = require(path.join(ROOT, "scripts", "plugin-client.js")) as PluginClient;

export interface SpawnedPlugin {
  readonly child: ChildProcess;
  /** A unary call; a refusal rejects with `method: details`. */
  call<T>(method: string, req: unknown): Promise<T>;
  /** Closes the client; the process is the caller's to stop. */
  closeClient(): void;
}

/** Spawns the plugin (`nodeArgs` before the launcher, `--require` a preload for one), connects a client. */
export async function spawnPlugin(options: { nodeArgs?: string[]; cwd?: string } = {}): Promise<SpawnedPlugin> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), path.join(ROOT, "bin", "pulumi-resource-wavix"), "127.0.0.1:1"], { cwd: options.cwd, stdio: ["ignore", "pipe", "inherit"] });
  try {
    const port = await pluginClient.portOf(child);
    const { client, call } = pluginClient.connect(pluginClient.providerStubs(), port);
    return { child, call: call as SpawnedPlugin["call"], closeClient: () => client.close() };
  } catch (err) {
    child.kill("SIGKILL");
    throw err;
  }
}
