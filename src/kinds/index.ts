/**
 * The registry of resource kinds: the one list the plan engine, `validate`, `export`, the
 * renderers and the file schema iterate (docs/ARCHITECTURE.md, "Resource kinds"). Adding a kind
 * is one line here; its order is the order of plans, reports and apply results.
 *
 * The third floor (docs/ARCHITECTURE.md, "The four floors"): it imports the kinds; only what sits
 * above it (the file loader, the plan engine, export, the renderers, the Pulumi faces, the CLI)
 * imports it.
 */
import type * as contract from "../kit/contract";
import { subAccountKind } from "./sub-account";
import { callWebhookKind } from "./call-webhook";
import { numberKind } from "./number";
import { senderIdKind } from "./sender-id";
import { tenDlcNumberKind } from "./ten-dlc-number";
import { accountCallbacksKind } from "./account-callbacks";
import { sipTrunkKind } from "./sip-trunk";

const REGISTRY = [
  subAccountKind,
  sipTrunkKind,
  callWebhookKind,
  numberKind,
  senderIdKind,
  tenDlcNumberKind,
  accountCallbacksKind,
] as const;

/** A registered kind, with its own types (`ChangeKind` is the union of their names). */
export type RegisteredKind = (typeof REGISTRY)[number];

/** Any registered kind, for the code that iterates the registry (its own types stay in its folder). */
export type AnyKind = contract.AnyKind<RegisteredKind["name"]>;

/** Every kind, in registry order. */
export const KINDS: readonly AnyKind[] = REGISTRY;

const byName = new Map<string, AnyKind>(KINDS.map((k) => [k.name, k]));

/** The kind of a name plans show (`sub_account`). */
export function kindNamed(name: string): AnyKind | undefined {
  return byName.get(name);
}

/** Registry position of a kind (plans, reports and results are in this order). */
export function kindRank(name: string): number {
  const i = KINDS.findIndex((k) => k.name === name);
  return i < 0 ? KINDS.length : i;
}

const IN_FILE_ORDER: readonly AnyKind[] = [...KINDS].sort((a, b) => a.file.order - b.file.order);

/** The kinds in the order their keys sit in the file (schema, export); one list, computed once (every check of a Pulumi resource walks it). */
export function kindsInFileOrder(): readonly AnyKind[] {
  return IN_FILE_ORDER;
}

/**
 * Waves of kinds for apply: each kind after the kinds it names in `after`, each wave after the one
 * before; kinds in one wave write concurrently. Throws on an unknown name or a cycle (a
 * programming error, caught by the registry test).
 */
export function applyWaves(kinds: readonly AnyKind[] = KINDS): AnyKind[][] {
  const names = new Set<string>(kinds.map((k) => k.name));
  const placed = new Map<string, number>();
  const waves: AnyKind[][] = [];
  let left = [...kinds];
  while (left.length > 0) {
    const ready = left.filter((k) =>
      (k.after ?? []).every((a) => {
        if (!names.has(a)) throw new Error(`kind ${k.name} is ordered after ${a}, which is not registered`);
        return placed.has(a);
      }),
    );
    if (ready.length === 0) throw new Error(`kinds ordered in a cycle: ${left.map((k) => k.name).join(", ")}`);
    for (const k of ready) placed.set(k.name, waves.length);
    waves.push(ready);
    left = left.filter((k) => !ready.includes(k));
  }
  return waves;
}

export type { Kind, KindPlan, KindChange, Write, WriteReport, FileFragment, OpBase } from "../kit/contract";
