/**
 * Checks for the data a saved plan gives back to a kind (`SavedPlanSupport.load`): the file may
 * be corrupt or hand-edited, so every field a kind reads is checked, and a bad one is an Error
 * naming it (the apply is refused, naming the item).
 */

export class SavedDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SavedDataError";
  }
}

export function record(v: unknown, what: string): Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw new SavedDataError(`${what} is not an object`);
  return v as Record<string, unknown>;
}

export function text(v: unknown, what: string): string {
  if (typeof v !== "string") throw new SavedDataError(`${what} is not a string`);
  return v;
}

export function textOrNull(v: unknown, what: string): string | null {
  return v === null ? null : text(v, what);
}

export function wholeNumber(v: unknown, what: string): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v)) throw new SavedDataError(`${what} is not a whole number`);
  return v;
}

export function oneOf<T extends string>(v: unknown, allowed: readonly T[], what: string): T {
  if (typeof v !== "string" || !(allowed as readonly string[]).includes(v)) {
    throw new SavedDataError(`${what} is not one of ${allowed.join(", ")}`);
  }
  return v as T;
}

/** The action of a saved change, when the kind has it; else an Error naming what the kind does. */
export function actionOf<A extends string>(action: string, allowed: readonly A[], kind: string): A {
  if (!(allowed as readonly string[]).includes(action)) throw new SavedDataError(`a ${kind} is never ${action === "replace" ? "replaced" : `${action}d`}: its changes are ${allowed.join(", ")}`);
  return action as A;
}

/** A value as read or as saved, quoted for a drift message (`"enabled"`, `null`). */
export function shown(v: unknown): string {
  return v === undefined ? "absent" : JSON.stringify(v);
}

/** An http(s) URL (what the file's URL fields take). */
export function httpUrl(v: unknown, what: string): string {
  const s = text(v, what);
  let ok = false;
  try {
    const u = new URL(s);
    ok = u.protocol === "https:" || u.protocol === "http:";
  } catch {
    ok = false;
  }
  if (!ok) throw new SavedDataError(`${what} is not an http(s) URL`);
  return s;
}

/**
 * A saved plan that is sound but cannot be carried out in this run's environment (the variable a
 * trunk's `password_env` names is not set): the apply is refused naming the item, before anything
 * is read or written, and the plan stays good for a run that has it.
 */
export class SavedPlanNotReadyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SavedPlanNotReadyError";
  }
}
