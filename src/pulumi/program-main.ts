/**
 * Entry point of the root `Pulumi.yaml` (`main: dist/pulumi/program-main.js`): the module's
 * export — a promise the runner awaits — becomes the stack outputs (docs/CONTRACT.md part 6). The
 * resources are declared in chunks, so the engine starts on the first ones while the rest are
 * declared (`runProgramStreamed`), and the SDK's three debug messages per registration are not sent
 * to the engine (`quietRegistrationLogs`).
 *
 * This module runs only as that program, in the process Pulumi's runner starts for it, so it turns
 * off stack capture for the whole process (not only while resources are declared, as
 * `declareResources` does): `@pulumi/pulumi` also captures a stack for every promise it tracks
 * (`debuggablePromise`, in the registrations' asynchronous halves), and the runner's
 * source-map-support formats each one. Nothing here shows a stack to a user: a failure of this
 * program is reported by its message (the runner prints the message when an error has no stack).
 */
import { runProgramStreamed } from "./program";
import { quietRegistrationLogs } from "./registration-logs";
import { stopStackTraces } from "./stack-traces";

stopStackTraces();
quietRegistrationLogs();
export = runProgramStreamed();
