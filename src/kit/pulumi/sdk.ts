/**
 * The values of `@pulumi/pulumi` the program side uses, from the SDK's own modules rather than its
 * index. Its index also loads the Automation API and closure serialization (which load
 * TypeScript): in the Pulumi runner, `require("@pulumi/pulumi")` cost 0.55–0.65 s before the first
 * resource could be declared, where these modules — already loaded by the runner itself — cost
 * about 1 ms (test/pulumi/program-load.test.ts keeps it so). They are the very files the index
 * re-exports, so one module instance and one runtime state either way. Types still come from
 * `import type * as pulumi from "@pulumi/pulumi"`, which loads nothing.
 */
export { CustomResource } from "@pulumi/pulumi/resource";
export { all, output, secret } from "@pulumi/pulumi/output";
export { Config } from "@pulumi/pulumi/config";
export { warn } from "@pulumi/pulumi/log";
export { getConfig } from "@pulumi/pulumi/runtime/config";
export { getRootDirectory } from "@pulumi/pulumi/runtime/settings";
/**
 * The error the runner prints as its message alone (`@pulumi/pulumi/cmd/run`: "Always hide the
 * stack for RunErrors"; recognised by a marker, so a program with its own copy of the SDK works).
 * Every error a program of ours throws for the user to fix is one: printed once, no stack trace.
 */
export { RunError } from "@pulumi/pulumi/errors";
