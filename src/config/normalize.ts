/**
 * Turning a schema-valid file into the typed DesiredState (docs/CONTRACT.md part 4, "Normalisation"):
 * transports as codes, `+` dropped from numbers, `trunk_id` null unless trunk. Keys the file omits
 * stay `undefined` ("only keys present are managed"); no defaults are filled in, not even `on_delete`.
 */
import { filePartsInFileOrder } from "../kinds/file-parts";
import type { AuditConfig, DesiredState, SourcePosition, TwoFaServiceWindow } from "./types";
import type { PathSegment } from "../kit/file/yaml-nodes";

export { TRANSPORT_VALUES, normalizeDigits, transportCode, transportName, type TransportName } from "../kit/file/transport";

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

/**
 * Builds the DesiredState from data that passed the schema and semantic checks.
 * Calling it on its own output's file form (see `toFileObject`) gives an equal state: idempotent.
 */
export function normalizeDesiredState(data: Obj, file: string, positionOf: PositionLookup = () => undefined): DesiredState {
  const state: DesiredState = { version: 1, file };

  // Each resource kind's part, in file order (src/kinds/<kind>/file.ts).
  for (const kind of filePartsInFileOrder()) {
    const declared = kind.fileForm.normalize(data[kind.file.key], positionOf);
    if (declared !== undefined) (state as unknown as Obj)[kind.file.key] = declared;
  }

  // The account pin and the safety limits (src/kit/provider/account-pin.ts, src/plan/safety.ts).
  if (typeof data.account_id === "number") state.account_id = data.account_id;
  if (data.safety !== undefined) {
    const s = data.safety as Obj;
    state.safety = {};
    copy(state.safety, s, "max_destructive_percent");
    copy(state.safety, s, "min_items");
    copy(state.safety, s, "max_destructive_total");
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
          ? (t.services as Obj[]).map((s) => {
              const service: TwoFaServiceWindow = { service_id: s.service_id as string };
              copy(service, s, "from");
              copy(service, s, "to");
              copy(service, s, "max_failure_ratio");
              return service;
            })
          : [],
      };
      copy(audit.two_fa, t, "max_failure_ratio");
    }
    if (a.ten_dlc !== undefined) {
      const t = a.ten_dlc as Obj;
      audit.ten_dlc = { brands: Array.isArray(t.brands) ? [...(t.brands as string[])] : t.brands === "all" ? "all" : [] };
      copy(audit.ten_dlc, t, "min_vetting_score");
      copy(audit.ten_dlc, t, "max_vetting_age_days");
    }
    state.audit = audit;
  }

  return state;
}
