/**
 * One object per identity after a create (issue #33 item 4), the rule every kind that creates ends
 * with. A run reads the identity right before its POST, but a create the server takes long to commit
 * leaves a window no read can close: two runs both read "none" and both create. So after its create
 * each run reads the identity again and the oldest holder is kept by everyone:
 *
 * - the oldest is this run's own object: keep it (a run that started later, whose object is newer,
 *   removes its own);
 * - another object is older: this run removes its own (a DELETE; a sub-account, which the API cannot
 *   delete, is disabled and renamed so its name names one object again) and adopts the oldest.
 *
 * "Oldest" is the kind's creation order: ids that grow with creation (trunks, sub-accounts), or the
 * listing's order where ids carry no order (Sender IDs: UUIDs; the API lists them as created). The
 * later creator always sees the earlier one — its own create committed after the other's — so the
 * two runs never both remove theirs, and never both keep theirs. Nothing routes to the removed object
 * yet: the writes that point at a created object (numbers to a trunk) come after it in the run.
 */

/** What {@link settleTwins} did. */
export interface SettledTwins<T> {
  /** The object that holds the identity now: this run's, or the older one it adopted. */
  kept: T;
  /** Set when this run's object was a twin and was removed: what the run says about it. */
  twin?: TwinRemoved;
}

/** A twin this run made and removed again. */
export interface TwinRemoved {
  /** The removed object's Wavix id. */
  id: string | number;
  /** What was done to it, completing "this run's twin (id …) was …": `deleted`, `disabled and renamed "…"`. */
  done: string;
}

export interface TwinCheck<T> {
  /** What this run's create made. */
  made: T;
  idOf(item: T): string | number;
  /** Every object holding the identity, read now (after the create), oldest first. */
  holders(): Promise<readonly T[]>;
  /** Removes this run's own object (through the write gate); returns what was done (see {@link TwinRemoved.done}). */
  removeOwn(made: T): Promise<string>;
}

/** The twin check after a create: see the module comment. */
export async function settleTwins<T>(check: TwinCheck<T>): Promise<SettledTwins<T>> {
  const holders = await check.holders();
  const oldest = holders[0];
  const ours = check.idOf(check.made);
  if (oldest === undefined || check.idOf(oldest) === ours) return { kept: check.made };
  const done = await check.removeOwn(check.made);
  return { kept: oldest, twin: { id: ours, done } };
}

/** Oldest first, for kinds whose ids grow with creation. */
export function byNumericId<T extends { id: number }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => a.id - b.id);
}

/** The sentence a run says about a twin it removed (CLI output, JSON, the Pulumi log). */
export function twinRemovedText(twin: TwinRemoved, keptId: string | number): string {
  return `another run made it at the same moment; this run's twin (id ${twin.id}) was ${twin.done}; id ${keptId} is kept (no duplicate)`;
}
