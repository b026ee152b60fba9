/**
 * Numbers routed to a SIP trunk by its label (`trunk: acme-pbx`): the label resolved to the trunk's
 * login (the destination) and id at plan time; for a trunk created in the same apply, after its
 * create, from what the create made (`EarlierWrites`).
 */
import type { SipTrunkSummary } from "../../client/types";
import type { DesiredDestination, DesiredNumber } from "./types";
import type { EarlierWrites, Write } from "../../kit/contract";
import { SIP_TRUNK_KIND, createProblem, matchTrunk, trunkSettingsOf, type DesiredSipTrunk } from "../sip-trunk/public";
import { patchFor, settingsOf } from "./handler";
import type { NumberOp } from "./op";

/** What the plan shows for the login of a trunk not created yet. */
export const pendingLogin = (label: string): string => `(login of SIP trunk "${label}", known after apply)`;

/**
 * The number with every `trunk:` destination filled in: an existing trunk's login and id, or, for
 * a declared trunk this run will create, a placeholder (its label listed in `newTrunks`). A label
 * that cannot be resolved (ambiguous, pinned id missing, a create that cannot happen) is a problem.
 */
export function resolveTrunkLabels(
  n: DesiredNumber,
  account: readonly SipTrunkSummary[],
  declaredTrunks: readonly DesiredSipTrunk[],
): { number: DesiredNumber; newTrunks: string[] } | { problem: string } {
  if (!n.destinations?.some((d) => d.trunk !== undefined)) return { number: n, newTrunks: [] };
  const newTrunks: string[] = [];
  const destinations: DesiredDestination[] = [];
  for (const d of n.destinations) {
    if (d.trunk === undefined) {
      destinations.push(d);
      continue;
    }
    const label = d.trunk;
    const declared = declaredTrunks.find((t) => t.label === label) ?? { label, path: "" };
    let hit: SipTrunkSummary | undefined;
    try {
      hit = matchTrunk(declared, account);
    } catch (err) {
      return { problem: `routes to SIP trunk "${label}": ${(err as Error).message}` };
    }
    if (hit) {
      destinations.push({ destination: hit.name, transport: 5, priority: d.priority, trunk_id: hit.id });
      continue;
    }
    if (declared.id !== undefined) return { problem: `routes to SIP trunk "${label}", whose pinned id ${declared.id} does not exist` };
    const problem = createProblem(trunkSettingsOf(declared as DesiredSipTrunk));
    if (problem) return { problem: `routes to SIP trunk "${label}", which does not exist yet and cannot be created: ${problem}` };
    newTrunks.push(label);
    destinations.push({ destination: pendingLogin(label), transport: 5, priority: d.priority, trunk_id: null });
  }
  return { number: { ...n, destinations }, newTrunks };
}

/**
 * The ops as apply writes them, once the trunks created in earlier waves are known: destinations
 * and patches carry the new ids. An op whose trunk was not created (its create failed or was never
 * sent) becomes a write that fails, naming the trunk, and sends nothing.
 */
export function withMadeTrunks(ops: readonly NumberOp[], earlier: EarlierWrites): { ops: NumberOp[]; unresolved: Write[] } {
  const ready: NumberOp[] = [];
  const unresolved: Write[] = [];
  for (const o of ops) {
    if (!o.newTrunks || !o.declared) {
      ready.push(o);
      continue;
    }
    const made = (label: string) => {
      const m = earlier.made(SIP_TRUNK_KIND, label);
      return m && typeof m.id === "number" && typeof m.name === "string" ? { id: m.id, name: m.name } : undefined;
    };
    const missing = o.newTrunks.filter((label) => made(label) === undefined);
    if (missing.length > 0) {
      const fields = o.write.fields;
      unresolved.push({
        keys: [o.key],
        fields: () => fields,
        send: () => Promise.reject(new Error(`SIP trunk ${missing.map((l) => `"${l}"`).join(", ")} was not created in this run, so the number cannot route to it; not written`)),
      });
      continue;
    }
    const byLogin = new Map(o.newTrunks.map((label) => [pendingLogin(label), made(label)!]));
    const destinations = (o.declared.destinations ?? []).map((d) => {
      const t = d.trunk_id === null ? byLogin.get(d.destination) : undefined;
      return t ? { ...d, destination: t.name, trunk_id: t.id } : d;
    });
    const desired = settingsOf({ ...o.declared, destinations });
    // The op is the one confirm reads back: it now holds what is really written.
    o.desired = desired;
    o.write = { ...o.write, patch: patchFor(desired, o.write.fields) };
    ready.push(o);
  }
  return { ops: ready, unresolved };
}
