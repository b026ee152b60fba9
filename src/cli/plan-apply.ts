/** `wavix-sync plan` and `wavix-sync apply`: thin wrappers over the sync engine (src/plan). */
import { Option, type Command } from "commander";
import { createInterface } from "node:readline/promises";
import {
  APPLY_MARKER,
  applyJson,
  applyPlan,
  computePlan,
  formatApplyMarkdown,
  formatApplyResult,
  formatPlan,
  formatPlanMarkdown,
  planJson,
  checkBlastRadius,
  describeError,
  missingSecrets,
  overLimit,
  parseTarget,
  safetyJson,
  safetyLines,
  type ApplyResult,
  type Plan,
  type PlanOptions,
  type PlanTarget,
  type SafetyVerdict,
} from "../plan";
import { formatCount } from "../plan/count";
import { problemsText, reported, safetyMarkdown, safetyText, type RunReport } from "./guard";
import { clientFromEnv, MAX_RPS_HELP, nonNegativeNumber, positiveInt, positiveNumber, timeoutOption } from "./common";
import { writeFileAtomic } from "./files";
import { CliExit } from "./output";
import { writeErrorText } from "./color";
import { endEvents, planEvents, progressEvent, readEvent, resultEvents, startEvents, stdoutText, streaming } from "./events";
import { declareCommand } from "./heads";
import { acquireLock } from "./lock";
import { progressBar, readProgress } from "./progress";
import { handleInterrupts, INTERRUPTED_EXIT_CODE } from "./interrupt";
import { loadPlanFile, savePlanFile } from "./saved-plan";

export type PlanFormat = "text" | "json" | "md";

/** Output options plan and apply share. */
interface OutputFlags {
  file: string;
  /** `--json-events`: standard output is a stream of events (events.ts). */
  jsonEvents?: boolean;
  /** Alias of `--format json`. */
  json?: boolean;
  /** What goes to the terminal (and to `--out` too). @default "text" */
  format?: PlanFormat;
  /** Also write the output to this file, atomically (temp file + rename). */
  out?: string;
}

interface PlanFlags extends OutputFlags {
  detailedExitcode?: boolean;
  /** `--save PLANFILE`: also write the plan as a saved plan (docs/SAVED-PLANS.md). */
  save?: string;
  prune?: boolean;
  sendCallbacks?: boolean;
  rotatePassword?: string[];
  /** `--target KIND/NAME`, repeatable: only these items' changes. */
  target?: PlanTarget[];
  concurrency: number;
  timeout?: number;
  maxRps?: number;
}

interface ApplyFlags extends OutputFlags {
  autoApprove?: boolean;
  /** `--plan PLANFILE`: carry out a saved plan instead of planning afresh. */
  plan?: string;
  /** `--lock-file PATH`: an advisory lock held while applying (src/cli/lock.ts). */
  lockFile?: string;
  /** `--expect-digest SHA256`: with `--plan`, refuse any plan whose digest is not this (the reviewed one). */
  expectDigest?: string;
  /** Apply even when destructive changes exceed the file's safety limit. */
  force?: boolean;
  prune?: boolean;
  sendCallbacks?: boolean;
  rotatePassword?: string[];
  target?: PlanTarget[];
  concurrency: number;
  timeout?: number;
  maxRps?: number;
  wait: number;
}

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  // Ctrl-C at the prompt: readline swallows SIGINT (and would merely pause), so say no and exit 130.
  const ac = new AbortController();
  rl.on("SIGINT", () => ac.abort());
  try {
    const answer = await rl.question(question, { signal: ac.signal });
    return answer.trim() === "yes";
  } catch (err) {
    if (ac.signal.aborted) {
      process.stderr.write("\nApply cancelled: nothing was changed.\n");
      throw new CliExit(INTERRUPTED_EXIT_CODE);
    }
    throw err;
  } finally {
    rl.close();
  }
}

/** The options plan and apply share. */
function withCommonOptions(cmd: Command, json: string): Command {
  return cmd
    .option("-f, --file <FILE>", "desired-state file", "wavix.yaml")
    .option("--json", json)
    .addOption(new Option("--format <format>", "output format (--json is --format json)").choices(["text", "json", "md"]))
    .option("--out <FILE>", "also write the output to FILE (atomically); without --format, its format follows the extension (.md, .json, else text)")
    .option("--json-events", "standard output is a stream of events, one JSON object per line, as they happen (reads, planned changes, problems, apply progress and results, the end); see docs/COMMANDS.md")
    .option("--prune", "disable undeclared sub-accounts; delete undeclared call webhooks, SIP trunks (never one a number routes to) and Sender IDs; unlink undeclared numbers of declared 10DLC campaigns")
    .option("--send-callbacks", "send the file's account_callbacks (the API cannot show them back, so they are sent only when asked)")
    .option("--rotate-password <LABEL...>", "send the password of these SIP trunks even when no setting differs (every update sends it, from the variable their password_env names)")
    .option(
      "--target <KIND/NAME>",
      "only this item's change (repeatable; KIND/NAME as plans name it: number/15551230001, sub_account/Acme Support); the rest is left out: for exceptions, see docs/COMMANDS.md",
      (value: string, previous: PlanTarget[] = []) => [...previous, parseTarget(value)],
    )
    .option("--concurrency <N>", "requests in flight at once", positiveInt("--concurrency"), 8)
    .addOption(timeoutOption())
    .option("--max-rps <N>", MAX_RPS_HELP, positiveNumber("--max-rps"));
}

/** Where each rendering goes: the terminal's format, and the file's (with its path) when `--out` is given. */
interface Routing {
  terminal: PlanFormat;
  file?: { path: string; format: PlanFormat };
}

/**
 * `--json` is `--format json`. `--out FILE` writes the same format as the terminal when `--format`
 * (or `--json`) is given; without it, the file's format follows its extension, so a pipeline gets
 * the human plan in its log and `plan.md` for the pull request from one run.
 */
function routing(flags: OutputFlags): Routing {
  if (flags.json && flags.format !== undefined && flags.format !== "json") {
    process.stderr.write(`Error: --json and --format ${flags.format} disagree; give one of them.\n`);
    throw new CliExit(1);
  }
  const chosen: PlanFormat | undefined = flags.json ? "json" : flags.format;
  const terminal = chosen ?? "text";
  if (flags.out === undefined) return { terminal };
  const byExtension: PlanFormat = /\.md$/i.test(flags.out) ? "md" : /\.json$/i.test(flags.out) ? "json" : "text";
  return { terminal, file: { path: flags.out, format: chosen ?? byExtension } };
}

/** What the Markdown names from the run: the API root and the account (its heading), the saved plan (where every change is). */
function mdOf(run: RunReport): { target?: NonNullable<RunReport["target"]>; savedPlan?: string } {
  return { ...(run.target ? { target: run.target } : {}), ...(run.savedPlan !== undefined ? { savedPlan: run.savedPlan } : {}) };
}

function renderPlan(format: PlanFormat, plan: Plan, file: string, safety: SafetyVerdict | undefined, run: RunReport): string {
  if (format === "json") return JSON.stringify({ ...planJson(plan), ...(safety ? safetyJson(safety) : {}) }, null, 2) + "\n";
  if (format === "md") return formatPlanMarkdown(plan, file, { notes: safetyMarkdown(safety), ...mdOf(run) });
  return formatPlan(plan, file) + (overLimit(safety) ? "\n" + safetyText(safety, "plan") : "");
}

function renderApply(format: PlanFormat, plan: Plan, result: ApplyResult, file: string, safety: SafetyVerdict | undefined, run: RunReport): string {
  if (format === "json") return JSON.stringify({ ...applyJson(plan, result), ...(safety ? safetyJson(safety, true) : {}) }, null, 2) + "\n";
  if (format === "md") return formatApplyMarkdown(plan, result, file, { notes: safetyMarkdown(safety, true), ...mdOf(run) });
  return formatPlan(plan, file) + (plan.changes.length === 0 ? "" : "\n" + formatApplyResult(result));
}

/** Whether any output of the run is Markdown (its heading names the account, read once). */
function wantsMarkdown(route: Routing): boolean {
  return route.terminal === "md" || route.file?.format === "md";
}

/** The refusal of a plan with problems: nothing is written from an incomplete plan, whatever the flags. */
function incompleteText(plan: Plan): string {
  const n = plan.problems.length;
  return (
    `Apply refused (nothing was written): ${formatCount(n)} declared item${n === 1 ? "" : "s"} could not be planned (see the errors above), ` +
    "and nothing is written from an incomplete plan. Fix the file or the account, then run apply again.\n"
  );
}

/** Write `--out` atomically; a failure is reported plainly and fails the run (exit 1). */
async function writeOut(path: string, text: string): Promise<void> {
  try {
    await writeFileAtomic(path, text);
  } catch (err) {
    process.stderr.write(`Error: cannot write --out ${path}: ${(err as Error).message}\n`);
    throw new CliExit(1);
  }
}

/** The engine's options from the flags plan and apply share. */
function planOptions(flags: { prune?: boolean; sendCallbacks?: boolean; rotatePassword?: string[]; target?: PlanTarget[] }): PlanOptions {
  return { prune: flags.prune, flags: flags.sendCallbacks ? ["send-callbacks"] : [], rotate: flags.rotatePassword ?? [], ...(flags.target ? { targets: flags.target } : {}) };
}

/**
 * A saved plan every change of which is already in effect (a re-run of an apply that succeeded):
 * one line saying so, exit 0, nothing written; `--out` and machine formats say the same.
 */
async function alreadyAppliedReport(plan: Plan, flags: ApplyFlags, route: Routing, run: RunReport): Promise<void> {
  const n = plan.changes.length;
  const digest = plan.saved ? ` ${plan.saved.digest}` : "";
  const line = `Already applied: the account already holds every change of the saved plan${digest} (${formatCount(n)} change${n === 1 ? "" : "s"}); nothing was written.`;
  const none: ApplyResult = { results: [], pending: [], ok: true };
  const render = (format: PlanFormat): string =>
    format === "json"
      ? JSON.stringify({ ...applyJson(plan, none), already_applied: true }, null, 2) + "\n"
      : format === "md"
        ? `${APPLY_MARKER}\n**Already applied:** ${line.replace(/^Already applied: /, "")}\n`
        : line + "\n";
  stdoutText(render(route.terminal));
  run.written = true;
  if (route.file) await writeOut(route.file.path, render(route.file.format));
}

/**
 * A plan or apply action under `--json-events` (events.ts): the stream starts before anything is
 * read and always ends with `end` and the exit code, the failure's reasons before it as diagnostics.
 */
function streamed<F extends OutputFlags & { jsonEvents?: boolean }, R>(command: "plan" | "apply", body: (flags: F, route: R, run: RunReport) => Promise<void>): (flags: F, route: R, run: RunReport) => Promise<void> {
  return async (flags, route, run) => {
    if (!flags.jsonEvents) return body(flags, route, run);
    if (flags.json || (flags.format !== undefined && flags.format !== "text")) {
      process.stderr.write(`Error: --json-events and --${flags.json ? "json" : `format ${flags.format}`} disagree: the events take standard output (--out FILE writes a report beside them).\n`);
      throw new CliExit(1);
    }
    startEvents(command, flags.file);
    try {
      await body(flags, route, run);
      endEvents(0);
    } catch (err) {
      const code = err instanceof CliExit ? err.code : 1;
      // A plan's problems were streamed with it; otherwise the reasons (the error itself when nothing else says why).
      const reasons = run.stage === "plan" ? [] : run.problems.length > 0 ? run.problems : err instanceof CliExit ? [] : [describeError(err)];
      endEvents(code, code === 2 ? [] : reasons);
      throw err;
    }
  };
}

/** An apply action run under `--lock-file PATH` when given (src/cli/lock.ts): taken before any request, let go however it ends. */
function locked<R>(body: (flags: ApplyFlags, route: R, run: RunReport) => Promise<void>): (flags: ApplyFlags, route: R, run: RunReport) => Promise<void> {
  return async (flags, route, run) => {
    if (flags.lockFile === undefined) return body(flags, route, run);
    let release: () => void;
    try {
      release = acquireLock(flags.lockFile, "wavix-sync apply");
    } catch (err) {
      run.problems = [`${flags.lockFile} is locked by another apply (--lock-file); nothing was applied`];
      throw err;
    }
    try {
      await body(flags, route, run);
    } finally {
      release();
    }
  };
}

export function registerPlanApply(program: Command): void {
  withCommonOptions(declareCommand(program, "plan"), "print the plan as one JSON object")
    .option("--detailed-exitcode", "exit 2 when there are changes, 0 when none")
    .option("--save <PLANFILE>", "also save the plan to PLANFILE, for `apply --plan PLANFILE` (docs/SAVED-PLANS.md)")
    // With --out, a failure (file, key, account pin, listing) is reported there too (guard.ts).
    .action(reported("plan", routing, streamed("plan", async (flags: PlanFlags, route, run) => {
      const desired = run.load();
      // A bar on a terminal's stderr while a large account is read (progress.ts).
      const progress = readProgress("Reading the account");
      const client = run.client(() => clientFromEnv({ concurrency: flags.concurrency, timeout: flags.timeout, maxRps: flags.maxRps, onPage: (r) => (progress.onPage?.(r), readEvent(r)) }));
      let prepared;
      try {
        await run.checkPin(client, desired);
        run.stage = "listing";
        prepared = await computePlan(client, desired, planOptions(flags));
      } finally {
        progress.stop();
      }
      if (wantsMarkdown(route)) await run.account(client);
      // A plan with problems is never saved (nothing is written from it); it is still shown, and exits 1.
      let unsaved = "";
      if (flags.save !== undefined && prepared.plan.problems.length > 0) {
        unsaved = `Error: this plan was not saved to ${flags.save}: ${formatCount(prepared.plan.problems.length)} declared item${prepared.plan.problems.length === 1 ? "" : "s"} could not be planned, and nothing is written from an incomplete plan.\n`;
      } else if (flags.save !== undefined) {
        prepared = await savePlanFile(prepared, client, run, { planFile: flags.save, file: flags.file, prune: flags.prune === true, desired });
        run.savedPlan = flags.save;
      }
      const { plan } = prepared;
      planEvents(plan);
      const safety = checkBlastRadius(prepared, desired);
      const problems = await problemsText(plan, desired, run, client);
      if (route.terminal === "text") writeErrorText(problems.text);
      writeErrorText(unsaved);
      const shown = renderPlan(route.terminal, plan, flags.file, safety, run);
      if (route.terminal === "text") stdoutText(shown, true);
      else stdoutText(shown);
      run.written = true;
      if (route.file) await writeOut(route.file.path, (route.file.format === "text" ? problems.text : "") + renderPlan(route.file.format, plan, flags.file, safety, run));
      if (plan.problems.length > 0) {
        run.stage = "plan";
        run.problems = problems.lines;
        throw new CliExit(1);
      }
      if (flags.detailedExitcode && plan.changes.length > 0) throw new CliExit(2);
    })));

  const apply = withCommonOptions(declareCommand(program, "apply"), "print the plan and the results as one JSON object")
    .option("--auto-approve", "apply without asking")
    .option("--force", "apply even when destructive changes exceed the safety limit (the file's safety: section)")
    .option("--wait <S>", "seconds to wait for asynchronous bulk changes to show", nonNegativeNumber("--wait"), 120)
    .option("--plan <PLANFILE>", "carry out the saved plan PLANFILE (from `plan --save`) instead of planning afresh; -f FILE (default wavix.yaml) must be the file it was made from, which every change is verified against; refused if what it changes changed since, unless every change is already in effect (then: already applied, exit 0)")
    .option("--lock-file <PATH>", "hold an advisory lock at PATH while applying: another apply given the same PATH stops, naming this one (a lock left by a run that is gone is taken over)")
    .option("--expect-digest <SHA256>", "with --plan: refuse the plan unless its digest is this one (sha256:…, the full digest the reviewed pull-request comment shows), before any request");
  apply
    // With --out, a failure (file, key, account pin, listing, safety limit, apply) is reported there too (guard.ts).
    .action(reported("apply", routing, streamed("apply", locked(async (flags: ApplyFlags, route, run) => {
      // With --plan, -f names the file the plan was made from (default wavix.yaml, as everywhere): every saved change is verified against it.
      const saved = flags.plan;
      if (flags.target !== undefined && saved !== undefined) {
        run.stage = "saved-plan";
        run.problems = ["--target and --plan disagree: a saved plan carries out exactly the changes it holds (give --target to plan --save instead); nothing was applied"];
        process.stderr.write(`Error: ${run.problems[0]}.\n`);
        throw new CliExit(1);
      }
      if (flags.expectDigest !== undefined && saved === undefined) {
        run.stage = "saved-plan";
        run.problems = ["--expect-digest needs --plan PLANFILE: it names the saved plan that was reviewed; nothing was applied"];
        process.stderr.write(`Error: ${run.problems[0]}.\n`);
        throw new CliExit(1);
      }
      const desired = run.load();
      const client = run.client(() => clientFromEnv({ concurrency: flags.concurrency, timeout: flags.timeout, maxRps: flags.maxRps, onPage: readEvent }));
      // A saved plan's checks send no request before its own (its API root first); the pin is among them.
      if (saved === undefined) await run.checkPin(client, desired);
      run.stage = "listing";
      const fromSaved =
        saved === undefined
          ? undefined
          : await loadPlanFile(client, run, { planFile: saved, file: flags.file, desired, prune: flags.prune, sendCallbacks: flags.sendCallbacks, rotate: flags.rotatePassword, expectDigest: flags.expectDigest });
      if (fromSaved?.alreadyApplied) {
        await alreadyAppliedReport(fromSaved.prepared.plan, flags, route, run);
        return;
      }
      const prepared = fromSaved ? fromSaved.prepared : await computePlan(client, desired, planOptions(flags));
      if (fromSaved) run.savedPlan = saved;
      if (wantsMarkdown(route)) await run.account(client);
      const { plan } = prepared;
      run.plan = plan;
      planEvents(plan);
      // The terminal shows the plan before the question (problems on stderr); machine formats print once, at the end.
      const problems = await problemsText(plan, desired, run, client);
      if (route.terminal === "text") {
        writeErrorText(problems.text);
        stdoutText(formatPlan(plan, flags.file), true);
      }
      // No write from an incomplete plan: refused before any question or write, whatever the flags.
      if (plan.problems.length > 0) {
        run.stage = "plan";
        run.problems = problems.lines;
        process.stderr.write("\n" + incompleteText(plan));
        if (route.terminal !== "text") stdoutText(run.render(route.terminal));
        throw new CliExit(1);
      }
      // The blast-radius limit, from the file (never from a saved plan): refused before any question or write unless --force (safety.ts).
      const verdict = checkBlastRadius(prepared, desired);
      const safety = overLimit(verdict) ? verdict : undefined;
      if (safety && !flags.force) {
        run.stage = "safety";
        run.safety = safety;
        run.problems = safetyLines(safety);
        process.stderr.write("\n" + safetyText(safety, "apply"));
        if (route.terminal !== "text") stdoutText(run.render(route.terminal));
        throw new CliExit(1);
      }
      if (safety && route.terminal === "text") process.stderr.write("\n" + safetyText(safety, "apply", true));
      // The secrets apply sends (a trunk's password, from its password_env variable; a plan never
      // needs one): all of them readable now, or nothing is asked or written.
      const secrets = missingSecrets(client, prepared);
      if (secrets.length > 0) {
        run.stage = "secrets";
        run.problems = secrets.map((p) => `${p.kind} "${p.key}": ${p.message}`);
        process.stderr.write(`\n${run.problems.map((p) => `Error: ${p}`).join("\n")}\nApply refused (nothing was written): ${formatCount(secrets.length)} item${secrets.length === 1 ? "" : "s"} need${secrets.length === 1 ? "s" : ""} a secret this run cannot read. Set the variable${secrets.length === 1 ? "" : "s"} named, then run apply again.\n`);
        if (route.terminal !== "text") stdoutText(run.render(route.terminal));
        throw new CliExit(1);
      }
      if (plan.changes.length === 0) {
        const none: ApplyResult = { results: [], pending: [], ok: true };
        if (route.terminal !== "text") stdoutText(renderApply(route.terminal, plan, none, flags.file, undefined, run));
        run.written = true;
        if (route.file) await writeOut(route.file.path, renderApply(route.file.format, plan, none, flags.file, undefined, run));
        return;
      }
      if (!flags.autoApprove) {
        if (!process.stdin.isTTY) {
          process.stderr.write("Error: apply needs confirmation: run it on a terminal, or pass --auto-approve in pipelines.\n");
          run.problems = ["apply needs confirmation: run it on a terminal, or pass --auto-approve in pipelines; nothing was written"];
          throw new CliExit(1);
        }
        // Never ask about a plan the person has not seen: with a machine format on stdout, show it on stderr.
        if (route.terminal !== "text" || streaming()) process.stderr.write(formatPlan(plan, flags.file));
        if (!(await confirm("\nDo you want to perform these actions? Only 'yes' will be accepted: "))) {
          process.stderr.write("Apply cancelled.\n");
          run.problems = ["apply cancelled at the confirmation prompt; nothing was written"];
          throw new CliExit(1);
        }
      }
      let bar =
        process.stderr.isTTY && route.terminal === "text" && prepared.ops.length >= 20
          ? new (progressBar())({ format: "Applying [{bar}] {value}/{total}", stream: process.stderr, clearOnComplete: true })
          : undefined;
      bar?.start(prepared.ops.length, 0);
      // Ctrl-C: stop starting writes, finish those in flight, report, exit 130 (interrupt.ts).
      const interrupts = handleInterrupts({
        restore: () => {
          bar?.stop();
          bar = undefined;
        },
      });
      let result;
      run.stage = "apply";
      try {
        result = await applyPlan(client, prepared, {
          concurrency: flags.concurrency,
          waitSeconds: flags.wait,
          onProgress: (done, total) => {
            bar?.update(done);
            progressEvent(done, total);
          },
          signal: interrupts.signal,
          // The write gate holds the run to the file's pin and limits again (src/kit/gate/); --force lifts the limits, as above.
          force: flags.force === true,
          desired,
        });
      } finally {
        interrupts.dispose();
        bar?.stop();
      }
      resultEvents(plan, result);
      if (route.terminal === "text") stdoutText("\n" + formatApplyResult(result), true);
      else stdoutText(renderApply(route.terminal, plan, result, flags.file, safety, run));
      run.written = true;
      if (route.file) await writeOut(route.file.path, renderApply(route.file.format, plan, result, flags.file, safety, run));
      if (result.interrupted) throw new CliExit(INTERRUPTED_EXIT_CODE);
      if (!result.ok) throw new CliExit(1);
    }))));
}
