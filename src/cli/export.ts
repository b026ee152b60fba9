import type { Command } from "commander";

/** Placeholder: this command is being built. */
export function registerExport(_program: Command): void {}
