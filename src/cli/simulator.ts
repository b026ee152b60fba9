/**
 * `wavix-sync simulator`: serve the local Wavix API (docs/CONTRACT.md part 7) on loopback until SIGINT/SIGTERM.
 */
import { readFileSync } from "node:fs";
import { type Command, InvalidArgumentError } from "commander";
import {
  DEFAULT_ORGANIZATION_ID,
  DEFAULT_SIM_API_KEY,
  demoSeed,
  type FaultRule,
  generateAccount,
  type GenerateAccountOptions,
  loadSeedFile,
  type Scope,
  SCOPES,
  type ScopeLevel,
  type SimApiKey,
  type SimSeed,
  SIM_VARIATIONS,
  type SimVariation,
  startSimulator,
} from "../simulator";
import { declareCommand } from "./heads";

interface SimulatorCliOptions {
  port: number;
  seed?: string;
  generate?: GenerateAccountOptions;
  apiKey?: ApiKeySpec[];
  latencyMs: number;
  faultRate: number;
  host: string;
  variation?: SimVariation[];
  refuseUrlClears?: boolean;
  expectBadRequests?: boolean;
}

function nonNegativeInt(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`${name} must be a non-negative integer.`);
    return Number(value);
  };
}

function port(value: string): number {
  const n = nonNegativeInt("--port")(value);
  if (n > 65535) throw new InvalidArgumentError("--port must be between 0 and 65535 (0 picks a free one).");
  return n;
}

function rate(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new InvalidArgumentError("--fault-rate must be a number between 0 and 1.");
  }
  return n;
}

/** One `--api-key` value: the key, and what it may do. */
export interface ApiKeySpec {
  key: string;
  /** `@ORG`: the organisation it authenticates as (a sub-account's id: a tenant's key). @default the master */
  organization?: number;
  /** `:read`, `:SCOPE=LEVEL,...`: a restricted key (seed part 5). @default unrestricted */
  restricted?: Partial<Record<Scope, ScopeLevel>>;
  /** How the banner describes it (never the key). */
  access: string;
}

const LEVELS: readonly ScopeLevel[] = ["none", "read", "write"];

/**
 * `--api-key KEY[@ORG][:ACCESS]`, repeatable. ACCESS is `read` (read every resource, write none),
 * `write` (every resource; the same as no ACCESS), or `SCOPE=LEVEL,...` (each LEVEL none, read or
 * write; a resource not listed is none, as for a restricted Wavix key). `@ORG` makes the key
 * authenticate as that organisation (a sub-account id: a tenant's own key). An empty or blank key
 * would let any blank Bearer in.
 */
export function parseApiKey(value: string): ApiKeySpec {
  const colon = value.indexOf(":");
  const head = colon < 0 ? value : value.slice(0, colon);
  const access = colon < 0 ? undefined : value.slice(colon + 1);
  const at = head.lastIndexOf("@");
  const key = at < 0 ? head : head.slice(0, at);
  const org = at < 0 ? undefined : head.slice(at + 1);
  if (key.trim() === "") throw new InvalidArgumentError("--api-key must not be empty.");
  if (/[\s\x00-\x1f\x7f]/.test(key)) throw new InvalidArgumentError("--api-key must not contain spaces or control characters.");
  const spec: ApiKeySpec = { key, access: "unrestricted" };
  if (org !== undefined) {
    if (!/^[1-9]\d{0,15}$/.test(org)) throw new InvalidArgumentError(`--api-key KEY@ORG takes an organisation id (digits) after @, got "${org}".`);
    spec.organization = Number(org);
  }
  if (access === undefined || access === "write") {
    // Unrestricted: seed part 5 item 3.
  } else if (access === "read") {
    spec.restricted = Object.fromEntries(SCOPES.map((scope) => [scope, "read"]));
    spec.access = "read-only";
  } else {
    const restricted: Partial<Record<Scope, ScopeLevel>> = {};
    for (const part of access.split(",")) {
      const [scope, level, extra] = part.split("=");
      if (extra !== undefined || !(SCOPES as readonly string[]).includes(scope) || !(LEVELS as readonly string[]).includes(level)) {
        throw new InvalidArgumentError(
          `--api-key KEY:ACCESS takes read, write, or SCOPE=LEVEL,... (LEVEL none, read or write; SCOPE one of ${SCOPES.join(", ")}), got "${part}".`,
        );
      }
      restricted[scope as Scope] = level as ScopeLevel;
    }
    spec.restricted = restricted;
    spec.access = `restricted to ${Object.entries(restricted).map(([k, v]) => `${k}=${v}`).join(",")}`;
  }
  if (spec.organization !== undefined) spec.access += ` as organisation ${spec.organization}`;
  return spec;
}

function collect(value: string, previous: ApiKeySpec[] = []): ApiKeySpec[] {
  return [...previous, parseApiKey(value)];
}

/** `--generate numbers=N,sub_accounts=M,numbers_per_sub_account=K,seed=S`: a large deterministic account. */
export function parseGenerate(value: string): GenerateAccountOptions {
  const limits: Record<string, [field: keyof GenerateAccountOptions, max: number]> = {
    numbers: ["numbers", 1_000_000],
    sub_accounts: ["subAccounts", 9_999],
    numbers_per_sub_account: ["numbersPerSubAccount", 999],
    seed: ["seed", 2 ** 31 - 1],
  };
  const out: GenerateAccountOptions = { numbers: 0 };
  for (const part of value.split(",").map((p) => p.trim()).filter((p) => p !== "")) {
    const m = /^([a-z_]+)=(\d+)$/.exec(part);
    const limit = m ? limits[m[1]] : undefined;
    if (!m || !limit) {
      throw new InvalidArgumentError(`--generate takes NAME=COUNT pairs separated by commas (${Object.keys(limits).join(", ")}), got "${part}".`);
    }
    const n = Number(m[2]);
    if (n > limit[1]) throw new InvalidArgumentError(`--generate ${m[1]} is at most ${limit[1].toLocaleString("en-US")}, got ${m[2]}.`);
    out[limit[0]] = n;
  }
  if ((out.numbersPerSubAccount ?? 0) > 0 && (out.subAccounts ?? 0) === 0) {
    throw new InvalidArgumentError("--generate numbers_per_sub_account needs sub_accounts=N as well.");
  }
  return out;
}

/** `--variation NAME` (repeatable, or comma-separated; `all` for every one). */
function collectVariation(value: string, previous: SimVariation[] = []): SimVariation[] {
  const out = [...previous];
  for (const raw of value.split(",").map((v) => v.trim()).filter((v) => v !== "")) {
    if (raw === "all") {
      out.push(...SIM_VARIATIONS);
      continue;
    }
    if (!(SIM_VARIATIONS as readonly string[]).includes(raw)) {
      throw new InvalidArgumentError(`unknown variation "${raw}"; known: ${SIM_VARIATIONS.join(", ")}, all.`);
    }
    out.push(raw as SimVariation);
  }
  return [...new Set(out)];
}

/** A listen failure as one sentence naming the flag to change. */
function listenError(err: unknown, opts: SimulatorCliOptions): Error {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "EADDRINUSE":
      return new Error(`port ${opts.port} is already in use on ${opts.host}: pick another with --port, or --port 0 for a free one`);
    case "EACCES":
      return new Error(`not allowed to listen on port ${opts.port} (ports below 1024 need privileges): pick another with --port`);
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new Error(`cannot listen on --host ${opts.host}: not an address of this machine`);
    default:
      // A seed value of a type the checks in seed-file.ts do not cover, failing inside the store.
      if (opts.seed && err instanceof TypeError) return new Error(`simulator seed ${opts.seed} holds a value of the wrong type (${err.message})`);
      return err instanceof Error ? err : new Error(String(err));
  }
}

/**
 * `--fault-rate R`: each request fails with probability R, half as 503 and half as 429 with a
 * `Retry-After`. Rules evaluate in order, so the second one's probability is conditional on the first
 * not firing: R/2 / (1 - R/2) keeps the total at R.
 */
export function faultRateRules(r: number): FaultRule[] {
  if (r <= 0) return [];
  const half = r / 2;
  return [
    { kind: "status", status: 503, probability: half },
    { kind: "status", status: 429, retryAfter: "1", probability: Math.min(1, half / (1 - half)) },
  ];
}

/** Test seams of the command; production passes none. */
export interface SimulatorCommandHooks {
  /** Stops the server like SIGINT would. @default only SIGINT/SIGTERM stop it */
  stop?: AbortSignal;
  /** Where the banner goes. @default process.stdout */
  out?: (line: string) => void;
}

export function registerSimulator(program: Command, hooks: SimulatorCommandHooks = {}): void {
  const print = hooks.out ?? ((line: string): void => void process.stdout.write(`${line}\n`));
  declareCommand(program, "simulator")
    .option("--port <n>", "port to listen on, 0-65535 (0 picks a free one)", port, 8787)
    .option("--host <addr>", "interface to bind", "127.0.0.1")
    .option("--seed <FILE>", "account to serve, from a JSON or YAML seed file (default: the demo account)")
    .option(
      "--generate <counts>",
      "serve a large generated account instead: numbers=N,sub_accounts=M,numbers_per_sub_account=K,seed=S (numbers 1555…, sub-account keys sim-sub-key-0001…)",
      parseGenerate,
    )
    .option(
      "--api-key <key>",
      `accept this API key (repeatable; default: ${DEFAULT_SIM_API_KEY}); KEY:read is read-only, KEY:SCOPE=LEVEL,... restricted per resource, KEY@ORG a key of organisation ORG (a sub-account: a tenant's key)`,
      collect,
    )
    .option("--latency-ms <n>", "delay every response by N ms", nonNegativeInt("--latency-ms"), 0)
    .option("--fault-rate <r>", "probability (0-1) that a request fails with 503 or 429", rate, 0)
    .option(
      "--variation <name>",
      `answer as real servers may (repeatable or comma-separated): ${SIM_VARIATIONS.join(", ")}, all`,
      collectVariation,
    )
    .option("--refuse-url-clears", "refuse a number URL clear (null) with 400, as the official update schema would")
    .option("--expect-bad-requests", "requests breaking the API schemas are sent on purpose (tests): not recorded")
    .action(async (opts: SimulatorCliOptions) => {
      if (opts.seed !== undefined && opts.generate !== undefined) throw new Error("give --seed FILE or --generate COUNTS, not both");
      const seed: SimSeed = opts.seed ? loadSeedFile(opts.seed) : opts.generate ? generateAccount(opts.generate) : demoSeed();
      const apiKeys: SimApiKey[] | undefined = opts.apiKey && opts.apiKey.length > 0 ? opts.apiKey.map(({ key, organization, restricted }) => ({ key, organization, restricted })) : undefined;
      // A key of an organisation the account does not have would answer 404s that explain nothing.
      const orgs = new Set([seed.organizationId ?? DEFAULT_ORGANIZATION_ID, ...(seed.subAccounts ?? []).map((s) => s.id)]);
      for (const k of opts.apiKey ?? []) {
        if (k.organization !== undefined && !orgs.has(k.organization)) {
          throw new Error(`--api-key KEY@${k.organization}: the account has no organisation ${k.organization} (the master is ${seed.organizationId ?? DEFAULT_ORGANIZATION_ID}; sub-accounts: ${[...orgs].slice(1).join(", ") || "none"})`);
        }
      }
      let sim;
      try {
        sim = await startSimulator({
          port: opts.port,
          host: opts.host,
          seed,
          apiKeys,
          latencyMs: opts.latencyMs,
          faults: faultRateRules(opts.faultRate),
          variations: opts.variation ?? [],
          refuseUrlClears: opts.refuseUrlClears ?? false,
          expectBadRequests: opts.expectBadRequests ?? false,
        });
      } catch (err) {
        throw listenError(err, opts);
      }
      const generated = opts.generate
        ? `generated account: ${opts.generate.numbers.toLocaleString("en-US")} numbers, ${(opts.generate.subAccounts ?? 0).toLocaleString("en-US")} sub-accounts` +
          ((opts.generate.numbersPerSubAccount ?? 0) > 0 ? ` owning ${opts.generate.numbersPerSubAccount} numbers each` : "")
        : undefined;
      const what = (opts.seed ? `seed ${opts.seed}` : generated ?? "demo account") + (opts.variation && opts.variation.length > 0 ? `; variations: ${opts.variation.join(", ")}` : "");
      print(`Wavix simulator listening on ${sim.url} (${what})`);
      // Keys given on the command line are the user's: never echo them. The default is a fake local key.
      if (opts.apiKey && opts.apiKey.length > 0) {
        print(`Accepting ${opts.apiKey.length} API key(s) given with --api-key: ${opts.apiKey.map((k, i) => `#${i + 1} ${k.access}`).join("; ")}.`);
      } else {
        print(`API key: ${DEFAULT_SIM_API_KEY} (fake, local only)`);
      }
      print(`Try: WAVIX_BASE_URL=${sim.url} WAVIX_API_KEY=<key> wavix-sync plan`);
      print("Press Ctrl+C to stop.");
      await new Promise<void>((resolve) => {
        // `kill` of the `npx` that started it does not reach this process (npm does not pass
        // SIGTERM on): when that npx is gone, stop too rather than hold the port (issue #36).
        const npx = npxAncestor();
        const orphaned = npx === undefined ? undefined : setInterval(() => !alive(npx) && stop(), 500);
        orphaned?.unref();
        const stop = (): void => {
          if (orphaned) clearInterval(orphaned);
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          hooks.stop?.removeEventListener("abort", stop);
          resolve();
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
        if (hooks.stop?.aborted) stop();
        else hooks.stop?.addEventListener("abort", stop);
      });
      await sim.close();
      print("Wavix simulator stopped.");
    });
}

/**
 * The pid of the `npx` / `npm exec` that started this process: the parent, or the parent's parent
 * (npm runs the bin through `sh -c`). Linux (/proc) only; undefined elsewhere or when not under npx.
 */
function npxAncestor(): number | undefined {
  try {
    let pid = process.ppid;
    for (let depth = 0; depth < 2 && pid > 1; depth++) {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
      if (/(^|\/)(npx|npm)(-cli\.js)?( |$)|npm exec|npx-cli\.js/.test(cmd) && !/ (test|run|start)( |$)/.test(cmd)) return pid;
      // The parent's parent: field 4 of /proc/PID/stat (after the command in parentheses).
      pid = Number(readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "").split(" ")[1]);
    }
  } catch {
    // No /proc: not watched.
  }
  return undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
