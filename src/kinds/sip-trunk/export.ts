/**
 * SIP trunks as an export writes them: every managed field the record holds, an id only where two
 * share a label, never the token, and `password_env:` as a placeholder: the API never returns a
 * password, so the variable it names is for the person to fill (needed only to create the trunk
 * again or to rotate its password; a plan of the export is clean without it).
 */
import type { WavixClient } from "../../client";
import type { SipTrunk } from "../../client/types";
import type { DesiredSipTrunk } from "./types";
import { emitItem } from "../../kit/file/yaml-emit";
import type { KindExport } from "../../kit/contract";
import { sipTrunkFileObject, TRUNK_SETTING_KEYS } from "./file";
import { currentValue, listAllTrunks, readTrunks } from "./handler";

/** The placeholder variable an export names for a trunk's password: `SIP_TRUNK_ACME_PBX_PASSWORD`. */
export function passwordEnvPlaceholder(label: string): string {
  const word = label.toUpperCase().replace(/[^A-Z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  return `SIP_TRUNK_${word === "" ? "X" : word}_PASSWORD`;
}

export const PLACEHOLDER_NOTE =
  "# password_env names a placeholder variable: the API never returns a trunk's password. Set it only to create the trunk again or to rotate its password (--rotate-password LABEL).\n";

/** A trunk record as the file declares it (every managed field it holds; `id:` when `pinned`). */
export function trunkOf(t: SipTrunk, pinned: boolean, i: number): DesiredSipTrunk {
  const d: DesiredSipTrunk = { label: t.label, path: `sip_trunks[${i}]` };
  if (pinned) d.id = t.id;
  d.password_env = passwordEnvPlaceholder(t.label);
  for (const k of TRUNK_SETTING_KEYS) {
    const v = currentValue(t, k);
    // Unset: null, or an empty text (the schema-checked export never writes `: ""`).
    if (v === null || v === undefined || v === "") continue;
    if (k === "host" && v === "dynamic") continue;
    (d as unknown as Record<string, unknown>)[k] = v;
  }
  return d;
}

async function trunksOf(client: WavixClient): Promise<DesiredSipTrunk[]> {
  const list = await listAllTrunks(client);
  const records = await readTrunks(client, list.map((t) => t.id));
  const count = new Map<string, number>();
  for (const t of list) count.set(t.label, (count.get(t.label) ?? 0) + 1);
  return list.filter((t) => records.has(t.id)).map((t, i) => trunkOf(records.get(t.id)!, (count.get(t.label) ?? 0) > 1, i));
}

export const sipTrunkExport: KindExport<DesiredSipTrunk[]> = {
  async text(client) {
    const items = (await trunksOf(client)).map((t) => emitItem(sipTrunkFileObject(t), "  "));
    if (items.length > 0) items[0] = `  ${PLACEHOLDER_NOTE}${items[0]}`;
    return { form: "list", items };
  },
  state: trunksOf,
};
