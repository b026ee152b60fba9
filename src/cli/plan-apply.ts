import type { Command } from "commander";

/** Placeholder: this command is being built. */
export function registerPlanApply(_program: Command): void {}
