/**
 * `--json-events` (plan, apply): standard output becomes a stream of events, one JSON object per
 * line, written as they happen, for a pipeline that watches progress (as `terraform plan -json`
 * streams its UI). Standard error keeps the human messages. Every event has `type` and `time`
 * (ISO 8601, UTC); the types, in the order they come (docs/COMMANDS.md):
 *
 *   start            { command, file, version }
 *   read             { listing, page, pages? }          each listing page read (pages: what it claims)
 *   planned_change   { change }                          as `plan --json`'s changes[i]
 *   diagnostic       { severity: "error", kind?, key?, message, at? }   a problem, or why the run failed
 *   plan             { summary, targeted?, saved_plan? } the plan is complete
 *   apply_progress   { done, total }                     items written so far
 *   apply_result     { result }                          as `apply --json`'s results[i]
 *   end              { command, ok, exit_code }          always last
 *
 * Secrets never appear: every value comes from the renderings that mask them (src/plan/json.ts).
 */
import { applyJson, planJson, problemText, type ApplyResult, type Plan } from "../plan";
import { colorOn, colorPlan } from "./color";

let active: { command: string } | undefined;

function emit(type: string, fields: Record<string, unknown>): void {
  process.stdout.write(JSON.stringify({ type, time: new Date().toISOString(), ...fields }) + "\n");
}

/** Starts the event stream of this run (`--json-events`); the usual standard output is then not written. */
export function startEvents(command: "plan" | "apply", file: string): void {
  active = { command };
  emit("start", { command, file, version: require("../../package.json").version as string });
}

/** Whether this run streams events. */
export function streaming(): boolean {
  return active !== undefined;
}

/** Standard output's text, unless the run streams events; a text plan coloured on a terminal. */
export function stdoutText(text: string, plan = false): void {
  if (active) return;
  process.stdout.write(plan && colorOn(process.stdout) ? colorPlan(text) : text);
}

/** A listing page read (the client's `onPage`). */
export function readEvent(read: { listing: string; page: number; pages?: number }): void {
  if (active) emit("read", { ...read });
}

/** The plan, change by change, its problems, then its summary. */
export function planEvents(plan: Plan): void {
  if (!active) return;
  const json = planJson(plan);
  for (const change of json.changes) emit("planned_change", { change });
  for (const p of plan.problems) emit("diagnostic", { severity: "error", kind: p.kind, key: p.key, message: problemText(p), ...(p.at ? { at: { ...p.at } } : {}) });
  const { summary, targeted, saved_plan } = json as { summary: unknown; targeted?: unknown; saved_plan?: unknown };
  emit("plan", { summary, ...(targeted ? { targeted } : {}), ...(saved_plan ? { saved_plan } : {}) });
}

/** Items written so far (apply's `onProgress`). */
export function progressEvent(done: number, total: number): void {
  if (active) emit("apply_progress", { done, total });
}

/** Each item's outcome once the apply is over. */
export function resultEvents(plan: Plan, result: ApplyResult): void {
  if (!active) return;
  for (const r of applyJson(plan, result).results) emit("apply_result", { result: r });
}

/** The run's end: why it failed (one diagnostic per problem) and its exit code. Ends the stream. */
export function endEvents(exitCode: number, problems: readonly string[] = []): void {
  if (!active) return;
  for (const message of problems) emit("diagnostic", { severity: "error", message });
  emit("end", { command: active.command, ok: exitCode === 0, exit_code: exitCode });
  active = undefined;
}
