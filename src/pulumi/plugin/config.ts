/**
 * The native provider's settings (docs/PULUMI.md): `wavix:apiKey` (secret), `wavix:baseUrl`,
 * `wavix:accountId` — stack config for the default provider, or an explicit provider's inputs —
 * checked (CheckConfig), compared (DiffConfig) and turned into the kit's credentials (Configure).
 * An empty value counts as unset, so the environment (`WAVIX_API_KEY`, `WAVIX_BASE_URL`) applies,
 * as for the dynamic provider (src/pulumi/provider-host.ts).
 */
import { resolveBaseUrl } from "../../client/base-url";
import { accountIdOf, gateSettingsOf, type Credentials } from "../../kit/provider/session";
import type { CheckFailure } from "../../kit/provider/checks";
import { closestKey } from "../../kit/file/messages";
import { UNKNOWN, type Props } from "../../kit/provider/props";

/** The provider's own settings. */
export const SETTINGS = ["apiKey", "baseUrl", "accountId", "maxDestructive", "force"] as const;

/**
 * Keys of the `wavix:` config namespace the provider receives but does not use: the engine's own
 * (`version`, `pluginDownloadURL`) and the root program's (`trunkPasswords`: src/kinds/sip-trunk/pulumi.ts).
 */
const NOT_MINE = new Set(["version", "pluginDownloadURL", "trunkPasswords"]);

/** A setting's value as text; undefined when unset or empty (the environment then applies). */
function text(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  const s = typeof v === "string" ? v : String(v);
  return s.trim() === "" ? undefined : s;
}

/**
 * Provider config may arrive as stack config (every value a string; nested `wavix:config:apiKey`
 * in Configure's `variables`) or as an explicit provider's inputs (an SDK sends an integer setting
 * as a number, or as its JSON text): one value per setting, whatever the form.
 */
export function settingsOf(props: Props): Partial<Record<(typeof SETTINGS)[number], unknown>> {
  const out: Partial<Record<(typeof SETTINGS)[number], unknown>> = {};
  for (const k of SETTINGS) if (props[k] !== undefined) out[k] = props[k];
  return out;
}

/** Failures of the settings, each naming the config key; warnings for keys that are none of them. */
export function checkSettings(props: Props): { failures: CheckFailure[]; warnings: string[] } {
  const failures: CheckFailure[] = [];
  const warnings: string[] = [];
  const s = settingsOf(props);
  if (s.apiKey !== undefined && s.apiKey !== UNKNOWN && typeof s.apiKey !== "string") {
    failures.push({ property: "apiKey", reason: "wavix:apiKey must be text (the API key; set it with `pulumi config set --secret wavix:apiKey <KEY>`)" });
  }
  const baseUrl = text(s.baseUrl);
  if (baseUrl !== undefined && baseUrl !== UNKNOWN) {
    try {
      resolveBaseUrl(baseUrl);
    } catch (err) {
      failures.push({ property: "baseUrl", reason: `wavix:baseUrl: ${err instanceof Error ? err.message : String(err)}` });
    }
  }
  const accountId = text(s.accountId);
  if (accountId !== undefined && accountId !== UNKNOWN && Number.isNaN(accountIdOf(accountId))) {
    failures.push({ property: "accountId", reason: `wavix:accountId must be the account's id, a whole number of at least 1 (got ${JSON.stringify(accountId)})` });
  }
  for (const k of Object.keys(props)) {
    if ((SETTINGS as readonly string[]).includes(k) || NOT_MINE.has(k) || k.startsWith("__")) continue;
    const near = closestKey(k, SETTINGS);
    warnings.push(`wavix:${k} is not a setting of the wavix provider${near ? ` (did you mean wavix:${near}?)` : ""}; it is ignored (the settings are ${SETTINGS.map((x) => `wavix:${x}`).join(", ")})`);
  }
  return { failures, warnings };
}

/** The settings that differ between two configurations (never a replacement: a new key or URL reaches the same objects, and every resource's identity is checked before a write). */
export function changedSettings(olds: Props, news: Props): string[] {
  const a = settingsOf(olds);
  const b = settingsOf(news);
  return SETTINGS.filter((k) => text(a[k]) !== text(b[k]));
}

/**
 * The credentials of Configure: `args` (the checked inputs, secrets unwrapped) when the engine sent
 * them, else `variables` (`wavix:config:apiKey`, every value a string).
 */
export function credentialsOf(args: Props | undefined, variables: ReadonlyMap<string, string>): Credentials {
  const get = (k: string): string | undefined => text(args && args[k] !== undefined ? args[k] : (variables.get(`wavix:config:${k}`) ?? variables.get(`wavix:${k}`)));
  return { apiKey: get("apiKey"), baseUrl: get("baseUrl"), accountId: accountIdOf(get("accountId")), ...gateSettingsOf(get) };
}
