/** `account_callbacks:` in the file: two URLs; only the keys present are sent. */
import type { DesiredAccountCallbacks } from "./types";
import type { FileForm } from "../../kit/contract";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
export const CALLBACK_FIELDS = ["sms_relay_url", "dlr_relay_url"] as const;

export const accountCallbacksFileForm: FileForm<DesiredAccountCallbacks> = {
  urls: [["sms_relay_url"], ["dlr_relay_url"]],

  check(value, { urlCheck }) {
    if (isObj(value)) for (const k of CALLBACK_FIELDS) urlCheck(value[k], ["account_callbacks", k]);
  },

  normalize(value) {
    if (!isObj(value)) return undefined;
    const out: DesiredAccountCallbacks = {};
    for (const k of CALLBACK_FIELDS) if (typeof value[k] === "string") out[k] = value[k] as string;
    return out;
  },

  toFile: (declared) => ({ ...declared }),
};
