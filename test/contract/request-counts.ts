/** Requests of the simulator's log grouped by operation (ids in paths folded), for the contract tests' reports. */
import type { SimRequestLogEntry } from "../../src/simulator";

/** `GET /v1/numbers/4001` → `GET /v1/numbers/{id}`, so counts group by operation. */
export function operation(e: SimRequestLogEntry): string {
  const path = e.path
    .replace(/^\/v1\/numbers\/\d+$/, "/v1/numbers/{id}")
    .replace(/^\/v1\/sub-organizations\/\d+$/, "/v1/sub-organizations/{id}")
    .replace(/^\/v1\/two-fa\/session\/[^/]+\/events$/, "/v1/two-fa/session/{id}/events")
    .replace(/^\/v1\/two-fa\/service\/[^/]+\/sessions$/, "/v1/two-fa/service/{id}/sessions")
    .replace(/^\/v3\/10dlc\/brands\/[^/]+\/vettings$/, "/v3/10dlc/brands/{id}/vettings");
  return `${e.method} ${path}`;
}

/** Requests since `from` in the log, by operation, as one printable line. */
export function requestCounts(log: readonly SimRequestLogEntry[], step: string, from: number): { total: number; line: string } {
  const by = new Map<string, number>();
  for (const e of log.slice(from)) by.set(operation(e), (by.get(operation(e)) ?? 0) + 1);
  const total = log.length - from;
  const parts = [...by].sort().map(([op, n]) => `${op} ×${n}`);
  return { total, line: `${step}: ${total} request(s): ${parts.join(", ")}` };
}
