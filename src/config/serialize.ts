/**
 * The way back from DesiredState to the file format: transports as names, no `path`/`pos`/`file`.
 * `parseDesiredState(stringifyDesiredState(s))` gives `s` again (positions aside), which is what
 * makes normalising idempotent and lets `export` write a file that plans clean.
 *
 * The text is written by a small emitter of the file's shapes (block mappings and lists, scalars
 * plain when unambiguous, else JSON-quoted, which YAML reads as double-quoted) instead of `yaml`'s
 * stringify: it is one pass per item, so `export` can stream 100,000 numbers item by item
 * (issue #15) without holding a YAML document of the whole account.
 */
import type { DesiredState } from "./types";
import { kindsInFileOrder } from "../kinds";
import { emitMap, schemaHeader } from "../kit/file/yaml-emit";

export { yamlScalar, emitItem, schemaHeader, topLevelYaml } from "../kit/file/yaml-emit";

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
  if (state.account_id !== undefined) out.account_id = state.account_id;
  // Each resource kind's part, in file order (src/kinds/<kind>/file.ts).
  for (const kind of kindsInFileOrder()) {
    const declared = kind.declared(state);
    if (declared) out[kind.file.key] = kind.fileForm.toFile(declared);
  }
  if (state.safety) out.safety = { ...state.safety };
  if (state.audit) {
    const a: Record<string, unknown> = {};
    if (state.audit.two_fa) {
      const t: Record<string, unknown> = {
        sessions: [...state.audit.two_fa.sessions],
        services: state.audit.two_fa.services.map((s) => {
          const out: Record<string, unknown> = { service_id: s.service_id };
          if (s.from !== undefined) out.from = s.from;
          if (s.to !== undefined) out.to = s.to;
          if (s.max_failure_ratio !== undefined) out.max_failure_ratio = s.max_failure_ratio;
          return out;
        }),
      };
      if (state.audit.two_fa.max_failure_ratio !== undefined) t.max_failure_ratio = state.audit.two_fa.max_failure_ratio;
      a.two_fa = t;
    }
    if (state.audit.ten_dlc) {
      const brands = state.audit.ten_dlc.brands;
      const t: Record<string, unknown> = { brands: brands === "all" ? "all" : [...brands] };
      if (state.audit.ten_dlc.min_vetting_score !== undefined) t.min_vetting_score = state.audit.ten_dlc.min_vetting_score;
      if (state.audit.ten_dlc.max_vetting_age_days !== undefined) t.max_vetting_age_days = state.audit.ten_dlc.max_vetting_age_days;
      a.ten_dlc = t;
    }
    out.audit = a;
  }
  return out;
}

/** The state as YAML text in the file format, with the editor schema header unless told otherwise. */
export function stringifyDesiredState(state: DesiredState, options: StringifyOptions = {}): string {
  return schemaHeader(options.schemaPath) + emitMap(toFileObject(state), "");
}
