/** Transports and digits as the file writes them (seed 2.2: 1 SIP URI, 4 PSTN, 5 trunk). */
import type { TransportCode } from "../../client/types";

/** Transport names accepted in the file, beside their codes (seed 2.2: 1 SIP URI, 4 PSTN, 5 trunk). */
export type TransportName = "sip" | "pstn" | "trunk";

const CODE_BY_NAME: Readonly<Record<TransportName, TransportCode>> = { sip: 1, pstn: 4, trunk: 5 };
const NAME_BY_CODE: Readonly<Record<TransportCode, TransportName>> = { 1: "sip", 4: "pstn", 5: "trunk" };

/** Every spelling of a transport the file accepts, in the order messages list them. */
export const TRANSPORT_VALUES: readonly (TransportName | TransportCode)[] = ["sip", "pstn", "trunk", 1, 4, 5];

/** A number's identity: surrounding blanks and one leading `+` dropped (docs/CONTRACT.md part 3). Idempotent. */
export function normalizeDigits(s: string): string {
  const t = s.trim();
  return t.startsWith("+") ? t.slice(1) : t;
}

/** `sip` → 1, `pstn` → 4, `trunk` → 5; a code is returned as is. Throws on anything else. */
export function transportCode(t: TransportName | TransportCode | string | number): TransportCode {
  if (t === 1 || t === 4 || t === 5) return t;
  if (typeof t === "string" && Object.prototype.hasOwnProperty.call(CODE_BY_NAME, t)) {
    return CODE_BY_NAME[t as TransportName];
  }
  throw new RangeError(`unknown transport ${JSON.stringify(t)}: expected sip, pstn, trunk, 1, 4 or 5`);
}

/** 1 → `sip`, 4 → `pstn`, 5 → `trunk`: the name written back to a file. */
export function transportName(code: TransportCode): TransportName {
  return NAME_BY_CODE[code];
}
