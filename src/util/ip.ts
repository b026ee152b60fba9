/**
 * IP addresses as the API means them: one address, one text. IPv6 has many spellings
 * (`2001:DB8:0:0:0:0:0:1`, `2001:db8::1`); its canonical text is the one RFC 5952 recommends, as
 * the system's `inet_ntop` writes it (through `node:net`'s `SocketAddress`): lower case, the longest
 * run of zero groups compressed, an IPv4-mapped address in dotted form. A file's addresses are
 * normalised to it at load, and the server's are compared in it, so a spelling never diffs forever
 * and two spellings of one address are one (a duplicate in a set).
 */
import { isIP, SocketAddress } from "node:net";

/**
 * The canonical text of an IP address, or undefined when `ip` is not one. A zone (`fe80::1%eth0`)
 * is not accepted: it names an interface of one machine, never a public static address.
 */
export function canonicalIp(ip: string): string | undefined {
  const family = isIP(ip);
  if (family === 4) return ip;
  if (family !== 6 || ip.includes("%")) return undefined;
  try {
    return new SocketAddress({ address: ip, family: "ipv6" }).address;
  } catch {
    return undefined;
  }
}

/** A list of addresses as a sorted set of canonical texts (what is not an address is kept as written). */
export function canonicalIpSet(ips: readonly string[]): string[] {
  return [...new Set(ips.map((ip) => canonicalIp(ip) ?? ip))].sort();
}
