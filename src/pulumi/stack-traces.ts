/**
 * Stack capture, off where a stack says nothing.
 *
 * `@pulumi/pulumi` captures the whole stack of every resource it registers (`Resource.callsites`
 * in its resource.ts sets `Error.stackTraceLimit` to Infinity, creates an Error and parses its
 * text) and sends it to the engine, which stores it in the checkpoint (`sourcePosition`,
 * `stackTrace`: about 800 bytes a resource, machine paths included); it also captures one for every
 * promise it tracks (`debuggablePromise`), and the runner's source-map-support formats each. For
 * thousands of resources declared from a file that was most of a no-change `up`'s CPU, and those
 * frames say nothing. V8 captures a stack only while `Error.stackTraceLimit` is a number data
 * property: as an accessor that ignores assignments, no Error gets a stack.
 */

const SAVED = Object.getOwnPropertyDescriptor(Error, "stackTraceLimit");
const OFF: PropertyDescriptor = { configurable: true, enumerable: SAVED?.enumerable ?? true, get: () => undefined, set: () => undefined };

/** Runs `fn` with no stack captured by any Error created meanwhile; the property is put back after. */
export function withoutStackTraces<T>(fn: () => T): T {
  const saved = Object.getOwnPropertyDescriptor(Error, "stackTraceLimit");
  if (!saved || !saved.configurable || saved.get === OFF.get) return fn();
  Object.defineProperty(Error, "stackTraceLimit", OFF);
  try {
    return fn();
  } finally {
    Object.defineProperty(Error, "stackTraceLimit", saved);
  }
}

/** No stack captured for the rest of this process (the root program's own process only). */
export function stopStackTraces(): void {
  const saved = Object.getOwnPropertyDescriptor(Error, "stackTraceLimit");
  if (saved?.configurable) Object.defineProperty(Error, "stackTraceLimit", OFF);
}
