/**
 * The number kind's public face: what another kind may use (docs/ARCHITECTURE.md, "The four
 * floors"). It never imports the kind's index, so a kind the number kind itself imports (the SIP
 * trunk kind reads the account's numbers) can import this without a cycle.
 */
export { listAllNumbers, numberNotOwnedMessage } from "./handler";
export type { DesiredNumber, DesiredDestination, NumberPart } from "./types";
export type { CanonicalDestination } from "./destinations";
