import type { Command } from "commander";

/** Placeholder: this command is being built. */
export function registerValidate(_program: Command): void {}
