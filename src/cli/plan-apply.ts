/** `wavix-sync plan` and `wavix-sync apply`: thin wrappers over the sync engine (src/plan). */
import type { Command } from "commander";
import { SingleBar } from "cli-progress";
import { createInterface } from "node:readline/promises";
import { applyJson, applyPlan, computePlan, formatApplyResult, formatPlan, planJson } from "../plan";
import { clientFromEnv, loadFileOrExit, MAX_RPS_HELP, nonNegativeNumber, positiveInt, positiveNumber } from "./common";
import { CliExit } from "./output";

interface PlanFlags {
  file: string;
  json?: boolean;
  detailedExitcode?: boolean;
  prune?: boolean;
  concurrency: number;
  maxRps?: number;
}

interface ApplyFlags {
  file: string;
  autoApprove?: boolean;
  json?: boolean;
  prune?: boolean;
  concurrency: number;
  maxRps?: number;
  wait: number;
}

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(question);
    return answer.trim() === "yes";
  } finally {
    rl.close();
  }
}

/** The options plan and apply share. */
function withCommonOptions(cmd: Command, json: string): Command {
  return cmd
    .option("-f, --file <FILE>", "desired-state file", "wavix.yaml")
    .option("--json", json)
    .option("--prune", "disable undeclared sub-accounts and delete undeclared call webhooks")
    .option("--concurrency <N>", "requests in flight at once", positiveInt("--concurrency"), 8)
    .option("--max-rps <N>", MAX_RPS_HELP, positiveNumber("--max-rps"));
}

export function registerPlanApply(program: Command): void {
  withCommonOptions(program.command("plan").description("Show what apply would change (reads only)"), "print the plan as one JSON object")
    .option("--detailed-exitcode", "exit 2 when there are changes, 0 when none")
    .action(async (flags: PlanFlags) => {
      const desired = loadFileOrExit(flags.file);
      const client = clientFromEnv({ concurrency: flags.concurrency, maxRps: flags.maxRps });
      const { plan } = await computePlan(client, desired, { prune: flags.prune });
      if (flags.json) process.stdout.write(JSON.stringify(planJson(plan), null, 2) + "\n");
      else process.stdout.write(formatPlan(plan, flags.file));
      if (plan.problems.length > 0) throw new CliExit(1);
      if (flags.detailedExitcode && plan.changes.length > 0) throw new CliExit(2);
    });

  withCommonOptions(program.command("apply").description("Make the account match the file"), "print the plan and the results as one JSON object")
    .option("--auto-approve", "apply without asking")
    .option("--wait <S>", "seconds to wait for asynchronous bulk changes to show", nonNegativeNumber("--wait"), 120)
    .action(async (flags: ApplyFlags) => {
      const desired = loadFileOrExit(flags.file);
      const client = clientFromEnv({ concurrency: flags.concurrency, maxRps: flags.maxRps });
      const prepared = await computePlan(client, desired, { prune: flags.prune });
      const { plan } = prepared;
      if (!flags.json) process.stdout.write(formatPlan(plan, flags.file));
      if (plan.changes.length === 0) {
        if (flags.json) process.stdout.write(JSON.stringify(applyJson(plan, { results: [], pending: [], ok: true }), null, 2) + "\n");
        if (plan.problems.length > 0) throw new CliExit(1);
        return;
      }
      if (!flags.autoApprove) {
        if (!process.stdin.isTTY) {
          process.stderr.write("Error: apply needs confirmation: run it on a terminal, or pass --auto-approve in pipelines.\n");
          throw new CliExit(1);
        }
        if (!(await confirm("\nDo you want to perform these actions? Only 'yes' will be accepted: "))) {
          process.stderr.write("Apply cancelled.\n");
          throw new CliExit(1);
        }
      }
      const bar =
        process.stderr.isTTY && !flags.json && prepared.ops.length >= 20
          ? new SingleBar({ format: "Applying [{bar}] {value}/{total}", stream: process.stderr, clearOnComplete: true })
          : undefined;
      bar?.start(prepared.ops.length, 0);
      const result = await applyPlan(client, prepared, {
        concurrency: flags.concurrency,
        waitSeconds: flags.wait,
        onProgress: (done) => bar?.update(done),
      });
      bar?.stop();
      if (flags.json) process.stdout.write(JSON.stringify(applyJson(plan, result), null, 2) + "\n");
      else process.stdout.write("\n" + formatApplyResult(result));
      if (!result.ok || plan.problems.length > 0) throw new CliExit(1);
    });
}
