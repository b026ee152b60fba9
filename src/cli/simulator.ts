import type { Command } from "commander";

/** Placeholder: this command is being built. */
export function registerSimulator(_program: Command): void {}
