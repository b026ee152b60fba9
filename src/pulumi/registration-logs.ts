/**
 * The runner's per-registration debug messages, not sent (the root program's own process only).
 *
 * `@pulumi/pulumi` logs three debug messages for every resource it registers ("Registering
 * resource: …", "RegisterResource RPC prepared: …", "RegisterResource RPC finished: …", in its
 * runtime/resource.ts), each a `Log` call to the engine, chained one after another so they arrive
 * in order (its log/index.ts). The engine shows debug messages only under `--debug`. For 1,000
 * numbers that is 3,000 gRPC calls: measured, 1 s of the runner's 3.9 s of CPU and 0.65 s of a
 * no-change `up` on two cores. Pulumi moved other per-registration messages behind a flag for the
 * same reason (pulumi/pulumi#7144). Every other message — debug, info, warning, error — still goes
 * to the engine.
 */
import * as sdkLog from "@pulumi/pulumi/log";

const PER_REGISTRATION = /^(Registering resource: |RegisterResource RPC (prepared|finished): )/;

/**
 * From now on in this process, the SDK's per-registration debug messages are dropped. The SDK looks
 * `debug` up on its log module at each call (`log.debug(…)`), so replacing that export is enough;
 * `test/pulumi/engine.test.ts` would see the messages again if a version of the SDK stopped doing so.
 */
export function quietRegistrationLogs(): void {
  const log = sdkLog as unknown as { debug: typeof sdkLog.debug & { quiet?: true } };
  if (log.debug.quiet) return;
  const debug = log.debug;
  const quiet = Object.assign((msg: string, ...rest: unknown[]): Promise<void> => (PER_REGISTRATION.test(msg) ? Promise.resolve() : (debug as (...a: unknown[]) => Promise<void>)(msg, ...rest)), {
    quiet: true as const,
    // The redaction of src/kit/pulumi/debug-logs.ts may be under it: say so, so it is not stacked again.
    redacting: (debug as { redacting?: true }).redacting,
  });
  try {
    log.debug = quiet;
  } catch {
    // An SDK whose log module cannot be changed keeps sending them: slower, nothing else.
  }
}
