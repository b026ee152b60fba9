#!/usr/bin/env node
/**
 * The nodejs language host for the tests' Pulumi CLI (test-only; `npm run pulumi:cli` puts a
 * launcher named `pulumi-language-nodejs` beside the CLI, where the engine looks for it first).
 *
 * Why a stand-in: the Go module of Pulumi's own host
 * (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3) is not served by the module
 * proxy this project can reach. What the engine needs of a language host to run a program is small
 * and this file does exactly what Pulumi's host does for it, step by step
 * (sdk/nodejs/cmd/pulumi-language-nodejs/main.go in pulumi/pulumi, v3.259):
 *
 * - start: flags `-tracing`, `-runtime`; the first argument is the engine's address; serve the
 *   LanguageRuntime service on a free loopback port and print the port on stdout (`main`);
 * - `Handshake`: remember the engine's address;
 * - `GetRequiredPlugins` / `GetRequiredPackages`: none (our projects use no provider package; the
 *   engine loads the dynamic-provider plugin on the first registration that names it);
 * - `Run` (`Run`, `execRuntime`, `constructArguments`, `constructConfig`): locate
 *   `@pulumi/pulumi/cmd/run` from the program directory with `require.resolve`, then run
 *   `node <runPath> --monitor … --engine … --organization … --project … --root-directory …
 *   --stack … --pwd <program dir> [--dry-run] --parallel N <entry point> <args>` with
 *   `PULUMI_CONFIG` (keys as `<namespace>:config:<name>`), `PULUMI_CONFIG_SECRET_KEYS` and
 *   `PULUMI_NODEJS_TYPESCRIPT=true` unless the project's runtime options say `typescript: false`
 *   (`tsconfig` → `PULUMI_NODEJS_TSCONFIG_PATH`, `nodeargs` before the run path); exit code 32 is
 *   a "bail" (the program already printed an actionable message), another non-zero code is
 *   "Program exited with non-zero exit code: N";
 * - `Cancel`: interrupt the program (SIGINT).
 *
 * Left out, because no test needs them: the monitor proxy and synchronous-invoke pipes (the
 * runner talks to the engine's monitor directly; our programs make no synchronous invokes),
 * tracing, the debugger, bun, and the code generation, packing and dependency-installation
 * methods (answered UNIMPLEMENTED). It exits when the engine that started it is gone.
 */
"use strict";
const { spawn, execFileSync } = require("node:child_process");
const path = require("node:path");

// The gRPC runtime and Pulumi's protocol stubs, from this repository's own @pulumi/pulumi.
const ROOT = path.resolve(__dirname, "..", "..");
const from = (m) => require(require.resolve(m, { paths: [ROOT] }));
const grpc = from("@grpc/grpc-js");
const langrpc = from("@pulumi/pulumi/proto/language_grpc_pb.js");
const langproto = from("@pulumi/pulumi/proto/language_pb.js");
const pluginproto = from("@pulumi/pulumi/proto/plugin_pb.js");

const VERSION = "3.259.0";
const BAIL = 32;

const args = process.argv.slice(2).filter((a) => !a.startsWith("-"));
let engineAddress = args[0] ?? "";
const running = new Set();

function locateRun(programDir) {
  const script = "console.log(require.resolve('@pulumi/pulumi/cmd/run'))";
  try {
    return execFileSync(process.execPath, ["-e", script], { cwd: programDir, encoding: "utf8" }).trim();
  } catch {
    throw new Error("It looks like the Pulumi SDK has not been installed. Have you run pulumi install?");
  }
}

function run(call, callback) {
  const req = call.request;
  const info = req.getInfo();
  const resp = new langproto.RunResponse();
  let runPath;
  try {
    runPath = locateRun(info.getProgramDirectory());
  } catch (e) {
    resp.setError(e.message);
    return callback(null, resp);
  }
  const options = info.getOptions()?.toJavaScript() ?? {};
  const argv = [runPath];
  const add = (k, v) => {
    if (v !== undefined && v !== null && v !== "") argv.push(`--${k}`, String(v));
  };
  add("monitor", req.getMonitorAddress());
  add("engine", engineAddress);
  add("organization", req.getOrganization());
  add("project", req.getProject());
  add("root-directory", info.getRootDirectory());
  add("stack", req.getStack());
  add("pwd", info.getProgramDirectory());
  if (req.getDryrun()) argv.push("--dry-run");
  add("parallel", req.getParallel());
  argv.push(info.getEntryPoint(), ...req.getArgsList());

  const config = {};
  req.getConfigMap().forEach((v, k) => {
    const i = k.indexOf(":");
    config[`${k.slice(0, i)}:config:${k.slice(i + 1)}`] = v;
  });
  const env = {
    ...process.env,
    PULUMI_CONFIG: JSON.stringify(config),
    PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(req.getConfigsecretkeysList()),
  };
  if (options.typescript !== false) env.PULUMI_NODEJS_TYPESCRIPT = "true";
  if (typeof options.tsconfig === "string") env.PULUMI_NODEJS_TSCONFIG_PATH = options.tsconfig;
  const nodeArgs = typeof options.nodeargs === "string" && options.nodeargs.trim() ? options.nodeargs.trim().split(/\s+/) : [];

  const child = spawn(process.execPath, [...nodeArgs, ...argv], { env, stdio: ["ignore", "inherit", "inherit"] });
  running.add(child);
  child.on("error", (e) => {
    running.delete(child);
    resp.setError(`Problem executing program (could not run language executor): ${e.message}`);
    callback(null, resp);
  });
  child.on("exit", (code, signal) => {
    running.delete(child);
    if (code === BAIL) resp.setBail(true);
    else if (code !== 0) resp.setError(`Program exited with non-zero exit code: ${code ?? signal}`);
    callback(null, resp);
  });
}

const service = {
  handshake(call, callback) {
    engineAddress = call.request.getEngineAddress();
    callback(null, new langproto.LanguageHandshakeResponse());
  },
  getRequiredPlugins(_call, callback) {
    callback(null, new langproto.GetRequiredPluginsResponse());
  },
  getRequiredPackages(_call, callback) {
    callback(null, new langproto.GetRequiredPackagesResponse());
  },
  getPluginInfo(_call, callback) {
    const r = new pluginproto.PluginInfo();
    r.setVersion(VERSION);
    callback(null, r);
  },
  run,
  cancel(_call, callback) {
    for (const child of running) child.kill("SIGINT");
    callback(null, new (from("google-protobuf/google/protobuf/empty_pb.js").Empty)());
  },
};

const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
server.addService(langrpc.LanguageRuntimeService, service);
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) {
    process.stderr.write(`could not start language host RPC server: ${err.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`${port}\n`);
});

// Pulumi's host health-checks the engine and stops with it; here: stop when the parent is gone.
const parent = process.ppid;
setInterval(() => {
  try {
    process.kill(parent, 0);
  } catch {
    for (const child of running) child.kill("SIGKILL");
    process.exit(0);
  }
}, 1000).unref();
