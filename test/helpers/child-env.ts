/**
 * The environment of a Node child process a test starts that talks to loopback servers only (the
 * CLI against the simulator, the Pulumi provider host): this process's, without
 * NODE_EXTRA_CA_CERTS. Node parses that bundle at every start, before any code runs (0.07 CPU-s a
 * start on this project's machine, where it names the system's ~150 certificates: a fifth of a
 * `plan`), and nothing on loopback over plain http needs a certificate. A test that wants it sets
 * it in the child's own variables. docs/SPEED.md, "The test suite's time".
 */
export function loopbackChildEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}
