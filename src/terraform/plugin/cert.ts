/**
 * The plugin's own TLS certificate for go-plugin's automatic mutual TLS (docs/TERRAFORM.md, "How
 * the provider works"): the engine sends its client certificate in PLUGIN_CLIENT_CERT and trusts
 * exactly the certificate the plugin names in its handshake line. As go-plugin's plugins make it
 * (hashicorp/go-plugin mtls.go): an ECDSA key (P-521 there, P-256 here), self-signed, for the host
 * name `localhost`, usable by a server and a client, valid from 30 s ago.
 *
 * The engine starts the plugin three or four times a command (one per graph walk), so the
 * certificate is made in about a millisecond: node:crypto makes the EC key and signs; node-forge
 * only lays out the certificate's fields (ASN.1 DER). An RSA key (2048-bit primes searched for at
 * every start) signed in JavaScript took half of the plugin's start-up (about 0.45 CPU-s of 0.9).
 */
import { X509Certificate, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import forge from "node-forge";

export interface PluginCert {
  /** PEM, for the TLS server. */
  readonly certPem: string;
  readonly keyPem: string;
  /** The certificate's DER, base64 without padding: the handshake line's last field. */
  readonly handshake: string;
}

/** ecdsa-with-SHA256 (RFC 5758): its AlgorithmIdentifier has no parameters. */
const ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";

export function makePluginCert(now: Date = new Date()): PluginCert {
  const { asn1, pki } = forge;
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const keyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  // The names and extensions as forge lays them out; the key and the signature are node:crypto's.
  const fields = pki.createCertificate();
  const subject = [
    { name: "commonName", value: "localhost" },
    { name: "organizationName", value: "wavix-sync" },
  ];
  fields.setSubject(subject);
  fields.setIssuer(subject);
  fields.setExtensions([
    { name: "basicConstraints", cA: true },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, keyCertSign: true },
    { name: "extKeyUsage", serverAuth: true, clientAuth: true },
    { name: "subjectAltName", altNames: [{ type: 2, value: "localhost" }] },
  ]);
  // A positive serial number, random as go-plugin's, in minimal DER (the first byte 0x40–0x7f: the
  // high bit clear, and never a leading zero byte, which Go's parser refuses).
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x3f) | 0x40;
  const node = (type: number, constructed: boolean, value: string | forge.asn1.Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, type, constructed, value);
  const algorithm = node(asn1.Type.SEQUENCE, true, [node(asn1.Type.OID, false, asn1.oidToDer(ECDSA_WITH_SHA256).getBytes())]);
  const utc = (d: Date) => node(asn1.Type.UTCTIME, false, asn1.dateToUtcTime(d));
  const tbs = node(asn1.Type.SEQUENCE, true, [
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [node(asn1.Type.INTEGER, false, asn1.integerToDer(2).getBytes())]), // v3
    node(asn1.Type.INTEGER, false, serial.toString("binary")),
    algorithm,
    pki.distinguishedNameToAsn1(fields.issuer),
    node(asn1.Type.SEQUENCE, true, [utc(new Date(now.getTime() - 30_000)), utc(new Date(now.getTime() + 365 * 24 * 3600_000))]),
    pki.distinguishedNameToAsn1(fields.subject),
    asn1.fromDer(publicKey.export({ type: "spki", format: "der" }).toString("binary")),
    (pki as unknown as { certificateExtensionsToAsn1(e: unknown[]): forge.asn1.Asn1 }).certificateExtensionsToAsn1(fields.extensions), // [3] EXPLICIT (not in forge's types)
  ]);
  const tbsDer = Buffer.from(asn1.toDer(tbs).getBytes(), "binary");
  const signature = sign("sha256", tbsDer, privateKey); // DER ECDSA-Sig-Value, as X.509 holds it
  const certificate = node(asn1.Type.SEQUENCE, true, [tbs, algorithm, node(asn1.Type.BITSTRING, false, `\0${signature.toString("binary")}`)]);
  const der = Buffer.from(asn1.toDer(certificate).getBytes(), "binary");
  return {
    certPem: new X509Certificate(der).toString(),
    keyPem,
    handshake: der.toString("base64").replace(/=+$/, ""),
  };
}
