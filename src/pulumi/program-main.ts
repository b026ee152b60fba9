/**
 * Entry point of the root `Pulumi.yaml` (`main: dist/pulumi/program-main.js`): the module's
 * exports become the stack outputs (docs/CONTRACT.md part 6).
 */
import { runProgram } from "./program";

export = runProgram();
