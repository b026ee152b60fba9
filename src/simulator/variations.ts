/**
 * Variations: answers the official contract allows and real servers give, which a client must
 * handle as well as the simulator's own default answers. Each one changes what the simulator
 * sends, never what it stores, so the account stays one account whatever the variation.
 */

/** The variations the simulator can play (flag `--variation NAME`, option `variations`). */
export const SIM_VARIATIONS = [
  /** Unset URLs sent as `""` (numbers' `sms_relay_url`/`call_status_url`, sub-accounts' endpoints). */
  "empty-urls",
  /** A bulk `PATCH /v1/numbers` answers `{}`: the official 200 body makes `items` optional. */
  "bulk-without-items",
  /** `GET /v1/sub-organizations` ignores `page`/`per_page` (the official operation declares none). */
  "sub-account-listing-ignores-paging",
  /**
   * Optional response fields left out (a number's `free_min`, `unlimited`, a null `call_status_url`
   * or `state`, a destination's `srtp`; every field but `session_id` of a 2FA sessions listing item,
   * whose official ListSessionsResponseItem requires none; a vetting's `vetting_details`).
   */
  "optional-fields-absent",
  /** An unknown extra field on every record served. */
  "unknown-extra-fields",
] as const;

export type SimVariation = (typeof SIM_VARIATIONS)[number];

/** Name of the extra field the `unknown-extra-fields` variation adds. */
export const EXTRA_FIELD = "x_sim_extra";

type Json = Record<string, unknown>;

function isRecord(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Optional fields of a number (seed 2.1 "Required: no"), and of a destination (seed 2.2). The
 * nullable ones are left out only when they hold no value: a server omits what it has not got,
 * it does not hide a URL that is set.
 */
const OPTIONAL_NUMBER_FIELDS = ["free_min", "unlimited"];
const OPTIONAL_WHEN_NULL_NUMBER_FIELDS = ["state", "call_status_url"];
const OPTIONAL_DESTINATION_FIELDS = ["srtp"];

function varyNumber(n: Json, on: ReadonlySet<SimVariation>): Json {
  const out: Json = { ...n };
  if (on.has("empty-urls")) {
    for (const k of ["sms_relay_url", "call_status_url"]) if (out[k] === null || out[k] === undefined) out[k] = "";
  }
  if (on.has("optional-fields-absent")) {
    for (const k of OPTIONAL_NUMBER_FIELDS) delete out[k];
    for (const k of OPTIONAL_WHEN_NULL_NUMBER_FIELDS) if (n[k] === null || n[k] === undefined) delete out[k];
    if (Array.isArray(out.destination)) {
      out.destination = out.destination.map((d: unknown) => {
        if (!isRecord(d)) return d;
        const copy = { ...d };
        for (const k of OPTIONAL_DESTINATION_FIELDS) delete copy[k];
        return on.has("unknown-extra-fields") ? { ...copy, [EXTRA_FIELD]: "destination" } : copy;
      });
    }
  } else if (on.has("unknown-extra-fields") && Array.isArray(out.destination)) {
    out.destination = out.destination.map((d: unknown) => (isRecord(d) ? { ...d, [EXTRA_FIELD]: "destination" } : d));
  }
  if (on.has("unknown-extra-fields")) out[EXTRA_FIELD] = "number";
  return out;
}

function varySubAccount(s: Json, on: ReadonlySet<SimVariation>): Json {
  const out: Json = { ...s };
  if (on.has("empty-urls") && isRecord(out.default_destinations)) {
    const dd = { ...out.default_destinations };
    for (const k of ["sms_endpoint", "dlr_endpoint"]) if (dd[k] === null || dd[k] === undefined) dd[k] = "";
    out.default_destinations = dd;
  }
  if (on.has("unknown-extra-fields")) {
    out[EXTRA_FIELD] = "sub_account";
    if (isRecord(out.default_destinations)) out.default_destinations = { ...out.default_destinations, [EXTRA_FIELD]: "endpoints" };
  }
  return out;
}

function varyPlain(v: unknown, on: ReadonlySet<SimVariation>): unknown {
  return on.has("unknown-extra-fields") && isRecord(v) ? { ...v, [EXTRA_FIELD]: "record" } : v;
}

/** A 2FA sessions listing item: with `optional-fields-absent`, only its `session_id`. */
function varyListedSession(s: unknown, on: ReadonlySet<SimVariation>): unknown {
  if (!isRecord(s)) return s;
  const out: Json = on.has("optional-fields-absent") ? (s.session_id !== undefined ? { session_id: s.session_id } : {}) : { ...s };
  return varyPlain(out, on);
}

/** A vetting: with `optional-fields-absent`, without `vetting_details`. */
function varyVetting(v: unknown, on: ReadonlySet<SimVariation>): unknown {
  if (!isRecord(v)) return v;
  const out: Json = { ...v };
  if (on.has("optional-fields-absent")) delete out.vetting_details;
  return varyPlain(out, on);
}

/**
 * The body a server playing `on` would send instead of `body`, for a successful answer described
 * by the route's response schema name.
 */
export function applyVariations(response: string | undefined, body: unknown, on: ReadonlySet<SimVariation>): unknown {
  if (on.size === 0 || response === undefined) return body;
  switch (response) {
    case "number":
      return isRecord(body) ? varyNumber(body, on) : body;
    case "number-list":
      return isRecord(body) && Array.isArray(body.items)
        ? { ...varyPlain(body, on) as Json, items: body.items.map((n: unknown) => (isRecord(n) ? varyNumber(n, on) : n)) }
        : body;
    case "number-bulk-update":
      if (on.has("bulk-without-items")) return on.has("unknown-extra-fields") ? { [EXTRA_FIELD]: "bulk" } : {};
      return isRecord(body) && Array.isArray(body.items)
        ? { ...body, items: body.items.map((n: unknown) => (isRecord(n) ? varyNumber(n, on) : n)) }
        : body;
    case "sub-account":
      return isRecord(body) ? varySubAccount(body, on) : body;
    case "sub-account-list":
      return isRecord(body) && Array.isArray(body.sub_organizations)
        ? { ...body, sub_organizations: body.sub_organizations.map((s: unknown) => (isRecord(s) ? varySubAccount(s, on) : s)) }
        : body;
    case "call-webhook-list":
      return Array.isArray(body) ? body.map((h) => varyPlain(h, on)) : body;
    case "call-webhook":
      return varyPlain(body, on);
    case "two-fa-session-list":
      return Array.isArray(body) ? body.map((s) => varyListedSession(s, on)) : body;
    case "brand-vetting-list":
      return Array.isArray(body) ? body.map((v) => varyVetting(v, on)) : body;
    default:
      return body;
  }
}
