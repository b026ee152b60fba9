/**
 * The 10DLC Campaign number kind's public face: what another kind may use (docs/ARCHITECTURE.md,
 * "The four floors"): the Sender ID kind keeps the numeric Sender IDs of numbers linked to a
 * Campaign. It never imports the kind's index.
 */
export { accountLinkedNumbers } from "./handler";
