/**
 * `wavix-sync tofu-install`: installs `terraform-provider-wavix` for OpenTofu and Terraform as a
 * filesystem mirror (src/terraform/install.ts; docs/TERRAFORM.md, "Install"), or prints the
 * contributors' `dev_overrides` configuration. Writes files only under the folder it is given.
 */
import type { Command } from "commander";
import path from "node:path";
import { declareCommand } from "./heads";
import { defaultMirror, devOverridesConfig, installMirror, mirrorConfig, NAMESPACE, TYPE } from "../terraform/install";

export function registerTofuInstall(program: Command): void {
  declareCommand(program, "tofu-install")
    // No commander default: it would print this machine's home folder in --help.
    .option("--dir <DIR>", "the mirror folder (default: ~/.terraform.d/plugins, which OpenTofu and Terraform search on their own)")
    .option("--dev-overrides", "print a CLI configuration (TF_CLI_CONFIG_FILE) that runs this package's provider directly, and install nothing")
    .action((flags: { dir?: string; devOverrides?: boolean }) => {
      const out = process.stdout;
      if (flags.devOverrides) {
        out.write(devOverridesConfig());
        return;
      }
      const dir = path.resolve(flags.dir ?? defaultMirror());
      const { files, version } = installMirror(dir);
      out.write(`Installed ${NAMESPACE}/${TYPE} ${version}:\n${files.map((f) => `  ${f}\n`).join("")}`);
      out.write(`\nIn your configuration:\n\n  terraform {\n    required_providers {\n      wavix = { source = "${NAMESPACE}/${TYPE}", version = "${version}" }\n    }\n  }\n`);
      if (flags.dir !== undefined) out.write(`\nThis folder is not one the engines search on their own: put this in your CLI configuration (~/.tofurc, ~/.terraformrc or TF_CLI_CONFIG_FILE):\n\n${mirrorConfig(dir)}`);
      out.write("\nThen `tofu init` (or `terraform init`).\n");
    });
}
