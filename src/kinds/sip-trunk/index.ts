/**
 * The SIP trunk kind: identity is the label (or a pinned `id:`); one POST, PUT or DELETE per trunk;
 * the password is write-only, read at apply only from the variable `password_env` names, and sent
 * with the create and every PUT (the official PUT body requires it; `--rotate-password LABEL` sends
 * one when no setting differs); apply refuses before any write when a variable it needs is unset
 * (`secrets`); a trunk is deleted only with `--prune`, and never while a number routes to it.
 *
 * The guard rails of issue #27: a PUT (which replaces the trunk) is planned only when the read
 * shows every setting the file leaves out, else the item is a problem naming them; a create
 * re-reads the label right before the POST and checks for a twin after it (handler.ts,
 * `createTrunk`); and the read-back after the writes repairs what a concurrent run's PUT reverted.
 */
import type { SipTrunk, SipTrunkSummary, WavixNumber } from "../../client/types";
import type { DesiredSipTrunk, SipTrunkPart } from "./types";
import type { SipTrunkOp, TrunkCurrent } from "./op";
import { SIP_TRUNK_KIND, TRUNK_LIST, trunkList } from "./public";
import type { Kind, KindPlan, Write } from "../../kit/contract";
import { reportedResult } from "../../kit/contract";
import { twinRemovedText } from "../../kit/twins";
import { listAllNumbers, type NumberPart } from "../number/public";
import {
  createDiff,
  createProblem,
  createTrunk,
  deleteTrunk,
  diffTrunk,
  matchTrunk,
  passwordDiff,
  passwordProblem,
  pinnedTrunkMissingMessage,
  putProblem,
  readTrunks,
  lostFields,
  trunkSettingsOf,
  updateProblem,
  updateTrunk,
} from "./handler";
import { sipTrunksFragment } from "./schema";
import { sipTrunkFileForm } from "./file";
import { sipTrunkExport } from "./export";
import { sipTrunkSaved } from "./saved";
import { sipTrunkEffects } from "./effects";
import { sipTrunkSchema } from "./pulumi-schema";

export type { SipTrunkOp, TrunkCurrent } from "./op";

/**
 * How long after its trunk PUTs a run reads them back, to see a concurrent run's stale PUT (the
 * sub-accounts' rule, src/kinds/sub-account/index.ts `SETTLE_MS`; a PUT delayed longer can still be
 * lost: serialise runs, docs/RELIABILITY.md).
 */
export const SETTLE_MS = 1000;
export { SIP_TRUNK_KIND, TRUNK_LIST, trunkList };


/**
 * The numbers that route to a trunk (by id, or by label in the file): the account's numbers as
 * they are now, and the declared numbers as the file wants them. Deleting a trunk is refused while
 * any does, naming them.
 */
export function routedNumbers(trunk: SipTrunkSummary, numbers: readonly WavixNumber[], desired: NumberPart): string[] {
  const out = new Set<string>();
  for (const n of numbers) if ((n.destination ?? []).some((d) => Number(d.transport) === 5 && d.trunk_id === trunk.id)) out.add(n.number);
  for (const n of desired.numbers ?? []) {
    if ((n.destinations ?? []).some((d) => d.transport === 5 && (d.trunk_id === trunk.id || d.trunk === trunk.label))) out.add(n.number);
  }
  return [...out].sort();
}

export const sipTrunkKind: Kind<"sip_trunk", DesiredSipTrunk[], TrunkCurrent, SipTrunkOp, "SipTrunk", SipTrunkPart & NumberPart> = {
  name: "sip_trunk",
  label: { one: "SIP trunk", many: "SIP trunks" },
  file: sipTrunksFragment,
  fileForm: sipTrunkFileForm,
  export: sipTrunkExport,
  saved: sipTrunkSaved,
  effects: sipTrunkEffects,
  pulumi: {
    type: "SipTrunk",
    collection: "sipTrunks",
    program: () => (require("./pulumi") as typeof import("./pulumi")).sipTrunkProgram,
    schema: () => sipTrunkSchema,
  },
  provider: () => (require("./provider") as typeof import("./provider")).sipTrunkProvider,
  declared: (state) => state.sip_trunks,
  count: (declared) => declared.length,

  async read(ctx, declared) {
    const list = await trunkList(ctx);
    const ids = new Set<number>();
    for (const d of declared) {
      try {
        const hit = matchTrunk(d, list);
        if (hit) ids.add(hit.id);
      } catch {
        // Ambiguous: the plan reports it; nothing to read.
      }
    }
    return { list, records: await readTrunks(ctx.client, [...ids]) };
  },

  async plan(ctx, declared, { list, records }) {
    const out: KindPlan<SipTrunkOp> = { changes: [], problems: [], unmanaged: [], unchanged: 0, notes: [] };
    // Which variable apply will read for each trunk it writes (a plan needs no secret; the apply job needs these).
    const needs = (want: { label: string; password_env?: string }, what: string) =>
      out.notes!.push({ key: want.label, message: `apply reads its password from the environment variable ${want.password_env} (${what}); nothing is written unless it is set` });
    const claimed = new Set<number>();
    for (const d of declared) {
      const want = trunkSettingsOf(d);
      let hit: SipTrunkSummary | undefined;
      try {
        hit = matchTrunk(want, list);
      } catch (err) {
        out.problems.push({ key: d.label, message: ctx.describe(err), at: d });
        for (const t of list) if (t.label === d.label) claimed.add(t.id);
        continue;
      }
      if (!hit && want.id !== undefined) {
        out.problems.push({ key: d.label, message: pinnedTrunkMissingMessage(want), at: d });
        continue;
      }
      if (!hit) {
        const problem = createProblem(want);
        if (problem) out.problems.push({ key: d.label, message: problem, at: d });
        else {
          out.changes.push({ diff: createDiff(want), op: { key: d.label, action: "create", desired: want } });
          needs(want, "the create sends it");
        }
        continue;
      }
      claimed.add(hit.id);
      const current = records.get(hit.id);
      if (!current) {
        out.problems.push({ key: d.label, message: `SIP trunk ${hit.id} ("${hit.label}") is listed but could not be read; re-run plan`, at: d });
        continue;
      }
      // The password is read at apply (a plan needs no secret): only that it has a variable is checked here.
      const rotate = ctx.rotate.has(d.label);
      if (rotate && want.password_env === undefined) {
        out.problems.push({ key: d.label, message: `--rotate-password ${d.label}: SIP trunk "${d.label}" has no \`password_env:\` naming the variable that holds its password`, at: d });
        continue;
      }
      const diff = diffTrunk(want, current);
      if (diff.length === 0 && !rotate) {
        out.unchanged++;
        continue;
      }
      // A PUT replaces the trunk: it is built only from a read showing every setting the file leaves out.
      const unsafe = putProblem(want, current);
      if (unsafe) {
        out.problems.push({ key: d.label, message: unsafe, at: d });
        continue;
      }
      // The PUT carries the password (the official body requires it): the file must say where it is.
      const noPassword = updateProblem(want);
      if (noPassword) {
        out.problems.push({ key: d.label, message: noPassword, at: d });
        continue;
      }
      // The password cannot be compared (write-only): said on every update, with the variable apply reads.
      out.changes.push({ diff: [...diff, passwordDiff(want, rotate)], op: { key: d.label, action: "update", desired: want, current, rotate } });
      needs(want, "every PUT sends it: the API requires it");
    }
    for (const label of ctx.rotate) {
      if (!declared.some((d) => d.label === label)) out.problems.push({ key: label, message: `--rotate-password ${label}: no SIP trunk of that label is declared in sip_trunks` });
    }
    const undeclared = list.filter((t) => !claimed.has(t.id));
    if (!ctx.prune) {
      out.unmanaged.push(...undeclared.map((t) => t.label));
      return out;
    }
    if (undeclared.length === 0) return out;
    // Never delete a trunk a number routes to (now, or as the file declares it): the account's
    // numbers are read completely (GETs only) to say which.
    let numbers: WavixNumber[];
    try {
      numbers = await listAllNumbers(ctx.client);
    } catch (err) {
      for (const t of undeclared) out.problems.push({ key: t.label, message: `not deleted: the numbers routed to it could not be read: ${ctx.describe(err)}` });
      return out;
    }
    for (const t of undeclared) {
      const routed = routedNumbers(t, numbers, ctx.desired);
      if (routed.length > 0) {
        const shown = routed.length > 10 ? `${routed.slice(0, 10).join(", ")} and ${routed.length - 10} more` : routed.join(", ");
        out.problems.push({
          key: t.label,
          message: `SIP trunk "${t.label}" (id ${t.id}) is not deleted: ${routed.length === 1 ? "number" : "numbers"} ${shown} ${routed.length === 1 ? "routes" : "route"} to it; route ${routed.length === 1 ? "it" : "them"} elsewhere first (apply), then prune`,
        });
        continue;
      }
      out.changes.push({ diff: [{ path: "label", before: t.label, after: null }], op: { key: t.label, action: "delete", current: t } });
    }
    return out;
  },

  writes: (ops) =>
    ops.map((op): Write => ({
      keys: [op.key],
      fields: () => [],
      async send(client) {
        if (op.action === "create") {
          const { trunk, reconciled, adopted, twin } = await createTrunk(client, op.desired);
          op.made = { id: trunk.id, name: trunk.name };
          return { reconciled, adopted, made: { id: trunk.id, name: trunk.name }, ...(twin ? { twin: twinRemovedText(twin, trunk.id) } : {}) };
        }
        if (op.action === "update") await updateTrunk(client, op.current, op.desired, { rotate: op.rotate });
        else await deleteTrunk(client, op.current);
      },
    })),

  // Every create and PUT sends the password, read now from the variable the file names: an apply
  // whose variable is unset (or holds the API key) is refused before any write, naming both.
  secrets: (ops, ctx) =>
    ops.flatMap((op) => {
      if (op.action === "delete") return [];
      const problem = passwordProblem(op.desired, op.action === "create" ? "create" : op.rotate ? "rotate" : "update", ctx.env, ctx.isApiKey);
      return problem ? [{ key: op.key, message: problem.replace(/[;.] [Nn]othing was written$/, "") }] : [];
    }),

  /**
   * Reads back every trunk created or updated: it must show what was written. An update is read
   * back after a pause (`settleMs`): a PUT replaces the trunk and the API has no conditional write,
   * so a concurrent run whose PUT was built from a read taken before ours, and landed after ours,
   * reverts the settings we wrote. What was lost is written again, merged onto the trunk as it is
   * then (so the other run's change stays), and read back once more; only a setting that still does
   * not show fails the item. Settings the API does not show are not judged.
   */
  async confirm(ctx, ops, report) {
    const results = ops.map((op) => reportedResult(op, [], report));
    const check = results.filter((r) => r.outcome === "ok" && r.action !== "delete");
    if (check.some((r) => r.action === "update")) await new Promise((done) => setTimeout(done, ctx.settleMs ?? SETTLE_MS));
    for (const r of check) {
      const op = ops.find((o) => o.key === r.key && o.action === r.action);
      if (!op || op.action === "delete") continue;
      const id = op.action === "create" ? op.made?.id : op.current.id;
      if (id === undefined) continue;
      try {
        const back = await ctx.client.getTrunk(id);
        const lost = lostFields(op.desired, back);
        if (lost.length === 0) continue;
        // Reverted since it was written: write again from the trunk as it is now, then look once more.
        await updateTrunk(ctx.client, back, op.desired, { fresh: back });
        const again = lostFields(op.desired, await ctx.client.getTrunk(id));
        if (again.length > 0) Object.assign(r, { outcome: "failed", error: `written but read back different: ${again.join(", ")}` });
      } catch (err) {
        Object.assign(r, { outcome: "failed", error: `written, but the read-back failed: ${ctx.describe(err)}` });
      }
    }
    return { results };
  },
};
