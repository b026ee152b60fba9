/** `wavix-sync export`: the account as a wavix.yaml that plans clean. */
import type { Command } from "commander";
import { stringify } from "yaml";
import { exportAccount } from "../resources/export";
import { writeFileAtomic } from "./files";
import { clientFromEnv } from "./common";

/** Where editors find the schema when wavix-sync is installed in the repo. */
const SCHEMA_COMMENT = "# yaml-language-server: $schema=./node_modules/wavix-sync/schemas/wavix.schema.json\n";

export function registerExport(program: Command): void {
  program
    .command("export")
    .description("Print the account as a wavix.yaml on which plan reports no changes (no secrets)")
    .option("--out <FILE>", "write to FILE instead of standard output")
    .action(async (flags: { out?: string }) => {
      const client = clientFromEnv();
      const doc = await exportAccount(client);
      const text = SCHEMA_COMMENT + stringify(doc, { lineWidth: 0 });
      if (flags.out) {
        await writeFileAtomic(flags.out, text);
        const n = (doc.numbers as unknown[]).length;
        const s = (doc.sub_accounts as unknown[]).length;
        process.stderr.write(`Wrote ${flags.out} (${s} sub-accounts, ${n} numbers).\n`);
      } else {
        process.stdout.write(text);
      }
    });
}
