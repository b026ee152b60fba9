#!/usr/bin/env node
// Captures the dynamic resources a compiled (CommonJS) module declares, under
// `pulumi.runtime.setMocks`, and prints them as JSON on stdout.
//
// Why a plain Node script and not code inside vitest: Pulumi's closure serializer
// (`@pulumi/pulumi/runtime/closure`) reads the real source text of every function the
// provider reaches (Function.prototype.toString + V8 inspector). Under vitest the sources
// are transformed, so the serialized provider would not be what `pulumi up` stores. Run it
// with `node test/helpers/pulumi-capture.js <module> <export> [argsJson]`; the helper
// `capturePulumiResources()` in pulumi-host.ts does that for tests.
//
// Usage: node pulumi-capture.js <modulePath> <exportName> [argsJson]
//   modulePath  absolute path (or relative to cwd) of a compiled CommonJS file
//   exportName  the export to run: a function (called with the parsed argsJson, may return
//               a promise) or a class (constructed as `new X(name, args)`: argsJson must then
//               be `{"name": "...", "args": {...}, "opts": {...}}`)
//   argsJson    optional JSON argument (default `{}`)
//
// Output (stdout, one JSON document): { "resources": CapturedResource[] } where
//   CapturedResource = {
//     type, name, urn, custom,
//     inputs,            // deserialized inputs; secrets stay as {"4dabf…": "1b47…", value} wrappers
//     secretInputs,      // top-level input keys whose value was a secret
//     provider,          // the serialized provider source (`__provider`), unwrapped if secret
//     providerIsSecret,  // true when the closure captured a secret Output
//     options: { additionalSecretOutputs, ignoreChanges, replaceOnChanges, protect,
//                deleteBeforeReplace, retainOnDelete, parent, dependencies, aliases }
//   }
// Only resources whose type starts with `pulumi-nodejs:dynamic` (the dynamic resource token,
// `pulumi-nodejs:dynamic[/<module>]:<type>`) are listed unless `PULUMI_CAPTURE_ALL=1`.
// Errors go to stderr with exit code 1.
//
// Batch: `node pulumi-capture.js --batch` reads a JSON list of jobs `[{modulePath, exportName,
// args}]` on stdin and runs them one after another in this one process, each under its own
// `setMocks` (which resets the runtime's store: stack resource, monitor, RPC queue), printing
// `{ "batch": [{ "resources": [...] } | { "error": "..." }] }`, exit 1 when a job failed. Loading @pulumi/pulumi is nearly all
// of a capture's cost (some 0.8 CPU-s of its 0.85 on this project's machine): captures a test
// starts together share one load (pulumi-host.ts `capturePulumiResources` batches them).
"use strict";

const path = require("node:path");

const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
const DYNAMIC_PREFIX = "pulumi-nodejs:dynamic";

function isSecret(v) {
  return v !== null && typeof v === "object" && v[SECRET_SIG_KEY] === SECRET_SIG;
}

async function main(argv) {
  if (argv[0] === "--batch") {
    const jobs = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
    const batch = [];
    for (const job of jobs) {
      try {
        batch.push({ resources: await capture(job.modulePath, job.exportName, job.args ?? {}) });
      } catch (err) {
        batch.push({ error: err && err.stack ? err.stack : String(err) });
      }
    }
    // Written before process.exit: a pipe is written asynchronously, and a batch's output is large.
    await new Promise((done) => process.stdout.write(JSON.stringify({ batch }) + "\n", done));
    // As a single capture: a failed one exits 1 (the promises it left pending are its error's, not
    // leaks); otherwise 0, and the runtime's exit check still fails the process on leaked promises.
    return batch.some((b) => b.error !== undefined) ? 1 : 0;
  }
  const [modulePath, exportName, argsJson] = argv;
  if (!modulePath || !exportName) {
    throw new Error("usage: pulumi-capture.js <modulePath> <exportName> [argsJson] | --batch");
  }
  const resources = await capture(modulePath, exportName, argsJson ? JSON.parse(argsJson) : {});
  await new Promise((done) => process.stdout.write(JSON.stringify({ resources }) + "\n", done));
}

/** The dynamic resources `exportName` of `modulePath` declares, called with `args`, under fresh mocks. */
async function capture(modulePath, exportName, args) {
  const captureAll = process.env.PULUMI_CAPTURE_ALL === "1";

  // Resolve @pulumi/pulumi from the module under test so both share ONE runtime instance
  // (two copies would mean two runtime stores and the mocks would never see the resources).
  const absModule = path.resolve(modulePath);
  const pulumiPath = require.resolve("@pulumi/pulumi", { paths: [path.dirname(absModule), process.cwd()] });
  const pulumi = require(pulumiPath);
  const settings = require(path.join(path.dirname(pulumiPath), "runtime", "settings.js"));

  /** @type {Map<string, object>} keyed by URN; filled by the monitor wrapper below */
  const captured = new Map();
  let counter = 0;

  await pulumi.runtime.setMocks(
    {
      newResource(a) {
        // Outputs = inputs (as an engine would after create) and a stable fake id.
        counter += 1;
        return { id: a.custom ? `${a.name}-id` : undefined, state: a.inputs };
      },
      call(a) {
        return a.inputs;
      },
    },
    process.env.PULUMI_CAPTURE_PROJECT || "project",
    process.env.PULUMI_CAPTURE_STACK || "stack",
    false,
  );

  // setMocks' newResource() does not see resource options (additionalSecretOutputs, …), so wrap
  // the mock monitor's registerResource and read them from the RegisterResourceRequest itself,
  // exactly what the engine would receive.
  const monitor = settings.getMonitor();
  const originalRegister = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req, callback) => {
    const type = req.getType();
    const name = req.getName();
    const wrapped = (err, resp) => {
      if (!err && resp && (captureAll || type.startsWith(DYNAMIC_PREFIX))) {
        const raw = req.getObject() ? req.getObject().toJavaScript() : {};
        const inputs = pulumi.runtime.deserializeProperties(req.getObject());
        const providerValue = inputs.__provider;
        const rec = {
          type,
          name,
          urn: resp.getUrn(),
          custom: req.getCustom(),
          inputs,
          secretInputs: Object.keys(raw).filter((k) => isSecret(raw[k])),
          provider: isSecret(providerValue) ? providerValue.value : providerValue,
          providerIsSecret: isSecret(providerValue),
          options: {
            additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
            ignoreChanges: req.getIgnorechangesList(),
            replaceOnChanges: req.getReplaceonchangesList(),
            protect: req.getProtect(),
            deleteBeforeReplace: req.getDeletebeforereplace(),
            retainOnDelete: req.getRetainondelete(),
            parent: req.getParent(),
            dependencies: req.getDependenciesList(),
            aliases: req.getAliasesList().map((a) => a.toObject()),
          },
        };
        captured.set(rec.urn, rec);
      }
      callback(err, resp);
    };
    return originalRegister(req, wrapped);
  };

  const mod = require(absModule);
  const target = mod[exportName];
  if (target === undefined) {
    throw new Error(`module ${modulePath} has no export ${exportName}`);
  }
  const isClass = typeof target === "function" && /^class\b/.test(Function.prototype.toString.call(target));
  let result;
  if (isClass) {
    result = new target(args.name, args.args ?? {}, args.opts);
  } else if (typeof target === "function") {
    result = await target(args);
  } else {
    throw new Error(`export ${exportName} is neither a function nor a class`);
  }
  void result;

  // Registrations are asynchronous (inputs are Outputs, the provider is serialized through a
  // promise). The runtime keeps an RPC queue (`rpcKeepAlive`); drain it, bounded.
  const deadline = Date.now() + 60_000;
  for (;;) {
    await settings.waitForRPCs();
    await new Promise((r) => setTimeout(r, 20));
    const before = counter;
    await settings.waitForRPCs();
    if (before === counter) break;
    if (Date.now() > deadline) throw new Error("timed out waiting for resource registrations");
  }

  return [...captured.values()];
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code ?? 0),
  (err) => {
    process.stderr.write(`pulumi-capture: ${err && err.stack ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
