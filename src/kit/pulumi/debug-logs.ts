/**
 * No secret of ours in the SDK's debug messages, in every program that declares our resources (the
 * root program and a user's own).
 *
 * `@pulumi/pulumi` sends the engine a debug message when a registration finishes, `RegisterResource
 * RPC finished: resource:<name>[<type>]; err: …, resp: <response>` (its runtime/resource.ts), and
 * the response is the protobuf message turned into text: every output value, secret ones in clear
 * (a secret is a wrapper object in that message, its value beside it). `pulumi up --debug` prints
 * debug messages, so a trunk's password, its access token and a sub-account's API key appeared in
 * the output. For our resource types the response part is replaced by a note; the rest of the
 * message, and every other debug message of the program (its own resources' included), is sent as
 * before. The root program drops these messages altogether (src/pulumi/registration-logs.ts), for
 * speed; both patches wrap whatever `debug` they find, so they compose.
 */
import * as sdkLog from "@pulumi/pulumi/log";
import { RESOURCE_MODULE } from "./module";

const FINISHED = "RegisterResource RPC finished: resource:";
const OUR_TYPE = `[pulumi-nodejs:dynamic/${RESOURCE_MODULE}:`;
/** What replaces the response of our registrations in the message. */
export const RESPONSE_NOT_SHOWN = "(not shown by wavix-sync: it holds the resource's outputs, secrets included)";

type Debug = (msg: string, ...rest: unknown[]) => Promise<void>;

/** The message with the response of one of our registrations replaced; any other message as it is. */
export function withoutOurResponses(msg: string): string {
  if (!msg.startsWith(FINISHED)) return msg;
  const errAt = msg.indexOf("; err: ");
  const typeAt = msg.indexOf(OUR_TYPE);
  if (errAt < 0 || typeAt < 0 || typeAt > errAt) return msg;
  const respAt = msg.indexOf(", resp: ", errAt);
  return respAt < 0 ? msg : `${msg.slice(0, respAt)}, resp: ${RESPONSE_NOT_SHOWN}`;
}

/**
 * From now on in this process, the SDK's `RegisterResource RPC finished` debug messages of our
 * resources carry no response (idempotent). The SDK looks `debug` up on its log module at each call
 * (`log.debug(…)`), so replacing that export is enough; the engine tests of `--debug` output would
 * show the secrets again if a version of the SDK stopped doing so.
 */
export function redactRegistrationResponses(): void {
  const log = sdkLog as unknown as { debug: Debug & { redacting?: true } };
  if (log.debug.redacting) return;
  const debug = log.debug;
  const redacting = Object.assign((msg: string, ...rest: unknown[]): Promise<void> => debug(typeof msg === "string" ? withoutOurResponses(msg) : msg, ...rest), {
    redacting: true as const,
    quiet: (debug as { quiet?: true }).quiet,
  });
  try {
    log.debug = redacting;
  } catch {
    // An SDK whose log module cannot be changed: nothing else to do here (the engine test fails).
  }
}
