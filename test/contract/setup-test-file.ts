/**
 * Setup file (vitest `setupFiles`): names the running test file in the environment, so a simulator
 * in this worker (or in a CLI it spawns) can say which test sent a request breaking the contract
 * (test/global-setup.ts collects them).
 */
import { beforeAll, expect } from "vitest";

beforeAll(() => {
  const file = expect.getState().testPath;
  if (file) process.env.WAVIX_SIM_TEST_FILE = file;
});
