/**
 * The sub-account kind: identity is the exact name (or a pinned `id:`); the API has no delete, so
 * a pruned sub-account is disabled; every create is checked afterwards for a twin.
 */
import { twinRemovedText } from "../../kit/twins";
import type { SubAccount } from "../../client/types";
import type { DesiredSubAccount, SubAccountPart } from "./types";
import type { SubAccountOp } from "./op";
import { subAccountList, SUB_ACCOUNT_LIST } from "./public";
import type { ConfirmContext, Kind, KindPlan, Write } from "../../kit/contract";
import type { ChangeResult } from "../../kit/change/types";
import { reportedResult } from "../../kit/contract";
import { sameName } from "../../kit/identity";
import {
  createDiff,
  createSubAccount,
  diffSubAccount,
  disableSubAccount,
  listAllSubAccounts,
  listingAfterCreate,
  matchSubAccount,
  pinnedSubAccountMissingMessage,
  subAccountSettingsOf,
  createdCheck,
  twinMessage,
  updateSubAccount,
  type SubAccountSettings,
} from "./handler";
import { subAccountsFragment } from "./schema";
import { subAccountFileForm } from "./file";
import { subAccountExport } from "./export";
import { subAccountSaved } from "./saved";
import { subAccountEffects } from "./effects";
import { subAccountSchema } from "./pulumi-schema";

export type { SubAccountOp } from "./op";
export { subAccountList, SUB_ACCOUNT_LIST };

/**
 * How long after its sub-account PUTs a run looks again for another run's stale PUT (issue #22). A
 * PUT replaces the whole record and the API has no conditional write, so a concurrent run whose PUT
 * was built from a read taken before ours, and lands after our read-back, reverts our fields
 * silently. Looking once more after this pause and writing again what was lost (merged onto what
 * the record holds then, so the other run's change stays) keeps both runs' changes when the other
 * PUT lands within it. A PUT delayed longer can still be lost: serialise runs (docs/RELIABILITY.md).
 */
export const SETTLE_MS = 1000;

async function settleCheck(ctx: ConfirmContext, ops: readonly SubAccountOp[], results: Array<Omit<ChangeResult, "kind">>): Promise<void> {
  const written = results.filter((r) => (r.action === "update" || r.action === "delete") && r.outcome === "ok");
  if (written.length === 0) return;
  await new Promise((done) => setTimeout(done, ctx.settleMs ?? SETTLE_MS));
  let all: SubAccount[];
  try {
    all = await listAllSubAccounts(ctx.client);
  } catch (err) {
    for (const r of written) Object.assign(r, { outcome: "failed", error: `written, but the check for a concurrent run's stale write failed: ${ctx.describe(err)}` });
    return;
  }
  for (const r of written) {
    const op = ops.find((o) => o.key === r.key && o.action === r.action);
    if (!op || op.action === "create") continue;
    const desired: SubAccountSettings = op.action === "update" ? op.desired : { name: op.current.name, status: "disabled" };
    const now = all.find((x) => x.id === op.current.id);
    if (!now) continue;
    const lost = diffSubAccount(desired, now).map((d) => d.path);
    if (lost.length === 0) continue;
    try {
      await updateSubAccount(ctx.client, now, desired);
    } catch (err) {
      Object.assign(r, {
        outcome: "failed",
        error: `another write reverted ${lost.join(", ")} after this run wrote ${lost.length === 1 ? "it" : "them"} (a concurrent run?), and writing again failed: ${ctx.describe(err)}`,
      });
    }
  }
}

export const subAccountKind: Kind<"sub_account", DesiredSubAccount[], SubAccount[], SubAccountOp, "SubAccount", SubAccountPart> = {
  name: "sub_account",
  label: { one: "sub-account", many: "sub-accounts" },
  file: subAccountsFragment,
  fileForm: subAccountFileForm,
  export: subAccountExport,
  pulumi: {
    type: "SubAccount",
    collection: "subAccounts",
    program: () => (require("./pulumi") as typeof import("./pulumi")).subAccountProgram,
    schema: () => subAccountSchema,
  },
  provider: () => (require("./provider") as typeof import("./provider")).subAccountProvider,
  deleteNote: " (disabled: the API has no delete)",
  effects: subAccountEffects,
  saved: subAccountSaved,
  declared: (state) => state.sub_accounts,
  count: (declared) => declared.length,
  read: (ctx) => subAccountList(ctx),

  plan(ctx, declared, subs) {
    const out: KindPlan<SubAccountOp> = { changes: [], problems: [], unmanaged: [], unchanged: 0 };
    const claimed = new Set<number>();
    for (const d of declared) {
      const want = subAccountSettingsOf(d);
      let current: SubAccount | undefined;
      try {
        current = matchSubAccount(want, subs);
      } catch (err) {
        out.problems.push({ key: d.name, message: ctx.describe(err), at: d });
        for (const s of subs) if (sameName(s.name, d.name)) claimed.add(s.id);
        continue;
      }
      if (!current && want.id !== undefined) {
        out.problems.push({ key: d.name, message: pinnedSubAccountMissingMessage(want), at: d });
        continue;
      }
      if (!current) {
        out.changes.push({ diff: createDiff(want), op: { key: d.name, action: "create", desired: want } });
        continue;
      }
      claimed.add(current.id);
      const diff = diffSubAccount(want, current);
      if (diff.length === 0) out.unchanged++;
      else out.changes.push({ diff, op: { key: d.name, action: "update", desired: want, current } });
    }
    for (const s of subs) {
      if (claimed.has(s.id)) continue;
      if (ctx.prune && s.status !== "disabled") {
        out.changes.push({ diff: [{ path: "status", before: s.status, after: "disabled" }], op: { key: s.name, action: "delete", current: s } });
      } else if (!ctx.prune) {
        out.unmanaged.push(s.name);
      }
    }
    return out;
  },

  writes: (ops) =>
    ops.map((op): Write => ({
      keys: [op.key],
      fields: () => [],
      async send(client) {
        if (op.action === "create") {
          const made = await createSubAccount(client, op.desired);
          op.createdId = made.account.id;
          // The note names the id only: the record holds the new sub-account's key.
          return {
            reconciled: made.reconciled,
            adopted: made.adopted,
            id: made.account.id,
            ...(made.twin ? { twin: twinRemovedText(made.twin, made.account.id) } : {}),
          };
        }
        if (op.action === "update") await updateSubAccount(client, op.current, op.desired);
        else await disableSubAccount(client, op.current);
      },
    })),

  /**
   * Every sub-account this run created (or adopted at create) must exist exactly once afterwards: a
   * concurrent actor may have created the same name between our read by name and our POST, and no
   * read can close that window. A twin fails the item, naming every id (the run exits 1).
   */
  async confirm(ctx, ops, report) {
    const results = ops.map((op) => reportedResult(op, [], report));
    const created = results.filter((r) => r.action === "create" && r.outcome === "ok");
    if (created.length === 0) {
      await settleCheck(ctx, ops, results);
      return { results };
    }
    let all: SubAccount[];
    try {
      all = await listAllSubAccounts(ctx.client);
      // A newer twin of one this run created is being removed by the run that made it: wait for it.
      for (const op of ops) {
        if (op.action !== "create" || op.createdId === undefined || !created.some((r) => r.key === op.key)) continue;
        if (all.filter((s) => sameName(s.name, op.key)).length > 1) all = await listingAfterCreate(ctx.client, op.key, op.createdId);
      }
    } catch (err) {
      for (const r of created) Object.assign(r, { outcome: "failed", error: `created, but the check for a twin failed: ${ctx.describe(err)}` });
      return { results };
    }
    for (const r of created) {
      const op = ops.find((o) => o.key === r.key && o.action === "create");
      const id = op?.action === "create" ? op.createdId : undefined;
      let problem: string | undefined;
      try {
        problem = id === undefined ? twinMessage(r.key, all) : await createdCheck(ctx.client, r.key, id, all);
      } catch (err) {
        problem = `created (id ${id}), but the check that it can be found again failed: ${ctx.describe(err)}`;
      }
      // A twin, or a name the API keeps otherwise: a re-run cannot fix either (it would create again).
      if (problem) Object.assign(r, { outcome: "failed", error: problem, rerunHelps: false });
    }
    await settleCheck(ctx, ops, results);
    return { results };
  },
};
