/**
 * The way back from DesiredState to the file format: transports as names, no `path`/`pos`/`file`.
 * `parseDesiredState(stringifyDesiredState(s))` gives `s` again (positions aside), which is what
 * makes normalising idempotent and lets `export` write a file that plans clean.
 */
import { yamlLib } from "./yaml-lib";
import { NUMBER_SETTING_KEYS, type DesiredState } from "./types";
import { transportName } from "./normalize";

/** Options of `stringifyDesiredState`. */
export interface StringifyOptions {
  /**
   * Path of the JSON Schema written in the `# yaml-language-server: $schema=` header, relative to
   * where the file will live; `null` writes no header.
   * @default "schemas/wavix.schema.json"
   */
  schemaPath?: string | null;
}

/** The plain object (file format) for a state; keys absent from the state stay absent. */
export function toFileObject(state: DesiredState): Record<string, unknown> {
  const out: Record<string, unknown> = { version: 1 };
  if (state.sub_accounts) {
    out.sub_accounts = state.sub_accounts.map((sa) => {
      const o: Record<string, unknown> = { name: sa.name };
      if (sa.id !== undefined) o.id = sa.id;
      if (sa.status !== undefined) o.status = sa.status;
      if (sa.default_destinations !== undefined) {
        const dd: Record<string, unknown> = {};
        if (sa.default_destinations.sms_endpoint !== undefined) dd.sms_endpoint = sa.default_destinations.sms_endpoint;
        if (sa.default_destinations.dlr_endpoint !== undefined) dd.dlr_endpoint = sa.default_destinations.dlr_endpoint;
        o.default_destinations = dd;
      }
      return o;
    });
  }
  if (state.numbers) {
    out.numbers = state.numbers.map((n) => {
      const o: Record<string, unknown> = { number: n.number };
      for (const k of NUMBER_SETTING_KEYS) {
        if (k !== "destinations" && n[k] !== undefined) o[k] = n[k];
      }
      if (n.destinations !== undefined) {
        o.destinations = n.destinations.map((d) => {
          const dest: Record<string, unknown> = {
            destination: d.destination,
            transport: transportName(d.transport),
            priority: d.priority,
          };
          if (d.transport === 5 && d.trunk_id !== null) dest.trunk_id = d.trunk_id;
          return dest;
        });
      }
      if (n.on_delete !== undefined) o.on_delete = n.on_delete;
      return o;
    });
  }
  if (state.call_webhooks) out.call_webhooks = { ...state.call_webhooks };
  if (state.audit) {
    const a: Record<string, unknown> = {};
    if (state.audit.two_fa) {
      const t: Record<string, unknown> = {
        sessions: [...state.audit.two_fa.sessions],
        services: state.audit.two_fa.services.map((s) => ({ service_id: s.service_id, from: s.from, to: s.to })),
      };
      if (state.audit.two_fa.max_failure_ratio !== undefined) t.max_failure_ratio = state.audit.two_fa.max_failure_ratio;
      a.two_fa = t;
    }
    if (state.audit.ten_dlc) {
      const brands = state.audit.ten_dlc.brands;
      const t: Record<string, unknown> = { brands: brands === "all" ? "all" : [...brands] };
      if (state.audit.ten_dlc.min_vetting_score !== undefined) t.min_vetting_score = state.audit.ten_dlc.min_vetting_score;
      a.ten_dlc = t;
    }
    out.audit = a;
  }
  return out;
}

/** The state as YAML text in the file format, with the editor schema header unless told otherwise. */
export function stringifyDesiredState(state: DesiredState, options: StringifyOptions = {}): string {
  const schemaPath = options.schemaPath === undefined ? "schemas/wavix.schema.json" : options.schemaPath;
  const header = schemaPath === null ? "" : `# yaml-language-server: $schema=${schemaPath}\n`;
  return header + yamlLib().stringify(toFileObject(state), { lineWidth: 0 });
}
