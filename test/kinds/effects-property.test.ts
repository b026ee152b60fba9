/**
 * Property-based (issue #33 item 5): a change is destructive if and only if one of the classes of
 * docs/GUARD-RAILS.md ("What counts as destructive") applies — a limit lifted, a callback URL
 * cleared, SMS turned off, routing removed, narrowed or diverted, a status disabled — and a change
 * that changes nothing is never destructive. Each oracle below is written from the rule's words,
 * not from the kinds' code (src/kinds/<kind>/effects.ts), and the kinds are reached through the
 * registry as the plan engine reaches them (`effectsOf`).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KINDS } from "../../src/kinds";
import { effectsOf } from "../../src/plan";
import { diffNumber, currentSettings } from "../../src/kinds/number/handler";
import { canonicalDestinations } from "../../src/kinds/number/destinations";
import type { WavixNumber } from "../../src/client/types";
import type { FieldDiff } from "../../src/kit/change/diff";

const kind = (name: string) => KINDS.find((k) => k.name === name)!;
const effects = (name: string, diff: FieldDiff[]) => effectsOf(kind(name), { action: "update", diff });
/** Only the entries that change something: what a kind's diff gives. */
const changed = (entries: FieldDiff[]) => entries.filter((e) => JSON.stringify(e.before) !== JSON.stringify(e.after));
const RUNS = { numRuns: 400 };

// ---- SIP trunks: a limit lifted ------------------------------------------------------------------

const SWITCHES = ["ip_restrict", "cost_limit", "call_restrict", "channels_restrict"] as const;
/** Money in cents (an oracle in integers), written as the API writes it (`"0.1800"`) or the file (`"0.18"`). */
const cents = fc.option(fc.integer({ min: 0, max: 10_000_000 }), { nil: null });
const moneyText = (c: number | null, padded: boolean) => (c === null ? null : padded ? (c / 100).toFixed(4) : String(c / 100));
const count = fc.option(fc.integer({ min: 0, max: 200_000 }), { nil: null });

describe("SIP trunks: destructive iff a limit is switched off, removed or raised", () => {
  it("over any change of its limits and of settings that are not limits", () => {
    fc.assert(
      fc.property(
        fc.record({
          switches: fc.array(fc.tuple(fc.constantFrom(...SWITCHES), fc.boolean(), fc.boolean()), { maxLength: 4 }),
          cost: fc.tuple(cents, cents, fc.boolean(), fc.boolean()),
          callLimit: fc.tuple(count, count),
          channels: fc.tuple(count, count),
          other: fc.array(fc.tuple(fc.constantFrom("didinfo_enabled", "rewrite_enabled", "transcription_enabled"), fc.boolean(), fc.boolean()), { maxLength: 3 }),
        }),
        ({ switches, cost, callLimit, channels, other }) => {
          const seen = new Set<string>();
          const entries: FieldDiff[] = [];
          for (const [path, before, after] of [...switches, ...other]) {
            if (seen.has(path)) continue;
            seen.add(path);
            entries.push({ path, before, after });
          }
          entries.push({ path: "max_call_cost", before: moneyText(cost[0], cost[2]), after: moneyText(cost[1], cost[3]) });
          entries.push({ path: "call_limit", before: callLimit[0], after: callLimit[1] });
          entries.push({ path: "max_channels", before: channels[0], after: channels[1] });
          const diff = changed(entries).filter((e) => !(e.path === "max_call_cost" && cost[0] === cost[1]));
          const lifted =
            diff.some((e) => (SWITCHES as readonly string[]).includes(e.path) && e.before === true && e.after === false) ||
            (diff.some((e) => e.path === "max_call_cost") && cost[0] !== null && (cost[1] === null || cost[1] > cost[0])) ||
            [callLimit, channels].some(([b, a], i) => diff.some((e) => e.path === ["call_limit", "max_channels"][i]) && b !== null && (a === null || a > b));
          expect(effects("sip_trunk", diff)).toEqual(lifted ? ["limit_lifted"] : []);
        },
      ),
      RUNS,
    );
  });

  it("the issue's three, each alone: ip_restrict off, max_call_cost 999999999, max_channels 100000", () => {
    expect(effects("sip_trunk", [{ path: "ip_restrict", before: true, after: false }])).toEqual(["limit_lifted"]);
    expect(effects("sip_trunk", [{ path: "max_call_cost", before: "0.1800", after: "999999999" }])).toEqual(["limit_lifted"]);
    expect(effects("sip_trunk", [{ path: "max_channels", before: 4, after: 100000 }])).toEqual(["limit_lifted"]);
    // Lowered or first set: a tighter trunk.
    expect(effects("sip_trunk", [{ path: "max_call_cost", before: "0.18", after: "0.10" }])).toEqual([]);
    expect(effects("sip_trunk", [{ path: "ip_restrict", before: false, after: true }])).toEqual([]);
  });
});

// ---- numbers: callbacks, SMS, routing -----------------------------------------------------------

const url = fc.option(fc.constantFrom("https://a.example/x", "https://b.example/y"), { nil: null });
const destination = fc.record({
  priority: fc.integer({ min: 1, max: 3 }),
  transport: fc.constantFrom(1, 4),
  destination: fc.constantFrom("sip.a.example", "sip.b.example", "15557654321", "15550001111"),
  trunk_id: fc.constant(null),
});
const destinations = fc.array(destination, { maxLength: 3 }).map((l) => canonicalDestinations(l));
const targets = (l: readonly { transport: number; destination: string }[]) => new Set(l.map((d) => `${d.transport}/${d.destination}`));
const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));

const numberRecord = fc.record({
  sms_enabled: fc.boolean(),
  sms_relay_url: url,
  call_status_url: url,
  call_recording_enabled: fc.boolean(),
  transcription_enabled: fc.boolean(),
  transcription_threshold: fc.integer({ min: 0, max: 60 }),
  destination: destinations,
});
const wire = (r: object) => ({ id: 11, number: "15550000001", ...r }) as unknown as WavixNumber;

describe("numbers: destructive iff a callback is cleared, SMS turned off, or where calls go changes for a routed number", () => {
  it("over any pair of settings, through the kind's own diff", () => {
    fc.assert(
      fc.property(numberRecord, numberRecord, (now, want) => {
        const current = wire(now);
        const desired = currentSettings(wire(want));
        const diff = diffNumber(desired, current);
        const before = targets(now.destination);
        const after = targets(want.destination);
        const destructive =
          (now.sms_relay_url !== null && want.sms_relay_url === null) ||
          (now.call_status_url !== null && want.call_status_url === null) ||
          (now.sms_enabled && !want.sms_enabled) ||
          (before.size > 0 && !sameSet(before, after));
        expect(effects("number", diff).length > 0).toBe(destructive);
      }),
      RUNS,
    );
  });

  it("a no-op is never destructive: the settings the number already has, its destinations in any order and priority", () => {
    fc.assert(
      fc.property(numberRecord, fc.integer({ min: 0, max: 5 }), (now, shift) => {
        const current = wire(now);
        expect(effects("number", diffNumber(currentSettings(current), current))).toEqual([]);
        // Another order and other priorities over the same targets: where calls go is unchanged.
        const reordered = canonicalDestinations(now.destination.map((d) => ({ ...d, priority: ((d.priority + shift) % 3) + 1 })));
        expect(effects("number", [{ path: "destinations", before: now.destination, after: reordered.reverse() }])).toEqual([]);
      }),
      RUNS,
    );
  });

  it("names the class: narrowed (two to one), diverted (to another PSTN number), removed, cleared, SMS off", () => {
    const sip = { priority: 1, transport: 1, destination: "sip.a.example", trunk_id: null };
    const pstn = { priority: 2, transport: 4, destination: "15557654321", trunk_id: null };
    const other = { ...pstn, destination: "15550001111" };
    expect(effects("number", [{ path: "destinations", before: [sip, pstn], after: [sip] }])).toEqual(["routing_narrowed"]);
    expect(effects("number", [{ path: "destinations", before: [sip, pstn], after: [sip, other] }])).toEqual(["routing_diverted"]);
    expect(effects("number", [{ path: "destinations", before: [pstn], after: [] }])).toEqual(["routing_removed"]);
    expect(effects("number", [{ path: "destinations", before: [], after: [pstn] }])).toEqual([]);
    expect(effects("number", [{ path: "sms_relay_url", before: "https://a.example/x", after: null }])).toEqual(["callback_cleared"]);
    expect(effects("number", [{ path: "call_status_url", before: "https://a.example/x", after: null }])).toEqual(["callback_cleared"]);
    expect(effects("number", [{ path: "sms_relay_url", before: "https://a.example/x", after: "https://b.example/y" }])).toEqual([]);
    expect(effects("number", [{ path: "sms_enabled", before: true, after: false }])).toEqual(["sms_disabled"]);
    expect(effects("number", [{ path: "sms_enabled", before: false, after: true }])).toEqual([]);
  });
});

// ---- sub-accounts and the account's callbacks ------------------------------------------------------

describe("sub-accounts and account callbacks: a callback cleared is destructive", () => {
  it("over any change of status and default destinations", () => {
    fc.assert(
      fc.property(fc.constantFrom("enabled", "disabled"), fc.constantFrom("enabled", "disabled"), url, url, url, url, (s0, s1, sms0, sms1, dlr0, dlr1) => {
        const diff = changed([
          { path: "status", before: s0, after: s1 },
          { path: "default_destinations.sms_endpoint", before: sms0, after: sms1 },
          { path: "default_destinations.dlr_endpoint", before: dlr0, after: dlr1 },
        ]);
        const destructive = (s0 === "enabled" && s1 === "disabled") || (sms0 !== null && sms1 === null) || (dlr0 !== null && dlr1 === null);
        expect(effects("sub_account", diff).length > 0).toBe(destructive);
      }),
      RUNS,
    );
  });

  it("account callbacks: cleared is destructive; sent with an unknown before (the CLI's plan: the API never shows them) is not", () => {
    expect(effects("account_callbacks", [{ path: "sms_relay_url", before: "https://a.example/x", after: null }])).toEqual(["callback_cleared"]);
    expect(effects("account_callbacks", [{ path: "dlr_relay_url", before: null, after: "https://a.example/x" }])).toEqual([]);
  });
});

describe("every kind: a change with nothing in its diff is never destructive", () => {
  it("an update whose entries all keep their value", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...KINDS.map((k) => k.name)),
        fc.array(fc.tuple(fc.constantFrom("status", "sms_enabled", "ip_restrict", "max_call_cost", "sms_relay_url", "destinations", "max_channels"), fc.jsonValue()), { maxLength: 5 }),
        (name, entries) => {
          expect(effects(name, entries.map(([path, v]) => ({ path, before: v, after: structuredClone(v) })))).toEqual([]);
        },
      ),
      RUNS,
    );
  });
});
