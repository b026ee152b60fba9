/**
 * Open a page in real headless Chromium (Debian's `chromium` package), driven by playwright-core
 * over the DevTools protocol, and record what a reader's browser would do with it.
 *
 * Faithful to: the browser engine people open an artifact in (layout, SVG, CSP enforcement,
 * console errors, every request the page makes, including blocked ones). Leaves out: other
 * browsers, fonts a reader may have, real networking (the flags turn off the browser's own
 * background traffic so that any request seen comes from the page).
 *
 * Chromium missing is a failure with a clear message, never a silent skip: CI installs it
 * (`.ci/run`), and a test that quietly stops running cannot fail.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

/** Where Debian puts the browser; `CHROMIUM_PATH` overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Flags that work in containers and keep the browser from talking to anything on its own. */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface PageVisit {
  /** Console messages of type `error`, and uncaught page errors. */
  errors: string[];
  /** Every request the page made after the page itself (none is allowed for a self-contained page). */
  requests: string[];
  /** Evaluate in the page (after load). */
  evaluate<T>(fn: () => T): Promise<T>;
  /** Full-page PNG. */
  screenshot(path: string): Promise<void>;
  close(): Promise<void>;
}

/** Load `file` (a local HTML file) in a fresh profile and keep the page open for inspection. */
export async function openInChromium(file: string, viewport = { width: 840, height: 900 }): Promise<PageVisit> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: this test renders the page in a real browser. ` +
        `Install it (Debian: apt-get install -y chromium; CI does this in .ci/run) or set CHROMIUM_PATH.`,
    );
  }
  const profile = mkdtempSync(join(tmpdir(), "wavix-sync-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: FLAGS,
    viewport,
    offline: true,
  });
  const errors: string[] = [];
  const requests: string[] = [];
  const url = `file://${file}`;
  context.on("request", (r) => {
    if (r.url() !== url) requests.push(r.url());
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(url, { waitUntil: "load" });
  return {
    errors,
    requests,
    evaluate: (fn) => page.evaluate(fn),
    screenshot: async (path) => {
      await page.screenshot({ path, fullPage: true });
    },
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
