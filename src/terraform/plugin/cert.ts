/**
 * The plugin's own TLS certificate for go-plugin's automatic mutual TLS (docs/TERRAFORM.md, "How
 * the provider works"): the engine sends its client certificate in PLUGIN_CLIENT_CERT and trusts
 * exactly the certificate the plugin names in its handshake line. As go-plugin's plugins make it
 * (hashicorp/go-plugin mtls.go): self-signed, for the host name `localhost`, usable by a server and a
 * client, valid from 30 s ago. node:crypto makes the key but cannot issue a certificate: node-forge
 * builds and signs it.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import forge from "node-forge";

export interface PluginCert {
  /** PEM, for the TLS server. */
  readonly certPem: string;
  readonly keyPem: string;
  /** The certificate's DER, base64 without padding: the handshake line's last field. */
  readonly handshake: string;
}

export function makePluginCert(now: Date = new Date()): PluginCert {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: "pkcs1", format: "pem" }).toString();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString());
  // A positive serial number (the high bit clear), random as go-plugin's.
  const serial = randomBytes(16);
  serial[0] &= 0x7f;
  cert.serialNumber = serial.toString("hex");
  cert.validity.notBefore = new Date(now.getTime() - 30_000);
  cert.validity.notAfter = new Date(now.getTime() + 365 * 24 * 3600_000);
  const subject = [
    { name: "commonName", value: "localhost" },
    { name: "organizationName", value: "wavix-sync" },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: "basicConstraints", cA: true },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, keyCertSign: true },
    { name: "extKeyUsage", serverAuth: true, clientAuth: true },
    { name: "subjectAltName", altNames: [{ type: 2, value: "localhost" }] },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(keyPem), forge.md.sha256.create());
  const der = forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes();
  return {
    certPem: forge.pki.certificateToPem(cert),
    keyPem,
    handshake: Buffer.from(der, "binary").toString("base64").replace(/=+$/, ""),
  };
}
