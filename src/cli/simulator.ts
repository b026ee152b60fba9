/**
 * `wavix-sync simulator`: serve the local Wavix API (docs/CONTRACT.md part 7) on loopback until SIGINT/SIGTERM.
 */
import { type Command, InvalidArgumentError } from "commander";
import {
  DEFAULT_SIM_API_KEY,
  type FaultRule,
  loadSeedFile,
  type SimApiKey,
  type SimSeed,
  SIM_VARIATIONS,
  type SimVariation,
  startSimulator,
} from "../simulator";

interface SimulatorCliOptions {
  port: number;
  seed?: string;
  apiKey?: string[];
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

/** `--api-key` values, repeatable; an empty or blank key would let any blank Bearer in. */
function collect(value: string, previous: string[] = []): string[] {
  if (value.trim() === "") throw new InvalidArgumentError("--api-key must not be empty.");
  if (/[\s\x00-\x1f\x7f]/.test(value)) throw new InvalidArgumentError("--api-key must not contain spaces or control characters.");
  return [...previous, value];
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
  program
    .command("simulator")
    .description("Serve a local Wavix API (demo account by default) for trying and testing offline.")
    .option("--port <n>", "port to listen on, 0-65535 (0 picks a free one)", port, 8787)
    .option("--host <addr>", "interface to bind", "127.0.0.1")
    .option("--seed <FILE>", "account to serve, from a JSON or YAML seed file (default: the demo account)")
    .option("--api-key <key>", `accept this API key (repeatable; default: ${DEFAULT_SIM_API_KEY})`, collect)
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
      const seed: SimSeed | "demo" = opts.seed ? loadSeedFile(opts.seed) : "demo";
      const apiKeys: SimApiKey[] | undefined = opts.apiKey && opts.apiKey.length > 0 ? opts.apiKey.map((key) => ({ key })) : undefined;
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
      const what = (opts.seed ? `seed ${opts.seed}` : "demo account") + (opts.variation && opts.variation.length > 0 ? `; variations: ${opts.variation.join(", ")}` : "");
      print(`Wavix simulator listening on ${sim.url} (${what})`);
      // Keys given on the command line are the user's: never echo them. The default is a fake local key.
      if (apiKeys) {
        print(`Accepting ${apiKeys.length} API key(s) given with --api-key.`);
      } else {
        print(`API key: ${DEFAULT_SIM_API_KEY} (fake, local only)`);
      }
      print(`Try: WAVIX_BASE_URL=${sim.url} WAVIX_API_KEY=<key> wavix-sync plan`);
      print("Press Ctrl+C to stop.");
      await new Promise<void>((resolve) => {
        const stop = (): void => {
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
