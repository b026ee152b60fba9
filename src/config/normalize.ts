/**
 * Turning a schema-valid file into the typed DesiredState (PRODUCT.md part 4, "Normalisation"):
 * transports as codes, `+` dropped from numbers, `trunk_id` null unless trunk. Keys the file omits
 * stay `undefined` ("only keys present are managed"); no defaults are filled in, not even `on_delete`.
 */
import type { CallWebhookEventType, TransportCode } from "../client/types";
import type {
  AuditConfig,
  DesiredDestination,
  DesiredNumber,
  DesiredState,
  DesiredSubAccount,
  SourcePosition,
} from "./types";
import type { PathSegment } from "./yaml-nodes";
import { formatPath } from "./yaml-nodes";

/** Transport names accepted in the file, beside their codes (seed 2.2: 1 SIP URI, 4 PSTN, 5 trunk). */
export type TransportName = "sip" | "pstn" | "trunk";

const CODE_BY_NAME: Readonly<Record<TransportName, TransportCode>> = { sip: 1, pstn: 4, trunk: 5 };
const NAME_BY_CODE: Readonly<Record<TransportCode, TransportName>> = { 1: "sip", 4: "pstn", 5: "trunk" };

/** Every spelling of a transport the file accepts, in the order messages list them. */
export const TRANSPORT_VALUES: readonly (TransportName | TransportCode)[] = ["sip", "pstn", "trunk", 1, 4, 5];

/** A number's identity: surrounding blanks and one leading `+` dropped (PRODUCT.md part 3). Idempotent. */
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

/** Looks up where a path is in the file; undefined when unknown (a state built in code). */
export type PositionLookup = (segments: readonly PathSegment[]) => SourcePosition | undefined;

type Obj = Record<string, unknown>;

function has(o: Obj, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

/** Copies `k` only when present, so absent keys stay absent (not even set to undefined). */
function copy<T extends object>(target: T, source: Obj, k: string & keyof T): void {
  if (has(source, k)) (target as Obj)[k] = source[k];
}

function normalizeDestination(d: Obj): DesiredDestination {
  const transport = transportCode(d.transport as string | number);
  const trunkId = d.trunk_id;
  return {
    destination: d.destination as string,
    transport,
    priority: d.priority as number,
    // Seed 2.2: trunk_id is set only for transport 5; null otherwise, so it never causes a diff.
    trunk_id: transport === 5 && typeof trunkId === "number" ? trunkId : null,
  };
}

/**
 * Builds the DesiredState from data that passed the schema and semantic checks.
 * Calling it on its own output's file form (see `toFileObject`) gives an equal state: idempotent.
 */
export function normalizeDesiredState(data: Obj, file: string, positionOf: PositionLookup = () => undefined): DesiredState {
  const state: DesiredState = { version: 1, file };

  if (Array.isArray(data.sub_accounts)) {
    state.sub_accounts = (data.sub_accounts as Obj[]).map((raw, i) => {
      const segs: PathSegment[] = ["sub_accounts", i];
      const sa: DesiredSubAccount = { name: raw.name as string, path: formatPath(segs) };
      copy(sa, raw, "id");
      copy(sa, raw, "status");
      if (has(raw, "default_destinations")) {
        const dd = raw.default_destinations as Obj;
        const out: NonNullable<DesiredSubAccount["default_destinations"]> = {};
        copy(out, dd, "sms_endpoint");
        copy(out, dd, "dlr_endpoint");
        sa.default_destinations = out;
      }
      const pos = positionOf(segs);
      if (pos) sa.pos = pos;
      return sa;
    });
  }

  if (Array.isArray(data.numbers)) {
    state.numbers = (data.numbers as Obj[]).map((raw, i) => {
      const segs: PathSegment[] = ["numbers", i];
      const n: DesiredNumber = { number: normalizeDigits(raw.number as string), path: formatPath(segs) };
      copy(n, raw, "sms_enabled");
      copy(n, raw, "sms_relay_url");
      copy(n, raw, "call_status_url");
      copy(n, raw, "call_recording_enabled");
      copy(n, raw, "transcription_enabled");
      copy(n, raw, "transcription_threshold");
      if (Array.isArray(raw.destinations)) {
        n.destinations = (raw.destinations as Obj[]).map(normalizeDestination);
      }
      copy(n, raw, "on_delete");
      const pos = positionOf(segs);
      if (pos) n.pos = pos;
      return n;
    });
  }

  if (data.call_webhooks !== undefined) {
    const cw = data.call_webhooks as Obj;
    const out: Partial<Record<CallWebhookEventType, string>> = {};
    for (const ev of ["on-call", "post-call"] as const) {
      if (typeof cw[ev] === "string") out[ev] = cw[ev] as string;
    }
    state.call_webhooks = out;
  }

  if (data.audit !== undefined) {
    const a = data.audit as Obj;
    const audit: AuditConfig = {};
    if (a.two_fa !== undefined) {
      const t = a.two_fa as Obj;
      // sessions/services are lists in the typed state; an omitted one is simply empty (nothing to audit).
      audit.two_fa = {
        sessions: Array.isArray(t.sessions) ? [...(t.sessions as string[])] : [],
        services: Array.isArray(t.services)
          ? (t.services as Obj[]).map((s) => ({
              service_id: s.service_id as string,
              from: s.from as string,
              to: s.to as string,
            }))
          : [],
      };
      copy(audit.two_fa, t, "max_failure_ratio");
    }
    if (a.ten_dlc !== undefined) {
      const t = a.ten_dlc as Obj;
      audit.ten_dlc = { brands: Array.isArray(t.brands) ? [...(t.brands as string[])] : t.brands === "all" ? "all" : [] };
      copy(audit.ten_dlc, t, "min_vetting_score");
    }
    state.audit = audit;
  }

  return state;
}
