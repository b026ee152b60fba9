/**
 * `wavix-sync show PLANFILE`: a saved plan (`plan --save`) for a person or a script to read, as
 * `terraform show PLANFILE` does — text (as `plan` prints it), `--json` (as `plan --json`, with what
 * the plan was made against) or `--format md` (the pull-request comment). Offline: no key, no
 * request, no desired-state file. The plan is checked (format, version, digest) but not verified
 * against a file or the account: that is `apply --plan`'s work (docs/SAVED-PLANS.md).
 */
import { Option, type Command } from "commander";
import { readFileSync, statSync } from "node:fs";
import { formatPlan, formatPlanMarkdown, MAX_SAVED_PLAN_BYTES, planJson, readSavedPlan, SavedPlanError, type Plan, type SavedPlanDocument } from "../plan";
import { declareCommand } from "./heads";
import { CliExit } from "./output";
import { writePlanText } from "./color";

type ShowFormat = "text" | "json" | "md";

/** What the plan was made against and when, the lines above the text plan. */
function header(doc: SavedPlanDocument): string {
  const p = doc.plan;
  return [
    `Saved plan ${doc.digest}`,
    `  made ${doc.created_at} by wavix-sync ${p.tool.version}, for account ${p.target.account} at ${p.target.base_url}`,
    `  from ${p.file.path} (${p.file.sha256})${p.prune ? ", with --prune" : ""}`,
    "",
    "",
  ].join("\n");
}

function render(format: ShowFormat, doc: SavedPlanDocument, plan: Plan, path: string): string {
  const p = doc.plan;
  if (format === "json") {
    const saved = { digest: doc.digest, created_at: doc.created_at, tool: p.tool, target: p.target, file: p.file, prune: p.prune };
    return JSON.stringify({ ...planJson(plan), saved_plan: saved }, null, 2) + "\n";
  }
  if (format === "md") return formatPlanMarkdown(plan, p.file.path, { target: { baseUrl: p.target.base_url, account: p.target.account }, savedPlan: path });
  return header(doc) + formatPlan(plan, p.file.path);
}

export function registerShow(program: Command): void {
  declareCommand(program, "show")
    .option("--json", "print it as one JSON object (as plan --json, with saved_plan: what it was made against)")
    .addOption(new Option("--format <format>", "output format (--json is --format json)").choices(["text", "json", "md"]))
    .action((planFile: string, flags: { json?: boolean; format?: ShowFormat }) => {
      if (flags.json && flags.format !== undefined && flags.format !== "json") {
        process.stderr.write(`Error: --json and --format ${flags.format} disagree; give one of them.\n`);
        throw new CliExit(1);
      }
      let text: string;
      try {
        if (statSync(planFile).size > MAX_SAVED_PLAN_BYTES) throw Object.assign(new Error(`larger than ${MAX_SAVED_PLAN_BYTES} bytes`), { code: "EFBIG" });
        text = readFileSync(planFile, "utf8");
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : code === "EACCES" || code === "EPERM" ? "permission denied" : (err as Error).message;
        process.stderr.write(`Error: cannot read ${planFile}: ${why}.\n`);
        throw new CliExit(1);
      }
      try {
        const { document, plan } = readSavedPlan(text);
        const format = flags.json ? "json" : (flags.format ?? "text");
        const shown = render(format, document, plan, planFile);
        if (format === "text") writePlanText(shown);
        else process.stdout.write(shown);
      } catch (err) {
        if (!(err instanceof SavedPlanError)) throw err;
        process.stderr.write(err.message + "\n");
        throw new CliExit(1);
      }
    });
}
