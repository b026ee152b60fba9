"use strict";
/**
 * A client of the native Pulumi plugin (bin/pulumi-resource-wavix) that sends what the engine sends,
 * on gRPC with the stubs `@pulumi/pulumi` ships: shared by the build step that records the plugin's
 * code cache (scripts/build-code-cache.js), the plugin bench (bench/plugin-calls.js) and the test
 * of that cache (test/cli/code-cache.test.ts). Needs a built dist/ (the secret's signature,
 * src/pulumi/plugin/wire.ts).
 */
const { createRequire } = require("node:module");
const { join } = require("node:path");

const ROOT = join(__dirname, "..");
const TYPE = "wavix:index:PhoneNumber";

/** The stubs and the gRPC library they load, or undefined without `@pulumi/pulumi` (a peer dependency). */
function providerStubs(root = ROOT) {
  let from;
  try {
    from = createRequire(require.resolve("@pulumi/pulumi/proto/provider_grpc_pb", { paths: [root] }));
  } catch {
    return undefined;
  }
  return {
    grpc: from("@grpc/grpc-js"),
    pb: from("./provider_pb"),
    ResourceProviderClient: from("./provider_grpc_pb").ResourceProviderClient,
    Struct: from("google-protobuf/google/protobuf/struct_pb").Struct,
    Empty: from("google-protobuf/google/protobuf/empty_pb").Empty,
  };
}

/** `value` wrapped as the engine wraps a secret. */
function secret(value) {
  const { SIG_KEY, SECRET_SIG } = require(join(ROOT, "dist", "pulumi", "plugin", "wire.js"));
  return { [SIG_KEY]: SECRET_SIG, value };
}

/** A client of the plugin listening on `port`, and its unary calls as promises. */
function connect(stubs, port) {
  const client = new stubs.ResourceProviderClient(`127.0.0.1:${port}`, stubs.grpc.credentials.createInsecure());
  const call = (method, req) =>
    new Promise((resolve, reject) => client[method](req, (err, res) => (err ? reject(new Error(`${method}: ${err.details ?? err.message}`)) : resolve(res))));
  return { client, call };
}

/** Resolves with the port `child` prints on its first line of standard output (as the engine reads it). */
function portOf(child) {
  return new Promise((resolve, reject) => {
    let text = "";
    const onData = (d) => {
      text += d;
      const m = /^(\d+)\n/.exec(text);
      if (m) {
        child.stdout.off("data", onData);
        resolve(Number(m[1]));
      }
    };
    child.stdout.on("data", onData);
    child.once("exit", (code, signal) => reject(new Error(`the plugin exited (${code ?? signal}) before printing its port`)));
  });
}

/** CheckConfig's and Configure's requests for an API key (sent as a secret) and a base URL. */
function configRequests(stubs, apiKey, baseUrl) {
  const config = { apiKey: secret(apiKey), baseUrl };
  const checkConfig = new stubs.pb.CheckRequest();
  checkConfig.setUrn("urn:pulumi:dev::wavix::pulumi:providers:wavix::default");
  checkConfig.setNews(stubs.Struct.fromJavaScript(config));
  const configure = new stubs.pb.ConfigureRequest();
  configure.setArgs(stubs.Struct.fromJavaScript(config));
  return { checkConfig, configure };
}

/**
 * A `PhoneNumber`'s Check and Diff as a no-change `up` sends them (its inputs unchanged, its state
 * read back); `smsEnabled` in the Diff's news (default: unchanged) makes the Diff find a change.
 */
function phoneNumberRequests(stubs, number, { smsEnabled = true } = {}) {
  const urn = `urn:pulumi:dev::wavix::${TYPE}::n${number}`;
  const inputs = stubs.Struct.fromJavaScript({ number, smsEnabled: true });
  const check = new stubs.pb.CheckRequest();
  check.setUrn(urn);
  check.setType(TYPE);
  check.setName(`n${number}`);
  check.setOlds(inputs);
  check.setNews(inputs);
  check.setRandomseed(Buffer.alloc(32, 7));
  const diff = new stubs.pb.DiffRequest();
  diff.setId(number);
  diff.setUrn(urn);
  diff.setType(TYPE);
  diff.setName(`n${number}`);
  diff.setOlds(stubs.Struct.fromJavaScript({ number, smsEnabled: true, id: number, countryCode: "US", label: "" }));
  diff.setOldInputs(inputs);
  diff.setNews(smsEnabled ? inputs : stubs.Struct.fromJavaScript({ number, smsEnabled }));
  return { check, diff };
}

/**
 * A `wavix:index:Account`'s Check of `file` (as an existing resource's: its old inputs the file),
 * and the Diff that follows with the inputs that Check answered (`diffOf(checkResponse)`).
 */
function accountRequests(stubs, file) {
  const urn = "urn:pulumi:dev::wavix::wavix:index:Account::account";
  const olds = stubs.Struct.fromJavaScript({ file });
  const check = new stubs.pb.CheckRequest();
  check.setUrn(urn);
  check.setType("wavix:index:Account");
  check.setName("account");
  check.setOlds(olds);
  check.setNews(olds);
  const diffOf = (checked) => {
    const diff = new stubs.pb.DiffRequest();
    diff.setId("account");
    diff.setUrn(urn);
    diff.setType("wavix:index:Account");
    diff.setName("account");
    diff.setOlds(stubs.Struct.fromJavaScript({ file, digest: "" }));
    diff.setOldInputs(olds);
    diff.setNews(checked.getInputs());
    return diff;
  };
  return { check, diffOf };
}

module.exports = { providerStubs, secret, connect, portOf, configRequests, phoneNumberRequests, accountRequests };
