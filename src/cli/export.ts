/** `wavix-sync export`: the account as a wavix.yaml that plans clean. */
import type { Command } from "commander";
import { stringifyDesiredState } from "../config";
import { exportAccount } from "../resources/export";
import { writeFileAtomic } from "./files";
import { clientFromEnv, timeoutOption } from "./common";

/** Where editors find the schema when wavix-sync is installed in the repo. */
const SCHEMA_PATH = "./node_modules/wavix-sync/schemas/wavix.schema.json";

export function registerExport(program: Command): void {
  program
    .command("export")
    .description("Print the account as a wavix.yaml on which plan reports no changes (no secrets)")
    .option("--out <FILE>", "write to FILE instead of standard output")
    .addOption(timeoutOption())
    .action(async (flags: { out?: string; timeout?: number }) => {
      const client = clientFromEnv({ timeout: flags.timeout });
      const state = await exportAccount(client);
      const text = stringifyDesiredState(state, { schemaPath: SCHEMA_PATH });
      if (flags.out) {
        await writeFileAtomic(flags.out, text);
        const n = state.numbers?.length ?? 0;
        const s = state.sub_accounts?.length ?? 0;
        process.stderr.write(`Wrote ${flags.out} (${s} sub-accounts, ${n} numbers).\n`);
      } else {
        process.stdout.write(text);
      }
    });
}
