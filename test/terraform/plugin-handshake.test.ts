/**
 * The plugin process as go-plugin starts it (src/terraform/plugin/main.ts): it refuses to run
 * without the engines' magic cookie; with it and a client certificate (PLUGIN_CLIENT_CERT), it prints
 * `1|6|tcp|127.0.0.1:PORT|grpc|<certificate>` and serves tfplugin6 over mutual TLS — a client with
 * that certificate gets the schema, a client with another certificate is refused — and exits on
 * GRPCController.Shutdown. The real engine's side is test/terraform/real-tofu-lifecycle.test.ts.
 */
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { describe, expect, it } from "vitest";
import { makePluginCert } from "../../src/terraform/plugin/cert";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../../src/terraform/plugin/main";

const ROOT = path.resolve(__dirname, "..", "..");
const BIN = path.join(ROOT, "bin", "terraform-provider-wavix");

const pem = (b64: string) => `-----BEGIN CERTIFICATE-----\n${Buffer.from(b64, "base64").toString("base64").match(/.{1,64}/g)!.join("\n")}\n-----END CERTIFICATE-----\n`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

describe("terraform-provider-wavix's handshake", () => {
  it("refuses to run as a command", () => {
    const r = spawnSync(BIN, [], { encoding: "utf8", env: { ...process.env, [MAGIC_COOKIE_KEY]: "" } });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/plugin of OpenTofu and Terraform, not a command/);
  });

  it("serves protocol 6 over mutual TLS to the certificate the engine names, and stops on Shutdown", async () => {
    const client = makePluginCert();
    const stranger = makePluginCert();
    const child = spawn(BIN, [], { env: { ...process.env, [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "5,6", PLUGIN_CLIENT_CERT: client.certPem } });
    const line: string = await new Promise((resolve) => child.stdout.once("data", (d: Buffer) => resolve(d.toString())));
    const m = /^1\|6\|tcp\|(127\.0\.0\.1:\d+)\|grpc\|([A-Za-z0-9+/]+)\n$/.exec(line);
    expect(m, line).not.toBeNull();
    const [, addr, cert] = m!;
    const def: Any = grpc.loadPackageDefinition(protoLoader.loadSync([path.join(ROOT, "proto", "tfplugin6.proto"), path.join(ROOT, "proto", "go-plugin.proto")], { keepCase: true, defaults: true, enums: String, longs: Number }));
    const opts = { "grpc.ssl_target_name_override": "localhost" };
    const creds = (c: { keyPem: string; certPem: string }) => grpc.credentials.createSsl(Buffer.from(pem(cert)), Buffer.from(c.keyPem), Buffer.from(c.certPem));
    const call = (stub: Any, method: string): Promise<Any> => new Promise((resolve, reject) => stub[method]({}, (err: unknown, res: unknown) => (err ? reject(err) : resolve(res))));

    const ok = await call(new def.tfplugin6.Provider(addr, creds(client), opts), "GetProviderSchema");
    expect(Object.keys(ok.resource_schemas)).toContain("wavix_phone_number");
    await expect(call(new def.tfplugin6.Provider(addr, creds(stranger), opts), "GetProviderSchema")).rejects.toThrow();

    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    await call(new def.plugin.GRPCController(addr, creds(client), opts), "Shutdown");
    expect(await exited).toBe(0);
  }, 60_000);
});
