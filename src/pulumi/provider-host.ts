/**
 * The dynamic-provider face (docs/ARCHITECTURE.md, "The per-kind provider"): each kind's provider
 * (src/kinds/<kind>/provider.ts, engine-agnostic) served as a `pulumi.dynamic.ResourceProvider`
 * inside Pulumi's dynamic-provider host (`provider-impl.ts` exports them by type name). This
 * module holds the host's one provider context (src/kit/provider/session.ts): credentials come
 * from `configure` (stack config `wavix:apiKey`, `wavix:baseUrl`, `wavix:accountId`) or the
 * environment (`WAVIX_API_KEY`, `WAVIX_BASE_URL`); the client is built lazily, once per
 * configuration. Validation reuses the desired-state file's own checks (`checkDesiredData`),
 * handed to the kinds through the context.
 */
import type * as pulumi from "@pulumi/pulumi";
import { warnEngine } from "./engine-log";
import type { KindProvider, ProviderContext } from "../kit/provider/contract";
import { ProviderSession, accountIdOf, gateSettingsOf, sameCredentials, type Credentials } from "../kit/provider/session";
import type { Props } from "../kit/provider/props";
import { validateEntry } from "./entry-check";
import { MISSING_KEY_HINT } from "./key-hint";

/** What the engine sends for a value not known during preview (`@pulumi/pulumi` runtime/rpc). */
export { UNKNOWN } from "../kit/provider/props";

export { MISSING_KEY_HINT, validateEntry };

function sessionFor(credentials: Credentials): ProviderSession {
  return new ProviderSession({ credentials, missingApiKeyHint: MISSING_KEY_HINT, warn: warnEngine, checkEntry: validateEntry });
}

/** Per host process: the context of the configuration last applied. */
let session = sessionFor({});

/**
 * Stores the credentials of the stack config, synchronously (the frozen loader of
 * src/kit/pulumi/shim.ts does not wait). The engine sends the whole stack config with full keys
 * (`wavix:apiKey`); some engines nest provider config as `wavix:config:apiKey`, so both are read.
 * Empty values count as unset, so the environment (`WAVIX_API_KEY`, `WAVIX_BASE_URL`) applies. A
 * change of credentials starts a new context (clients, readers and bookkeeping).
 */
export function applyConfig(req: pulumi.dynamic.ConfigureRequest): void {
  const get = (k: string): string | undefined => {
    const v = req.config.get(`wavix:${k}`) ?? req.config.get(`wavix:config:${k}`);
    return typeof v === "string" && v.trim() !== "" ? v : undefined;
  };
  const next: Credentials = { apiKey: get("apiKey"), baseUrl: get("baseUrl"), accountId: accountIdOf(get("accountId")), ...gateSettingsOf(get) };
  if (!sameCredentials(next, session.credentials)) session = sessionFor(next);
}

/** The provider's `configure` (state written before the version-1 loader calls it directly). */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  applyConfig(req);
}

/** The host's provider context (the configuration last applied). */
export function providerContext(): ProviderContext {
  return session;
}

/**
 * What a failed method's error carries instead of its stack. The dynamic-provider host
 * (`@pulumi/pulumi/cmd/dynamic-provider`) prints `${err}: ${err.stack}` on its stderr for a failed
 * check, diff, read or delete, and the engine shows that text under the stack resource — the
 * message a second time, with a stack trace — besides the error itself, which it reports on the
 * resource. With this marker in place of the stack, {@link quietReportedErrors} drops that print:
 * each error is shown once, by the engine, without a stack trace.
 */
export const REPORTED_BY_ENGINE = "\u2063(wavix-sync: reported by the engine)";

/** The error, marked as one the engine reports itself ({@link REPORTED_BY_ENGINE}). */
function reported(err: unknown): Error {
  const e = err instanceof Error ? err : new Error(String(err));
  try {
    Object.defineProperty(e, "stack", { value: REPORTED_BY_ENGINE, configurable: true, writable: true });
  } catch {
    // A frozen error keeps its stack: printed twice, nothing else.
  }
  return e;
}

/**
 * In the dynamic-provider host process: the host's own print of an error marked
 * {@link REPORTED_BY_ENGINE} is dropped (once per process; every other print goes through).
 */
export function quietReportedErrors(): void {
  const c = console as Console & { wavixQuiet?: true };
  if (c.wavixQuiet) return;
  const print = console.error.bind(console);
  console.error = (...args: unknown[]): void => {
    if (args.length === 1 && typeof args[0] === "string" && args[0].endsWith(REPORTED_BY_ENGINE)) return;
    print(...args);
  };
  c.wavixQuiet = true;
}

/** `fn`'s promise, its failure marked as one the engine reports ({@link reported}). */
function marked<T>(fn: () => Promise<T>): Promise<T> {
  return fn().catch((err: unknown) => Promise.reject(reported(err)));
}

/**
 * A kind's provider as a dynamic provider: the same methods, each given the host's context of the
 * moment it is called (a `configure` in between may have replaced it), each failure printed once
 * by the engine without a stack trace ({@link REPORTED_BY_ENGINE}).
 */
export function dynamicProvider<In, Out>(kind: KindProvider<In, Out>): pulumi.dynamic.ResourceProvider<In, Out> {
  const update = kind.update;
  return {
    configure,
    check: (olds, news) => marked(() => kind.check(session, olds, news)),
    diff: (id, olds, news) => marked(() => kind.diff(session, id, olds, news)),
    create: (inputs) => marked(() => kind.create(session, inputs)),
    read: (id, props) => marked(() => kind.read(session, id, props)),
    ...(update ? { update: (id: string, olds: Out, news: In) => marked(() => update.call(kind, session, id, olds, news)) } : {}),
    delete: (id, props) => marked(() => kind.delete(session, id, props)),
  };
}
