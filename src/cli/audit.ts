/**
 * `wavix-sync audit [-f FILE] [--format md|json|csv] [--out DIR] [--fail-on-findings]`
 * (PRODUCT.md part 5). A thin shell: validate the file, build the client, call `audit()`, render.
 */
import { randomBytes } from "node:crypto";
import { mkdir, rename, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Option, type Command } from "commander";
import { WavixClient } from "../client";
import { formatProblem, loadDesiredState } from "../config";
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
}

export function registerAudit(program: Command): void {
  program
    .command("audit")
    .description("Report 2FA verification events and 10DLC brand vettings, checked against the file's audit thresholds.")
    .option("-f, --file <file>", "desired-state file", "wavix.yaml")
    .addOption(new Option("--format <format>", "stdout format").choices(["md", "json", "csv"]).default("md"))
    .option("--out <dir>", "also write audit.json, audit.md, two_fa_events.csv and vettings.csv into DIR")
    .option("--fail-on-findings", "exit 2 when there is an error finding")
    .action(async (opts: AuditCommandOptions) => {
      await runAudit(opts);
    });
}

/** The command's body; exits through `CliExit` (1 on errors, 2 on error findings with the flag). */
export async function runAudit(opts: AuditCommandOptions): Promise<void> {
  // The file is checked before any request (PRODUCT.md part 3: errors reported all at once first).
  const loaded = loadDesiredState(opts.file);
  if (!loaded.ok) {
    for (const p of loaded.problems) process.stderr.write(`${formatProblem(p)}\n`);
    throw new CliExit(1);
  }
  const state = loaded.state;

  if (!process.env.WAVIX_API_KEY) {
    process.stderr.write(
      "Error: WAVIX_API_KEY is not set. The audit reads the account through the Wavix API; " +
        "export the API key in the environment (keys never go in the file).\n",
    );
    throw new CliExit(1);
  }
  if (state.audit === undefined) {
    process.stderr.write(`Note: ${opts.file} has no audit section; the report is empty.\n`);
  }

  const client = new WavixClient();
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
  await mkdir(dir, { recursive: true });
  const files: [string, string][] = [
    ["audit.json", renderJson(report)],
    ["audit.md", renderMarkdown(report)],
    ["two_fa_events.csv", renderTwoFaEventsCsv(report)],
    ["vettings.csv", renderVettingsCsv(report)],
  ];
  const written: string[] = [];
  for (const [name, content] of files) {
    const target = join(dir, name);
    await writeAtomic(target, content);
    written.push(target);
  }
  return written;
}

async function writeAtomic(target: string, content: string): Promise<void> {
  // Same directory as the target, so rename never crosses a filesystem.
  const tmp = `${target}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(tmp, content, "utf8");
    await rename(tmp, target);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}
