/**
 * `wavix-sync demo` (what `npm start` runs): the main job — plan → apply → plan — on
 * examples/wavix.yaml against the embedded local simulator's demo account. Never the real API.
 */
import type { Command } from "commander";
import { isAbsolute, join, relative } from "node:path";
import { formatCount } from "../plan/count";
import { startSimulator } from "../simulator";
import { declareCommand } from "./heads";
import { CliExit } from "./output";

/** `run` is the CLI entry itself, passed in to keep the module graph acyclic. */
export function registerDemo(program: Command, run: (argv: string[]) => Promise<number>): void {
  declareCommand(program, "demo")
    // No commander default: it would print this machine's absolute path in --help.
    .option("-f, --file <FILE>", "desired-state file (default: the package's examples/wavix.yaml)")
    .action(async (flags: { file?: string }) => {
      flags.file ??= join(__dirname, "..", "..", "examples", "wavix.yaml");
      // Show the file as the user would type it from here.
      const rel = relative(process.cwd(), flags.file);
      if (isAbsolute(flags.file) && rel && !rel.startsWith("..")) flags.file = rel;
      const apiKey = "demo-local-key";
      const sim = await startSimulator({ port: 0, seed: "demo", apiKeys: [{ key: apiKey }] });
      const saved = { key: process.env.WAVIX_API_KEY, url: process.env.WAVIX_BASE_URL };
      process.env.WAVIX_API_KEY = apiKey;
      process.env.WAVIX_BASE_URL = sim.url;
      const out = process.stdout;
      try {
        out.write(`Target: the embedded LOCAL Wavix simulator at ${sim.url} (demo account) — not the real Wavix API.\n`);
        out.write(`File:   ${flags.file}\n`);
        const step = async (title: string, args: string[]) => {
          out.write(`\n=== ${title}: wavix-sync ${args.join(" ")}\n\n`);
          const code = await run(["node", "wavix-sync", ...args]);
          if (code !== 0 && !(args[0] === "plan" && code === 2)) throw new CliExit(code);
          return code;
        };
        await step("1. plan", ["plan", "-f", flags.file]);
        await step("2. apply", ["apply", "-f", flags.file, "--auto-approve", "--wait", "30"]);
        const code = await step("3. plan again (expect no changes)", ["plan", "-f", flags.file, "--detailed-exitcode"]);
        out.write(
          code === 0
            ? `\nConverged: the simulator's account now matches the file (${formatCount(sim.log.length)} requests served).\n`
            : `\nThe second plan still shows changes.\n`,
        );
        if (code !== 0) throw new CliExit(1);
      } finally {
        process.env.WAVIX_API_KEY = saved.key;
        process.env.WAVIX_BASE_URL = saved.url;
        if (saved.key === undefined) delete process.env.WAVIX_API_KEY;
        if (saved.url === undefined) delete process.env.WAVIX_BASE_URL;
        await sim.close();
      }
    });
}
