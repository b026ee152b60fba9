/**
 * `wavix-sync audit [-f FILE] [--format md|json|csv|html] [--out DIR] [--fail-on-findings]`
 * (docs/CONTRACT.md part 5). A thin shell: validate the file, build the client, call `audit()`, render.
 */
import { join } from "node:path";
import { Option, type Command } from "commander";
import {
  AuditCollectionError,
  audit,
  renderCsv,
  renderHtml,
  renderJson,
  renderMarkdown,
  renderTwoFaEventsCsv,
  renderVettingsCsv,
  type AuditReport,
  type HtmlRenderOptions,
} from "../audit";
import { clientFromEnv, loadFileOrExit, MAX_RPS_HELP, positiveNumber, timeoutOption } from "./common";
import { writeFileAtomic } from "./files";
import { CliExit } from "./output";

export type AuditFormat = "md" | "json" | "csv" | "html";

/** Options of the `audit` command, as commander parses them. */
export interface AuditCommandOptions {
  /** The desired-state file. @default "wavix.yaml" */
  file: string;
  /**
   * What goes to stdout. `csv` prints the events CSV, an empty line, then the vettings CSV; `html`
   * one self-contained page with charts. @default "md"
   */
  format: AuditFormat;
  /** Also write audit.json, audit.md, audit.html, two_fa_events.csv and vettings.csv into this directory. */
  out?: string;
  /** Exit 2 when the report has an error finding. @default false */
  failOnFindings?: boolean;
  /** `--timeout`: seconds per request. @default WAVIX_TIMEOUT, else 30 */
  timeout?: number;
  /** `--max-rps`: fixed cap on requests per second. @default none (pacing adapts to the server) */
  maxRps?: number;
}

export function registerAudit(program: Command): void {
  program
    .command("audit")
    .description("Report 2FA verification events and 10DLC brand vettings, checked against the file's audit thresholds.")
    .option("-f, --file <FILE>", "desired-state file", "wavix.yaml")
    .addOption(new Option("--format <format>", "stdout format").choices(["md", "json", "csv", "html"]).default("md"))
    .option("--out <DIR>", "also write audit.json, audit.md, audit.html, two_fa_events.csv and vettings.csv into DIR")
    .option("--fail-on-findings", "exit 2 when there is an error finding")
    .addOption(timeoutOption())
    .option("--max-rps <N>", MAX_RPS_HELP, positiveNumber("--max-rps"))
    .action(async (opts: AuditCommandOptions) => {
      await runAudit(opts);
    });
}

/** The command's body; exits through `CliExit` (1 on errors, 2 on error findings with the flag). */
export async function runAudit(opts: AuditCommandOptions): Promise<void> {
  // The file is checked before any request (docs/CONTRACT.md part 3: errors reported all at once first).
  const state = loadFileOrExit(opts.file);
  const client = clientFromEnv({ timeout: opts.timeout, maxRps: opts.maxRps });
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

  // The page draws the file's thresholds as lines on its charts.
  const thresholds: HtmlRenderOptions = {
    maxFailureRatio: state.audit?.two_fa?.max_failure_ratio,
    minVettingScore: state.audit?.ten_dlc?.min_vetting_score,
  };
  if (opts.out !== undefined) await writeReportFiles(opts.out, report, thresholds);

  const render = { md: renderMarkdown, json: renderJson, csv: renderCsv, html: (r: AuditReport) => renderHtml(r, thresholds) }[opts.format];
  process.stdout.write(render(report));

  const errors = report.findings.filter((f) => f.severity === "error").length;
  const warnings = report.findings.length - errors;
  if (report.findings.length > 0) {
    process.stderr.write(`audit: ${errors} error finding(s), ${warnings} warning(s)\n`);
  }
  if (opts.failOnFindings && errors > 0) throw new CliExit(2);
}

/** The five report files, each written atomically (temp file + rename) so readers never see half. */
export async function writeReportFiles(dir: string, report: AuditReport, thresholds: HtmlRenderOptions = {}): Promise<string[]> {
  const files: [string, string][] = [
    ["audit.json", renderJson(report)],
    ["audit.md", renderMarkdown(report)],
    ["audit.html", renderHtml(report, thresholds)],
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
