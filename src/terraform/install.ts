/**
 * `wavix-sync tofu-install` (docs/TERRAFORM.md, "Install"): puts `terraform-provider-wavix` where
 * OpenTofu and Terraform find a provider without a registry — a filesystem mirror in the "unpacked"
 * layout both engines read (`HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/terraform-provider-TYPE_vVERSION`),
 * under both registry host names (`source = "wavix-sync/wavix"` means registry.opentofu.org/… to
 * OpenTofu and registry.terraform.io/… to Terraform). The default folder, ~/.terraform.d/plugins,
 * is one both engines search on their own (an "implied local mirror"), so `tofu init` finds it with
 * no CLI configuration; another folder is named in a `provider_installation { filesystem_mirror }`
 * block, which the command prints.
 *
 * The file it writes is a two-line launcher running this package's provider with this Node.js; the
 * package must stay where it is (reinstall after moving or upgrading it).
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { packageRoot } from "../util/package-root";
import { packageVersion } from "../pulumi/plugin/version";

export const NAMESPACE = "wavix-sync";
export const TYPE = "wavix";
export const HOSTS = ["registry.opentofu.org", "registry.terraform.io"] as const;

/** The default mirror: the implied local mirror both engines search (`~/.terraform.d/plugins`). */
export const defaultMirror = (): string => path.join(homedir(), ".terraform.d", "plugins");

/** `linux_amd64`, as the engines name a platform. */
export function platform(): string {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const arch = process.arch === "x64" ? "amd64" : process.arch === "ia32" ? "386" : process.arch;
  return `${os}_${arch}`;
}

export interface Installed {
  /** The launcher files written, one per host name. */
  readonly files: string[];
  readonly version: string;
}

/** Writes the mirror under `dir`. */
export function installMirror(dir: string = defaultMirror(), version: string = packageVersion()): Installed {
  const provider = path.join(packageRoot(), "bin", "terraform-provider-wavix");
  const launcher = `#!/bin/sh\n# terraform-provider-wavix ${version}, written by \`wavix-sync tofu-install\`.\nexec "${process.execPath}" "${provider}" "$@"\n`;
  const files: string[] = [];
  for (const host of HOSTS) {
    const folder = path.join(dir, host, NAMESPACE, TYPE, version, platform());
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, `terraform-provider-${TYPE}_v${version}`);
    writeFileSync(file, launcher);
    chmodSync(file, 0o755);
    files.push(file);
  }
  return { files, version };
}

/** The CLI configuration naming a mirror folder that is not an implied one. */
export function mirrorConfig(dir: string): string {
  return `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(dir)}\n    include = ["${NAMESPACE}/${TYPE}"]\n  }\n  direct {\n    exclude = ["${NAMESPACE}/${TYPE}"]\n  }\n}\n`;
}

/** The CLI configuration of the contributors' route: the engine runs the checkout's provider, no `init` needed for it. */
export function devOverridesConfig(): string {
  const bin = path.join(packageRoot(), "bin");
  return `provider_installation {\n  dev_overrides {\n${HOSTS.map((h) => `    "${h}/${NAMESPACE}/${TYPE}" = ${JSON.stringify(bin)}`).join("\n")}\n  }\n  direct {}\n}\n`;
}
