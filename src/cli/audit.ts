/**
 * `wavix-sync audit [-f FILE] [--format md|json|csv] [--out DIR] [--fail-on-findings]`
 * (PRODUCT.md part 5). A thin shell: validate the file, build the client, call `audit()`, render.
 */
import { join } from "node:path";
import { Option, type Command } from "commander";
import {
  AuditCollectionError,
  audit,
  renderCsv,
  renderJson,
  renderMarkdown,
  renderTwoFaEventsCsv,
  renderVettingsCsv,
  type AuditReport,
} from "../audit";
import { clientFromEnv, loadFileOrExit, MAX_RPS_HELP, positiveNumber } from "./common";
import { writeFileAtomic } from "./files";
import { CliExit } from "./output";

export type AuditFormat = "md" | "json" | "csv";

/** Options of the `audit` command, as commander parses them. */
export interface AuditCommandOptions {
  /** The desired-state file. @default "wavix.yaml" */
  file: string;
  /** What goes to stdout. `csv` prints the events CSV, an empty line, then the vettings CSV. @default "md" */
  format: AuditFormat;
  /** Also write audit.json, audit.md, two_fa_events.csv and vettings.csv into this directory. */
  out?: string;
  /** Exit 2 when the report has an error finding. @default false */
  failOnFindings?: boolean;
  /** `--max-rps`: fixed cap on requests per second. @default none (pacing adapts to the server) */
  maxRps?: number;
}

export function registerAudit(program: Command): void {
  program
    .command("audit")
    .description("Report 2FA verification events and 10DLC brand vettings, checked against the file's audit thresholds.")
    .option("-f, --file <file>", "desired-state file", "wavix.yaml")
    .addOption(new Option("--format <format>", "stdout format").choices(["md", "json", "csv"]).default("md"))
    .option("--out <dir>", "also write audit.json, audit.md, two_fa_events.csv and vettings.csv into DIR")
    .option("--fail-on-findings", "exit 2 when there is an error finding")
    .option("--max-rps <N>", MAX_RPS_HELP, positiveNumber("--max-rps"))
    .action(async (opts: AuditCommandOptions) => {
      await runAudit(opts);
    });
}

/** The command's body; exits through `CliExit` (1 on errors, 2 on error findings with the flag). */
export async function runAudit(opts: AuditCommandOptions): Promise<void> {
  // The file is checked before any request (PRODUCT.md part 3: errors reported all at once first).
  const state = loadFileOrExit(opts.file);
  const client = clientFromEnv({ maxRps: opts.maxRps });
  if (state.audit === undefined) {
    process.stderr.write(`Note: ${opts.file} has no audit section; the report is empty.\n`);
  }

  let report: AuditReport;
  try {
    report = await audit(client, state.audit);
  } catch (err) {
    if (err instanceof AuditCollectionError) {
      for (const m of err.missing) process.stderr.write(`Error: ${m.message}\n`);
      throw new CliExit(1);
    }
    throw err;
  }

  if (opts.out !== undefined) await writeReportFiles(opts.out, report);

  const render = { md: renderMarkdown, json: renderJson, csv: renderCsv }[opts.format];
  process.stdout.write(render(report));

  const errors = report.findings.filter((f) => f.severity === "error").length;
  const warnings = report.findings.length - errors;
  if (report.findings.length > 0) {
    process.stderr.write(`audit: ${errors} error finding(s), ${warnings} warning(s)\n`);
  }
  if (opts.failOnFindings && errors > 0) throw new CliExit(2);
}

/** The four report files, each written atomically (temp file + rename) so readers never see half. */
export async function writeReportFiles(dir: string, report: AuditReport): Promise<string[]> {
  const files: [string, string][] = [
    ["audit.json", renderJson(report)],
    ["audit.md", renderMarkdown(report)],
    ["two_fa_events.csv", renderTwoFaEventsCsv(report)],
    ["vettings.csv", renderVettingsCsv(report)],
  ];
  const written: string[] = [];
  for (const [name, content] of files) {
    const target = join(dir, name);
    await writeFileAtomic(target, content);
    written.push(target);
  }
  return written;
}
