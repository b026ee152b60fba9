import type { Command } from "commander";

/** Placeholder: this command is being built. */
export function registerAudit(_program: Command): void {}
