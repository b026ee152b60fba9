/**
 * Fault injection (docs/CONTRACT.md part 7): rules are evaluated per request, in order; each keeps its own
 * counters; probabilities draw from a seeded RNG so a run repeats. `/__sim/*` is never faulted.
 */
import { SeededRandom } from "./rng";
import type { FaultRule } from "./types";

export type FaultDecision =
  | { kind: "none" }
  | { kind: "status"; rule: FaultRule }
  | { kind: "drop" }
  | { kind: "commit-then-drop" };

interface RuleState {
  rule: FaultRule;
  matched: number;
  fired: number;
}

export class FaultEngine {
  private states: RuleState[] = [];

  constructor(
    rules: FaultRule[],
    private readonly rng: SeededRandom,
  ) {
    this.setRules(rules);
  }

  /** Replace the rules; counters start again. */
  setRules(rules: FaultRule[]): void {
    for (const rule of rules) validateRule(rule);
    this.states = rules.map((rule) => ({ rule: { ...rule }, matched: 0, fired: 0 }));
  }

  get rules(): FaultRule[] {
    return this.states.map((s) => ({ ...s.rule }));
  }

  /**
   * Decide the fate of one request. `delay` rules add to the returned wait and evaluation goes on;
   * the first terminal rule (status, drop, commit-then-drop) that fires ends it.
   */
  evaluate(method: string, path: string): { delayMs: number; decision: FaultDecision } {
    let delayMs = 0;
    for (const state of this.states) {
      const { rule } = state;
      if (rule.method && rule.method.toUpperCase() !== method.toUpperCase()) continue;
      if (rule.pathPrefix && !path.startsWith(rule.pathPrefix)) continue;
      state.matched++;
      if (rule.times !== undefined && state.fired >= rule.times) continue;
      if (rule.everyNth !== undefined && state.matched % rule.everyNth !== 0) continue;
      if (rule.probability !== undefined && !(this.rng.next() < rule.probability)) continue;
      state.fired++;
      switch (rule.kind) {
        case "delay":
          delayMs += rule.delayMs ?? 0;
          break;
        case "status":
          return { delayMs, decision: { kind: "status", rule } };
        case "drop":
          return { delayMs, decision: { kind: "drop" } };
        case "commit-then-drop":
          return { delayMs, decision: { kind: "commit-then-drop" } };
      }
    }
    return { delayMs, decision: { kind: "none" } };
  }
}

const KINDS = ["status", "drop", "commit-then-drop", "delay"];

/** Refuse malformed rules early, with a message naming the problem. */
export function validateRule(rule: FaultRule): void {
  if (!rule || !KINDS.includes(rule.kind)) throw new Error(`fault rule kind must be one of ${KINDS.join(", ")}`);
  if (rule.status !== undefined && !(Number.isInteger(rule.status) && rule.status >= 100 && rule.status <= 599)) {
    throw new Error("fault rule status must be an HTTP status code");
  }
  if (rule.everyNth !== undefined && !(Number.isInteger(rule.everyNth) && rule.everyNth >= 1)) {
    throw new Error("fault rule everyNth must be an integer of at least 1");
  }
  if (rule.probability !== undefined && !(rule.probability >= 0 && rule.probability <= 1)) {
    throw new Error("fault rule probability must be between 0 and 1");
  }
  if (rule.times !== undefined && !(Number.isInteger(rule.times) && rule.times >= 0)) {
    throw new Error("fault rule times must be a non-negative integer");
  }
}

/** The default body of a status fault: seed part 7 shapes where one fits. */
export function defaultFaultBody(status: number): unknown {
  if (status === 429) return { success: false, message: "Too many requests" };
  if (status === 401) return { success: false, error: true, message: "Unauthorized" };
  return { success: false, message: `Simulated failure (HTTP ${status})` };
}
