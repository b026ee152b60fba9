/**
 * `ten_dlc_campaign_numbers:` in the file: each Brand/Campaign pair once; a number once in the
 * whole list (a number is linked to one Campaign); digits with one leading `+` dropped.
 */
import type { DesiredCampaignNumbers } from "./types";
import { normalizeDigits } from "../../kit/file/transport";
import { formatPath, type PathSegment } from "../../kit/file/yaml-nodes";
import type { FileForm } from "../../kit/contract";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const KEY = "ten_dlc_campaign_numbers";

export function campaignNumbersFileObject(d: Omit<DesiredCampaignNumbers, "path" | "pos">): Obj {
  return { brand_id: d.brand_id, campaign_id: d.campaign_id, numbers: [...d.numbers] };
}

export const tenDlcNumberFileForm: FileForm<DesiredCampaignNumbers[]> = {
  // One entry per campaign: `BRAND/CAMPAIGN` (a brand id holds no `/`).
  entryKey: {
    of: (e) => `${String(e.brand_id)}/${String(e.campaign_id)}`,
    fields: (key): Record<string, string> => {
      const at = key.indexOf("/");
      return at < 0 ? { brand_id: key } : { brand_id: key.slice(0, at), campaign_id: key.slice(at + 1) };
    },
  },
  urls: [],

  check(value, { lineOf, describePath, unique, report }) {
    if (!Array.isArray(value)) return;
    const pairs = new Map<string, number>();
    const numbers = new Map<string, PathSegment[]>();
    value.forEach((c: unknown, i) => {
      if (!isObj(c)) return;
      if (typeof c.brand_id === "string" && typeof c.campaign_id === "string") {
        unique(pairs, `${c.brand_id}/${c.campaign_id}`, KEY, i, "campaign_id", `Campaign ${c.campaign_id} of Brand ${c.brand_id}`);
      }
      if (!Array.isArray(c.numbers)) return;
      c.numbers.forEach((n: unknown, j) => {
        if (typeof n !== "string") return;
        const digits = normalizeDigits(n);
        const segs: PathSegment[] = [KEY, i, "numbers", j];
        const first = numbers.get(digits);
        if (first === undefined) numbers.set(digits, segs);
        else {
          report({
            segments: segs,
            message: `number ${digits} is declared twice: first at line ${lineOf(first)} (${describePath(first)}); a number is linked to one Campaign`,
          });
        }
      });
    });
  },

  normalize(value, positionOf) {
    if (!Array.isArray(value)) return undefined;
    return (value as Obj[]).map((raw, i) => {
      const segs: PathSegment[] = [KEY, i];
      const d: DesiredCampaignNumbers = {
        brand_id: raw.brand_id as string,
        campaign_id: raw.campaign_id as string,
        numbers: [...new Set((raw.numbers as string[]).map(normalizeDigits))].sort(),
        path: formatPath(segs),
      };
      const pos = positionOf(segs);
      if (pos) d.pos = pos;
      return d;
    });
  },

  toFile: (declared) => declared.map(campaignNumbersFileObject),
};
