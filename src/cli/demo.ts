import type { Command } from "commander";

/** Placeholder: this command is being built. */
export function registerDemo(_program: Command): void {}
