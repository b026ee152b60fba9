/**
 * `wavix-sync audit [-f FILE] [--last 30d | --from DATE --to DATE] [--format md|json|csv|html]
 * [--table T] [--out DIR] [--fail-on-findings]` (docs/AUDIT.md). A thin shell: validate the file
 * and the flags, build the client, run the audit with its sessions spooled to a temporary file
 * (memory stays flat at any size), then write the reports.
 */
import { createHash } from "node:crypto";
import { createReadStream, existsSync, readFileSync, rmdirSync, rmSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { Option, type Command } from "commander";
import type { AuditReportHead, CsvMeta, CsvTable, RunWindow, SessionSample, SessionSink, SessionSource } from "../audit";
import { CSV_TABLES } from "../audit/render/csv";
import { AuditWindowError, nothingToAudit, runWindow } from "../audit/window";
import { formatProblem } from "../config/load";
import type { DesiredState } from "../config/types";
import { clientFromEnv, loadFileOrExit, MAX_RPS_HELP, positiveInt, positiveNumber, timeoutOption } from "./common";
import { isSpecialFile, StagedFile, writeFileAtomic, writeFileAtomicStream } from "./files";
import { declareCommand } from "./heads";
import { CliExit } from "./output";

export type AuditFormat = "md" | "json" | "csv" | "html";

/** The manifest of `--out`: `sha256sum` lines of every report file, checked with `sha256sum -c manifest.sha256`. */
export const MANIFEST = "manifest.sha256";

/** Options of the `audit` command, as commander parses them. */
export interface AuditCommandOptions {
  /** The desired-state file. @default "wavix.yaml" */
  file: string;
  /** What goes to stdout: `csv` prints one table (`--table`); `html` one self-contained page. @default "md" */
  format: AuditFormat;
  /** The CSV table `--format csv` prints. @default "sessions" */
  table?: CsvTable;
  /** Also write audit.json, audit.md, audit.html and one CSV per table into this directory. */
  out?: string;
  /** Exit 2 when the report has an error finding. @default false */
  failOnFindings?: boolean;
  /** `--last 30d`: the period is the last N full days (or hours, `24h`) before now. @default the file's from/to */
  last?: string;
  /** `--from YYYY-MM-DD`: the period's first day (UTC); with `--to`. */
  from?: string;
  /** `--to YYYY-MM-DD`: the period's last day (UTC), included. */
  to?: string;
  /** `--timeout`: seconds per request. @default WAVIX_TIMEOUT, else 30 */
  timeout?: number;
  /** `--max-rps`: fixed cap on requests per second. @default none (pacing adapts to the server) */
  maxRps?: number;
  /** `--concurrency`: requests in flight at once. @default 8 */
  concurrency?: number;
  /** `--events`: read every session's events (the events table, events per session). @default false (the listings' figures) */
  events?: boolean;
  /** `--allow-incomplete`: exit 0 although the report has data gaps (it still says `complete: false`). @default false */
  allowIncomplete?: boolean;
}

export function registerAudit(program: Command): void {
  declareCommand(program, "audit")
    .option("-f, --file <FILE>", "desired-state file", "wavix.yaml")
    .option("--last <N>", "the period: the last N full UTC days before today (30d, 7d, 1d) or full hours before this hour (24h); overrides the file's from/to")
    .option("--from <DATE>", "the period's first day, YYYY-MM-DD (UTC); with --to")
    .option("--to <DATE>", "the period's last day, YYYY-MM-DD (UTC), included")
    .addOption(new Option("--format <format>", "stdout format").choices(["md", "json", "csv", "html"]).default("md"))
    .addOption(new Option("--table <T>", "the table --format csv prints (default: sessions)").choices([...CSV_TABLES]))
    .option("--out <DIR>", "also write audit.json, audit.md, audit.html and one CSV per table into DIR")
    .option("--fail-on-findings", "exit 2 when there is an error finding")
    .option("--events", "read every session's events (events.csv, events per session); without it the figures come from the sessions listings alone")
    .option("--allow-incomplete", "exit 0 although the report has data gaps (it still says complete: false and names them)")
    .addOption(timeoutOption())
    .option("--max-rps <N>", MAX_RPS_HELP, positiveNumber("--max-rps"))
    .option("--concurrency <N>", "API requests in flight at once (default 8)", positiveInt("--concurrency"))
    .action(async (opts: AuditCommandOptions) => {
      await auditCommand(opts);
    });
}

/**
 * The audit's own modules (the collection, the computation, the renderers): loaded by
 * {@link loadAuditBesideProfile} once the first request is asked, then from require's cache.
 */
const auditModule = (): typeof import("../audit") => require("../audit") as typeof import("../audit");

/**
 * Loads the audit's own modules (a third of the command's start-up: 35–40 ms) a few at a time
 * between turns of the event loop, so that the profile request asked just before goes out and is
 * answered meanwhile, rather than after them (docs/SPEED.md, "The audit beside a plain loop").
 */
async function loadAuditBesideProfile(): Promise<typeof import("../audit")> {
  const parts = [
    () => require("../audit/compute"),
    () => require("../audit/collect"),
    () => require("../audit/render/json"),
    () => require("../audit/render/md"),
    () => require("../audit/render/html"),
    () => require("../audit/data-sources"),
  ];
  for (const part of parts) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    part();
  }
  return auditModule();
}

function fail(message: string): never {
  process.stderr.write(`Error: ${message}\n`);
  throw new CliExit(1);
}

/**
 * What the run audits over, checked before any request: the flags (`--last`, `--from/--to`), and a
 * file that declares something to audit, each 2FA service with a period.
 */
function checkRun(state: DesiredState, opts: AuditCommandOptions, now: Date): RunWindow | undefined {
  if (opts.table !== undefined && opts.format !== "csv") fail(`--table picks the table --format csv prints; this run prints --format ${opts.format}`);
  let window: RunWindow | undefined;
  try {
    window = runWindow({ last: opts.last, from: opts.from, to: opts.to }, now);
  } catch (err) {
    if (err instanceof AuditWindowError) fail(err.message);
    throw err;
  }
  if (nothingToAudit(state.audit)) {
    const what =
      "declare under audit: the 2FA services to audit (audit.two_fa.services, over --last 30d / --from DATE --to DATE or their own from/to), " +
      "2FA sessions (audit.two_fa.sessions) or 10DLC brands (audit.ten_dlc.brands, or all); see docs/AUDIT.md";
    const has = state.audit === undefined ? "has no audit: section" : "declares nothing to audit under audit:";
    fail(window ? `${opts.file} ${has}: the run's window (${window.label}) gives the period, not what to audit; ${what}` : `${opts.file} ${has} and the run gives no period; ${what}`);
  }
  if (!window) {
    const unwindowed = (state.audit?.two_fa?.services ?? []).map((s, i) => ({ s, i })).filter(({ s }) => s.from === undefined || s.to === undefined);
    if (unwindowed.length > 0) {
      const where = positionsIn(opts.file);
      for (const { s, i } of unwindowed) {
        const pos = where(["audit", "two_fa", "services", i]);
        const line = formatProblem({
          file: state.file,
          line: pos?.line ?? 0,
          col: pos?.col ?? 0,
          path: `audit.two_fa.services[${i}]`,
          message: `2FA service ${s.service_id} has no period: run with --last 30d (or --from DATE --to DATE), or give it from and to`,
        });
        process.stderr.write(`${line}\n`);
      }
      throw new CliExit(1);
    }
  }
  return window;
}

/**
 * Where a path is in the file (line and column), for a message about a valid file; undefined when
 * it cannot be read again. Only on this error path: the loaded state keeps no audit positions.
 */
function positionsIn(file: string): (path: (string | number)[]) => { line: number; col: number } | undefined {
  try {
    // Loaded here, on this error path only: `yaml` is a tenth of the command's start-up otherwise.
    const { LineCounter, parseDocument } = require("yaml") as typeof import("yaml");
    const counter = new LineCounter();
    const doc = parseDocument(readFileSync(file, "utf8"), { lineCounter: counter });
    return (path) => {
      const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
      return node?.range ? counter.linePos(node.range[0]) : undefined;
    };
  } catch {
    return () => undefined;
  }
}

/** The command's body; exits through `CliExit` (1 on errors, 2 on error findings with the flag). */
export async function auditCommand(opts: AuditCommandOptions): Promise<void> {
  const now = new Date();
  // The file and the flags are checked before any request (docs/CONTRACT.md part 3).
  const state = loadFileOrExit(opts.file);
  const window = checkRun(state, opts, now);
  const client = clientFromEnv({ timeout: opts.timeout, maxRps: opts.maxRps, concurrency: opts.concurrency });
  // The first request (the profile: whose account this is, the pin's check) goes out now; the
  // audit's own modules load while it is answered.
  const profile = client.getAccountProfile();
  // Observed by runAudit; until then a rejection must not count as unhandled.
  profile.catch(() => undefined);
  const { AuditCollectionError, completenessText, keyFingerprint, renderHtmlHead, renderMarkdownHead, runAudit, SampleCollector, SpooledSessions } = await loadAuditBesideProfile();
  // The events table needs every session's events; nothing else does.
  const events = opts.events === true || (opts.format === "csv" && opts.table === "events");
  const fingerprint = keyFingerprint(process.env.WAVIX_API_KEY ?? "");

  const spool = new SpooledSessions();
  // The folders of --out this run would make (the sessions' files written ahead make them before
  // the run is known to succeed): a failed run removes them again.
  const outMissing = opts.out !== undefined ? firstMissingFolder(opts.out) : undefined;
  const ahead = opts.out !== undefined ? new SessionFilesAhead(opts.out, spool, events) : undefined;
  let finished = false;
  try {
    const sample = new SampleCollector();
    const sink: SessionSink = {
      add(s) {
        sample.add(s);
        return spool.add(s);
      },
    };
    let head: AuditReportHead;
    try {
      head = await runAudit(client, state.audit, sink, {
        now,
        window,
        profile,
        ...(state.account_id !== undefined ? { accountPin: { id: state.account_id, source: `${opts.file} account_id` } } : {}),
        // Events read ahead of the one being written: enough to keep every connection busy.
        inFlight: Math.max(64, 4 * (opts.concurrency ?? 8)),
        events,
        ...(ahead ? { sessionsDone: (fixed: CsvMeta) => ahead.start(fixed) } : {}),
        source: () => ({
          api_root: client.baseUrl,
          key_fingerprint: fingerprint,
          requests: { total: client.stats.requests, retries: client.stats.retries, rate_limited: client.stats.rateLimited },
        }),
      });
    } catch (err) {
      if (err instanceof AuditCollectionError) {
        for (const m of err.missing) process.stderr.write(`Error: ${m.message}\n`);
        throw new CliExit(1);
      }
      if (err instanceof AuditWindowError) fail(err.message);
      throw err;
    }
    await spool.close();
    const shown = sample.sample();

    // Markdown and HTML rendered once, for the file and for stdout alike.
    const pages = new Map<"md" | "html", string>();
    const page = (format: "md" | "html"): string => {
      let text = pages.get(format);
      if (text === undefined) pages.set(format, (text = format === "md" ? renderMarkdownHead(head, shown) : renderHtmlHead(head, shown)));
      return text;
    };
    if (opts.out !== undefined) await writeReportFiles(opts.out, head, spool, shown, { ahead, page });
    await writeStdout(opts, head, spool, page);

    finished = true;
    const errors = head.findings.filter((f) => f.severity === "error").length;
    const warnings = head.findings.length - errors;
    if (head.findings.length > 0) process.stderr.write(`audit: ${errors} error finding(s), ${warnings} warning(s)\n`);
    if (!head.complete) {
      process.stderr.write(`audit: the report is NOT complete: ${completenessText(head).replace(/^NOT complete: /, "")}${opts.allowIncomplete ? " (accepted: --allow-incomplete)" : "; --allow-incomplete accepts it"}\n`);
      if (!opts.allowIncomplete) throw new CliExit(1);
    }
    if (opts.failOnFindings && errors > 0) throw new CliExit(2);
  } finally {
    await ahead?.discard();
    spool.dispose();
    // A run that failed leaves no earlier run's report in --out to be taken for its own.
    if (!finished && opts.out !== undefined) removeStaleReport(opts.out);
    if (!finished && opts.out !== undefined && outMissing !== undefined) removeEmptyFolders(opts.out, outMissing);
  }
}

/** The outermost folder of `dir` (itself included) that does not exist yet, or undefined when `dir` exists. */
function firstMissingFolder(dir: string): string | undefined {
  let missing: string | undefined;
  for (let d = resolve(dir); !existsSync(d) && dirname(d) !== d; d = dirname(d)) missing = d;
  return missing;
}

/** Removes `dir` and its parents up to `outermost`, each only while empty (a failed run leaves no folder it made). */
function removeEmptyFolders(dir: string, outermost: string): void {
  for (let d = resolve(dir); ; d = dirname(d)) {
    try {
      rmdirSync(d);
    } catch {
      return;
    }
    if (d === outermost || dirname(d) === d) return;
  }
}

/** The files a report writes into `--out` (events.csv only when events were read), and the manifest. */
export const REPORT_FILES = ["audit.json", "audit.md", "audit.html", ...CSV_TABLES.map((t) => `${t}.csv`), MANIFEST] as const;

/** Removes an earlier run's report files from `dir` (after a failed run), saying so; other files are left alone. */
function removeStaleReport(dir: string): void {
  const removed = REPORT_FILES.filter((name) => {
    try {
      rmSync(join(dir, name));
      return true;
    } catch {
      return false;
    }
  });
  if (removed.length > 0) process.stderr.write(`audit: removed ${removed.length} file(s) of an earlier report from ${dir} (${removed.join(", ")}): this run failed and wrote none\n`);
}

/** Writes to stdout, waiting while the pipe is full; a failed write rejects naming standard output. */
function stdoutChunk(chunk: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(chunk, (err) => {
      if (!err) return resolve();
      if ((err as NodeJS.ErrnoException).code !== undefined) (err as NodeJS.ErrnoException).path = "standard output";
      reject(err);
    });
  });
}

async function writeStdout(opts: AuditCommandOptions, head: AuditReportHead, sessions: SessionSource, page: (format: "md" | "html") => string): Promise<void> {
  // A failed write is reported once by the command (the chunk rejects); not again as an event.
  const quiet = (): void => undefined;
  process.stdout.on("error", quiet);
  try {
    const { writeJson, writeCsvTable } = auditModule();
    if (opts.format === "json") await writeJson(head, sessions, stdoutChunk);
    else if (opts.format === "csv") await writeCsvTable(opts.table ?? "sessions", head, sessions, stdoutChunk);
    else await stdoutChunk(page(opts.format));
  } finally {
    process.stdout.off("error", quiet);
  }
}

/**
 * The report files the sessions alone make — sessions.csv, events.csv (when events are read) and
 * audit.json's sessions array — written into `--out` as soon as the sessions are final, while the
 * collection's last requests (the brands' vettings, the previous period's listings) are still
 * out: at the end the files take the head's few lines, not the whole rendering (docs/SPEED.md,
 * "The audit beside a plain loop"). Into temporary files beside the targets: nothing is in place
 * before the whole report is, and {@link discard} removes what a failed run left.
 */
class SessionFilesAhead {
  private readonly staged: StagedFile[] = [];
  private readonly tables = new Map<string, { file: StagedFile; digest: string }>();
  private jsonSessions: StagedFile | undefined;
  private fixed: CsvMeta | undefined;
  private done: Promise<void> | undefined;
  private dropped = false;

  constructor(
    private readonly dir: string,
    private readonly sessions: SessionSource,
    private readonly events: boolean,
  ) {}

  /** Starts writing (not awaited: it goes on beside the collection's last requests). */
  start(fixed: CsvMeta): void {
    this.fixed = fixed;
    this.done = this.write(fixed);
    // Observed by `ready`; a run that fails before then drops it.
    this.done.catch(() => undefined);
  }

  private async open(name: string): Promise<StagedFile | undefined> {
    // A device or a pipe named like a report file is written in place, at the end, as before.
    if (this.dropped || (await isSpecialFile(join(this.dir, name)))) return undefined;
    const file = await StagedFile.open(join(this.dir, name));
    this.staged.push(file);
    return file;
  }

  private writer(file: StagedFile, hash?: ReturnType<typeof createHash>): (chunk: string) => Promise<void> {
    return (chunk) => {
      if (this.dropped) return Promise.reject(new Error("the run failed"));
      // The text itself to the hash and the file, each encoding it natively: no Buffer is made
      // here, whose memory (outside V8's heap) would be held until a collection, which a run
      // waiting on its last requests seldom makes (7 MB more at the peak under 50 requests/s).
      hash?.update(chunk, "utf8");
      return file.write(chunk);
    };
  }

  private async write(fixed: CsvMeta): Promise<void> {
    const { writeCsvSessionsTable, writeJsonSessions } = auditModule();
    const json = await this.open("audit.json");
    if (json) {
      await writeJsonSessions(this.sessions, this.writer(json));
      await json.close();
      this.jsonSessions = json;
    }
    for (const table of this.events ? (["sessions", "events"] as const) : (["sessions"] as const)) {
      const file = await this.open(`${table}.csv`);
      if (!file) continue;
      const hash = createHash("sha256");
      await writeCsvSessionsTable(table, fixed, this.sessions, this.writer(file, hash));
      await file.close();
      this.tables.set(`${table}.csv`, { file, digest: hash.digest("hex") });
    }
  }

  /**
   * What was written ahead, once written (a write error is the run's); nothing when the run's head
   * does not give the same shared columns as the ones written (it does: the check is a guard).
   */
  async ready(head: AuditReportHead): Promise<{ jsonSessions?: StagedFile; tables: ReadonlyMap<string, { file: StagedFile; digest: string }> } | undefined> {
    if (this.done === undefined) return undefined;
    await this.done;
    if (!this.fixed || !auditModule().sameCsvMeta(this.fixed, head)) return undefined;
    return { jsonSessions: this.jsonSessions, tables: this.tables };
  }

  /** Removes the temporary files (those renamed into place are gone already); never throws. */
  async discard(): Promise<void> {
    this.dropped = true;
    await this.done?.catch(() => undefined);
    await Promise.all(this.staged.map((f) => f.discard()));
  }
}

/** Options of {@link writeReportFiles}. */
export interface ReportFilesOptions {
  /** The sessions' files written ahead, while the collection ended. @default none: all rendered here */
  ahead?: SessionFilesAhead;
  /** Markdown or HTML of the head (rendered once for the file and stdout). @default rendered here */
  page?: (format: "md" | "html") => string;
}

/**
 * audit.json, audit.md, audit.html and one `<table>.csv` per table (events.csv only when the
 * events were read: without them it would be an empty table passed off as "no events"), each
 * written atomically (temp file + rename) so readers never see half a file; then
 * `manifest.sha256`, the SHA-256 of each (an earlier run's events.csv is removed first).
 */
export async function writeReportFiles(dir: string, head: AuditReportHead, sessions: SessionSource, sample: SessionSample, options: ReportFilesOptions = {}): Promise<string[]> {
  const { renderHtmlHead, renderMarkdownHead, writeCsvTable, writeJson, writeJsonAround } = auditModule();
  const page = options.page ?? ((format) => (format === "md" ? renderMarkdownHead(head, sample) : renderHtmlHead(head, sample)));
  const written: string[] = [];
  // Each file's SHA-256, taken of the bytes as they are written (rather than reading them back).
  const digests: string[] = [];
  const target = (name: string) => {
    const file = join(dir, name);
    written.push(file);
    return file;
  };
  const streamed = async (name: string, produce: (write: (chunk: string | Uint8Array) => Promise<void>) => Promise<void>): Promise<void> => {
    const hash = createHash("sha256");
    await writeFileAtomicStream(target(name), (write) =>
      produce((chunk) => {
        // Encoded once, for the digest and the file alike.
        const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
        hash.update(bytes);
        return write(bytes);
      }),
    );
    digests.push(hash.digest("hex"));
  };
  const whole = async (name: string, text: string): Promise<void> => {
    const bytes = Buffer.from(text, "utf8");
    await writeFileAtomic(target(name), bytes);
    digests.push(createHash("sha256").update(bytes).digest("hex"));
  };
  // The manifest goes last; until then no manifest says the directory is one report. (A path
  // that cannot hold it is said by the first write, naming the folder.)
  try {
    rmSync(join(dir, MANIFEST), { force: true });
  } catch {
    // ENOTDIR and the like: the writes below report it.
  }
  const ahead = await options.ahead?.ready(head);
  const jsonSessions = ahead?.jsonSessions;
  await streamed("audit.json", async (write) => {
    if (!jsonSessions) return writeJson(head, sessions, write);
    // The sessions array written ahead, copied in between the head's two parts.
    await writeJsonAround(
      head,
      async () => {
        for await (const chunk of createReadStream(jsonSessions.tmp)) await write(chunk as Buffer);
      },
      write,
    );
  });
  await whole("audit.md", page("md"));
  await whole("audit.html", page("html"));
  for (const table of CSV_TABLES) {
    if (table === "events" && !head.asked.events) {
      rmSync(join(dir, "events.csv"), { force: true });
      continue;
    }
    const done = ahead?.tables.get(`${table}.csv`);
    if (done) {
      target(`${table}.csv`);
      await done.file.commit();
      digests.push(done.digest);
      continue;
    }
    await streamed(`${table}.csv`, (write) => writeCsvTable(table, head, sessions, write));
  }
  const lines = written.map((file, i) => `${digests[i]}  ${basename(file)}\n`);
  await writeFileAtomic(target(MANIFEST), lines.join(""));
  return written;
}
