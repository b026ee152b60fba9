/** What a simulated route is and what its handler is given (the route table: routes.ts). */
import type { SimResponse } from "./http";
import type { SimStore } from "./store";
import type { Scope } from "./types";
import type { SimVariation } from "./variations";

export interface RouteContext {
  store: SimStore;
  /** The organisation the key authenticates as. */
  org: number;
  params: string[];
  query: URLSearchParams;
  /** Parsed JSON body (`undefined` when none). */
  body: unknown;
  maxPerPage: number;
  asyncDelayMs: number;
  /** Run `fn` after `ms` unless the simulator closes first. */
  schedule(ms: number, fn: () => void): void;
  /** Variations being played (src/simulator/variations.ts). */
  variations: ReadonlySet<SimVariation>;
  /** `PUT /v1/profile` replaces the profile (`SimulatorOptions.profilePutReplaces`). */
  profilePutReplaces?: boolean;
}

export interface Route {
  method: string;
  pattern: RegExp;
  resource: Scope;
  handle(ctx: RouteContext): SimResponse;
  /** Response schema (schemas/api) of a success answer: checked in tests, shaped by variations. */
  response?: string;
  /** Status of a validation error: 400 unless the official operation declares only 422. @default 400 */
  validationStatus?: number;
}
