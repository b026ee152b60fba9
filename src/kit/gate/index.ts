/** The write gate (src/kit/gate/gate.ts): the one way to a write of the Wavix client. */
export * from "./gate";
export * from "./account";
export * from "./blast";
