/**
 * What plan and apply add around the engine for issue #20, kept out of plan-apply.ts so that file
 * only calls in: the account pin (before any other request), the blast-radius limit's wording, and
 * the report written to `--out` when a run fails before it could write one (validation,
 * authentication, listing, the safety limit, the apply itself): verdict "failed", the problems,
 * never a secret.
 */
import { rememberAccount } from "../kit/gate";
import type { WavixClient } from "../client";
import { ForbiddenError, NotFoundError, UnauthorizedError } from "../client";
import { formatProblem, loadDesiredState } from "../config";
import type { DesiredState } from "../config/types";
import {
  AccountMismatchError,
  checkAccountPin,
  describeError,
  failureJson,
  failureText,
  formatFailureMarkdown,
  formatPlan,
  formatPlanProblems,
  formatSafetyRefusal,
  problemText,
  mdText,
  overLimit,
  safetyLines,
  type FailureReport,
  type FailureStage,
  type Plan,
  type SafetyVerdict,
} from "../plan";
import { numberNotOwnedMessage } from "../kinds/number/public";
import { formatCount } from "../plan/count";
import { writeFileAtomic } from "./files";
import { CliExit } from "./output";

type Format = "text" | "json" | "md";

/** The Markdown lines for a plan over the safety limit (after the verdict). */
export function safetyMarkdown(verdict: SafetyVerdict | undefined, forced = false): string[] {
  if (!overLimit(verdict)) return [];
  const head = forced ? ":warning: **Over the safety limit, applied with --force:**" : ":warning: **Apply would be refused without `--force`:**";
  return [head, "", ...safetyLines(verdict).map((l) => `- ${mdText(l)}`)];
}

/** The text lines for a plan over the safety limit, after the plan. */
export function safetyText(verdict: SafetyVerdict | undefined, command: "plan" | "apply", forced = false): string {
  if (!overLimit(verdict)) return "";
  if (forced) return ["Over the safety limit; applying anyway (--force):", ...safetyLines(verdict).map((l) => `  - ${l}`)].join("\n") + "\n";
  return formatSafetyRefusal(verdict, command);
}

/** One run of plan or apply: where it stands, what went wrong, and whether a report was written. */
export class RunReport {
  stage: FailureStage = "validation";
  problems: string[] = [];
  plan?: Plan;
  safety?: SafetyVerdict;
  /** Set once the run wrote its own report to `--out` (a plan, an apply's results). */
  written = false;
  /** What the run talks to, once known (`account`): the Markdown heading names it. */
  target?: { baseUrl: string; account: string | null };
  /** The saved plan the run wrote (`plan --save`) or carries out (`apply --plan`): a shortened Markdown report points to it. */
  savedPlan?: string;
  /** The file's pin, as text, once checked against the key. */
  private pinned?: string;
  private accountRead?: Promise<string | null>;

  constructor(
    readonly command: "plan" | "apply",
    readonly file: string,
    readonly out: { path: string; format: Format } | undefined,
  ) {}

  /** Loads the file; on problems prints each (`FILE:LINE:COL: message (at path)`), records them, exits 1. */
  load(): DesiredState {
    const result = loadDesiredState(this.file, { secretValues: [process.env.WAVIX_API_KEY] });
    if (!result.ok) {
      this.problems = result.problems.map(formatProblem);
      for (const p of this.problems) process.stderr.write(p + "\n");
      throw new CliExit(1);
    }
    return result.state;
  }

  /** The client (stage authentication); a missing key is recorded for the report. */
  client(make: () => WavixClient): WavixClient {
    this.stage = "authentication";
    if (!process.env.WAVIX_API_KEY) this.problems = ["WAVIX_API_KEY is not set"];
    const c = make();
    this.problems = [];
    return c;
  }

  /** The account pin, when the file has one: one GET /v1/profile before anything else. */
  async checkPin(client: WavixClient, desired: DesiredState): Promise<void> {
    if (desired.account_id === undefined) return;
    await checkAccountPin(client, desired.account_id, `${this.file} account_id`);
    // As text from here on: an account id is compared and shown, never computed with.
    this.pinned = String(desired.account_id);
  }

  /**
   * The account the key is for, as text: the file's pin once checked (no request), else the `id` of
   * `GET /v1/profile`; null when the key may not read the profile. Read once per run; recorded as
   * the run's `target` for the Markdown heading.
   */
  account(client: WavixClient): Promise<string | null> {
    this.accountRead ??= (async () => {
      if (this.pinned !== undefined) return this.pinned;
      try {
        const id = (await client.getAccountProfile()).id;
        rememberAccount(client, id); // the write gate compares the pins with this answer, not a second read
        return String(id);
      } catch (err) {
        if (err instanceof ForbiddenError || err instanceof NotFoundError) return null;
        throw err;
      }
    })();
    return this.accountRead.then((account) => {
      this.target = { baseUrl: client.baseUrl, account };
      return account;
    });
  }

  /** The report of this failed run, in a format. */
  render(format: Format): string {
    const r: FailureReport = { command: this.command, file: this.file, stage: this.stage, problems: this.problems, ...(this.plan ? { plan: this.plan } : {}) };
    if (format === "json") return JSON.stringify(failureJson(r), null, 2) + "\n";
    if (format === "md") return formatFailureMarkdown(r, { notes: safetyMarkdown(this.safety), ...(this.target ? { target: this.target } : {}) });
    return failureText(r) + (this.plan ? "\n" + formatPlan(this.plan, this.file) + safetyText(this.safety, this.command) : "");
  }

  /** Records why the run failed and writes the report to `--out` when the run wrote none. Never throws. */
  async failed(err: unknown): Promise<void> {
    if (!(err instanceof CliExit)) {
      if (err instanceof UnauthorizedError || err instanceof ForbiddenError || err instanceof AccountMismatchError) this.stage = "authentication";
      this.problems = [...this.problems, describeError(err)];
    }
    if (this.problems.length === 0) this.problems = [`the ${this.command} stopped (${this.stage}); see the errors on standard error`];
    if (!this.out || this.written) return;
    this.written = true;
    try {
      await writeFileAtomic(this.out.path, scrub(this.render(this.out.format)));
    } catch (e) {
      process.stderr.write(`Error: cannot write --out ${this.out.path}: ${(e as Error).message}\n`);
    }
  }
}

/** The key never reaches a report, whatever a message held. */
function scrub(text: string): string {
  const key = process.env.WAVIX_API_KEY;
  return key && key.length >= 4 ? text.split(key).join("***") : text;
}

/**
 * A command's action that reports its failures: `route` gives the `--out` file (it may exit on
 * bad flags, before any report); on any failure of `body` the failure report is written to
 * `--out` (when the run wrote none), then the run fails as before.
 */
export function reported<F extends { file: string }, R extends { file?: { path: string; format: Format } }>(
  command: "plan" | "apply",
  route: (flags: F) => R,
  body: (flags: F, route: R, run: RunReport) => Promise<void>,
): (flags: F) => Promise<void> {
  return async (flags) => {
    const r = route(flags);
    const run = new RunReport(command, flags.file, r.file);
    try {
      await body(flags, r, run);
    } catch (err) {
      await run.failed(err);
      throw err;
    }
  };
}

/**
 * A key for another account than the file's — a sub-account's key with the master's file, say — and
 * no `account_id:` pin to stop it before anything is read: every number the file declares for the
 * account itself is "not owned", and most other items cannot be planned either. Then one line
 * naming the key's account and what to do, instead of one line per item (issue #36); `--json` and
 * the Markdown report still list each item. Costs one GET /v1/profile, on this error path only.
 */
async function wrongAccountLine(plan: Plan, desired: DesiredState, run: RunReport, client: WavixClient): Promise<string | undefined> {
  if (desired.account_id !== undefined || plan.problems.length < 2) return undefined;
  const own = (desired.numbers ?? []).filter((n) => n.tenant === undefined);
  const unowned = plan.problems.filter((p) => p.kind === "number" && p.message === numberNotOwnedMessage(p.key));
  if (own.length === 0 || unowned.length < own.length) return undefined;
  const account = await run.account(client).catch(() => null);
  const n = plan.problems.length;
  const whose = account === null ? "WAVIX_API_KEY's account (the key may not read GET /v1/profile to say which)" : `WAVIX_API_KEY is for account ${account}, which`;
  return (
    `${whose} owns none of the ${formatCount(own.length)} number${own.length === 1 ? "" : "s"} ${run.file} declares, and ${formatCount(n)} declared items could not be planned: ` +
    `this looks like another account's key, or a sub-account's. Use the key of the account ${run.file} describes, and pin that account with \`account_id: <its id>\` ` +
    `in ${run.file} so that a wrong key is refused before anything is read (--json lists every item)`
  );
}

/**
 * The plan's problems for standard error (and a text `--out`), and as the failure report's lines:
 * one each, or the one line of {@link wrongAccountLine} when the key is evidently for another
 * account (the report then lists it first, then each item).
 */
export async function problemsText(plan: Plan, desired: DesiredState, run: RunReport, client: WavixClient): Promise<{ text: string; lines: string[] }> {
  const wrong = plan.problems.length > 0 ? await wrongAccountLine(plan, desired, run, client) : undefined;
  if (wrong === undefined) return { text: formatPlanProblems(plan), lines: plan.problems.map(problemText) };
  // The report (--out, a machine format) keeps each item after the cause.
  return { text: `Error: ${wrong}.\n`, lines: [wrong, ...plan.problems.map(problemText)] };
}
