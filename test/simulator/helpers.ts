/** Shared helpers for the simulator tests: a real simulator on port 0 and plain `fetch`. */
import { startSimulator, type Simulator, type SimulatorOptions } from "../../src/simulator";

export const KEY = "sim-demo-key";

export interface ApiResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function withSim(options: SimulatorOptions = {}): Promise<Simulator> {
  return startSimulator({ port: 0, ...options });
}

export async function api<T = unknown>(
  sim: Simulator,
  method: string,
  path: string,
  opts: { key?: string | null; body?: unknown } = {},
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = {};
  const key = opts.key === undefined ? KEY : opts.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(sim.url + path, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body: body as T, text };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
