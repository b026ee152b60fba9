/**
 * The report of a run that failed before it could report a plan or an apply (issue #20): the file
 * did not validate, the key was refused or belongs to another account, a listing failed, the
 * safety limit refused the apply, or the apply itself threw. With `--out`, plan and apply write it
 * in the format asked (text, JSON, Markdown), so a pipeline's artifact or pull-request comment
 * never silently keeps the last good plan. Verdict `failed`, the problems, never a secret.
 */
import type { Plan } from "./types";
import { planJson } from "./json";
import { maskText } from "./mask";

/** Where the run stopped. */
export type FailureStage = "validation" | "authentication" | "listing" | "plan" | "saved-plan" | "safety" | "secrets" | "apply";

export interface FailureReport {
  command: "plan" | "apply";
  /** The desired-state file, as given. */
  file: string;
  stage: FailureStage;
  /** One line each (`FILE:LINE:COL: message (at path)` for the file's problems); masked when rendered. */
  problems: string[];
  /** The plan, when the run got that far (a refused or failed apply). */
  plan?: Plan;
}

/** What each stage means, for the verdict line. */
export const STAGE_TEXT: Record<FailureStage, string> = {
  validation: "the file did not validate; nothing was sent",
  authentication: "the API key was refused or belongs to another account",
  listing: "the account could not be read",
  plan: "the plan has problems (declared items that could not be planned), and nothing is written from an incomplete plan; nothing was written",
  "saved-plan": "the saved plan was refused (damaged, for another account or API, or the account changed since); nothing was written",
  safety: "the safety limit on destructive changes refused the apply; nothing was written",
  secrets: "a secret the apply must send (a SIP trunk's password, from the variable its password_env names) could not be read; nothing was written",
  apply: "the apply stopped with an error",
};

export function failureText(r: FailureReport): string {
  return [`wavix-sync ${r.command} of ${r.file} failed (${r.stage}: ${STAGE_TEXT[r.stage]}):`, ...r.problems.map((p) => `  - ${maskText(p)}`)].join("\n") + "\n";
}

export function failureJson(r: FailureReport) {
  return {
    ...(r.plan ? planJson(r.plan) : { version: 1 as const }),
    verdict: "failed" as const,
    command: r.command,
    stage: r.stage,
    problems: r.problems.map((p) => ({ message: maskText(p) })),
  };
}
