/**
 * Property-based: any file built from the format's parts validates, and normalising is idempotent:
 * parse → normalise → serialise back → parse gives the same state (docs/CONTRACT.md part 4, "no perpetual diffs").
 */
import fc from "fast-check";
import { stringify } from "yaml";
import { describe, expect, it } from "vitest";
import {
  formatProblem,
  normalizeDesiredState,
  normalizeDigits,
  parseDesiredState,
  stringifyDesiredState,
  toFileObject,
  type DesiredState,
} from "../../src/config";

const url = fc.webUrl({ withQueryParameters: true, withFragments: true });
const digits = fc.stringMatching(/^[0-9]{1,15}$/);
const number = fc.tuple(fc.boolean(), digits).map(([plus, d]) => (plus ? `+${d}` : d));
const transportName = fc.constantFrom("sip", "pstn", "trunk", 1, 4, 5);

const destination = fc
  .record({
    destination: fc.string({ minLength: 1, maxLength: 30 }),
    transport: transportName,
    priority: fc.nat({ max: 100 }),
    trunk_id: fc.integer({ min: 1, max: 1_000_000 }),
    nullTrunk: fc.boolean(),
  })
  .map(({ nullTrunk, trunk_id, ...d }) => {
    if (d.transport === "trunk" || d.transport === 5) return { ...d, trunk_id };
    // Non-trunk destinations may carry an explicit `trunk_id: null` (the API's own shape).
    return nullTrunk ? { ...d, trunk_id: null } : d;
  });

const numberItem = fc.record(
  {
    number,
    sms_enabled: fc.boolean(),
    sms_relay_url: fc.option(url, { nil: null }),
    call_status_url: fc.option(url, { nil: null }),
    call_recording_enabled: fc.boolean(),
    transcription_enabled: fc.boolean(),
    transcription_threshold: fc.nat({ max: 3600 }),
    // A set: an exact repeat is refused (issue #14).
    destinations: fc.uniqueArray(destination, {
      maxLength: 4,
      selector: (d) => {
        const code = ({ sip: 1, pstn: 4, trunk: 5 } as Record<string, number>)[String(d.transport)] ?? d.transport;
        return JSON.stringify([d.priority, code, d.destination, code === 5 && "trunk_id" in d ? d.trunk_id : null]);
      },
    }),
    on_delete: fc.constantFrom("retain", "release"),
  },
  { requiredKeys: ["number"] },
);

const subAccount = fc.record(
  {
    // Names are matched exactly, so surrounding blanks are refused (issue #14).
    name: fc.string({ minLength: 1, maxLength: 40 }).filter((n) => n.trim() === n),
    id: fc.integer({ min: 1, max: 2_000_000_000 }),
    status: fc.constantFrom("enabled", "disabled"),
    default_destinations: fc.record({ sms_endpoint: url, dlr_endpoint: url }, { requiredKeys: [] }),
  },
  { requiredKeys: ["name"] },
);

const date = fc.date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2030-12-31T00:00:00Z"), noInvalidDate: true });
// A window of at most 366 days (the file's cap: one request per session in it).
const service = fc.tuple(fc.stringMatching(/^[0-9a-f]{32}$/), date, fc.integer({ min: 0, max: 365 })).map(([service_id, a, days]) => {
  const from = a.toISOString().slice(0, 10);
  const to = new Date(Date.parse(`${from}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  return { service_id, from, to };
});

const audit = fc.record(
  {
    two_fa: fc.record(
      {
        sessions: fc.uniqueArray(fc.stringMatching(/^[0-9a-f]{32}$/), { maxLength: 3 }),
        services: fc.array(service, { maxLength: 2 }),
        max_failure_ratio: fc.double({ min: 0, max: 1, noNaN: true }),
      },
      { requiredKeys: [] },
    ),
    ten_dlc: fc.record(
      {
        brands: fc.oneof(fc.constant("all"), fc.uniqueArray(fc.stringMatching(/^[A-Z0-9]{7}$/), { maxLength: 3 })),
        min_vetting_score: fc.integer({ min: 0, max: 100 }),
      },
      { requiredKeys: ["brands"] },
    ),
  },
  { requiredKeys: [] },
);

const file = fc.record(
  {
    version: fc.constant(1),
    sub_accounts: fc.uniqueArray(subAccount, {
      maxLength: 4,
      selector: (s) => s.name,
      // pinned ids must be unique too
    }).filter((list) => new Set(list.filter((s) => s.id !== undefined).map((s) => s.id)).size === list.filter((s) => s.id !== undefined).length),
    numbers: fc.uniqueArray(numberItem, { maxLength: 5, selector: (n) => normalizeDigits(n.number) }),
    call_webhooks: fc.record({ "on-call": url, "post-call": url }, { requiredKeys: [] }),
    audit,
  },
  { requiredKeys: ["version"] },
);

function withoutPositions(s: DesiredState): unknown {
  return JSON.parse(JSON.stringify(s, (k, v: unknown) => (k === "pos" || k === "file" ? undefined : v)));
}

function load(text: string, name: string): DesiredState {
  const r = parseDesiredState(text, name);
  if (!r.ok) throw new Error(`${r.problems.map(formatProblem).join("\n")}\n---\n${text}`);
  return r.state;
}

describe("generated files", () => {
  it("validate, whatever mix of keys they hold", () => {
    fc.assert(
      fc.property(file, (data) => {
        load(stringify(data), "gen.yaml");
      }),
      { numRuns: 300 },
    );
  });

  it("normalise idempotently: parse → normalise → serialise → parse gives the same state", () => {
    fc.assert(
      fc.property(file, (data) => {
        const first = load(stringify(data), "a.yaml");
        const second = load(stringifyDesiredState(first), "b.yaml");
        expect(withoutPositions(second)).toEqual(withoutPositions(first));
        // And normalising the normalised form directly changes nothing either.
        expect(withoutPositions(normalizeDesiredState(toFileObject(first), "c.yaml"))).toEqual(withoutPositions(first));
      }),
      { numRuns: 300 },
    );
  });

  it("report a flipped boolean type wherever it is", () => {
    fc.assert(
      fc.property(fc.uniqueArray(digits, { minLength: 1, maxLength: 5 }), fc.nat(), (nums, pick) => {
        const i = pick % nums.length;
        const data = { version: 1, numbers: nums.map((n, j) => ({ number: n, sms_enabled: j === i ? "yes" : true })) };
        const r = parseDesiredState(stringify(data), "p.yaml");
        expect(r.ok).toBe(false);
        if (!r.ok) {
          expect(r.problems).toHaveLength(1);
          expect(r.problems[0].path).toBe(`numbers[${i}].sms_enabled`);
          expect(r.problems[0].message).toBe('expected a boolean, got the string "yes"');
        }
      }),
      { numRuns: 100 },
    );
  });
});
