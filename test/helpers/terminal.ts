/**
 * Drive the compiled CLI under a pseudo-terminal, as a person at a terminal would (issue #14):
 * a thin Node wrapper over `pty-driver.py` (python3's standard `pty` module, present on any
 * machine with python3; nothing to install). See that file's header for what it is faithful to
 * and what it leaves out. Asynchronous, so a simulator in the test's own process keeps answering.
 */
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { BIN, ROOT } from "./cli";

const DRIVER = join(__dirname, "pty-driver.py");

/** Why terminal tests cannot run here, or undefined when they can. */
export function terminalUnavailable(): string | undefined {
  if (process.platform === "win32") return "pseudo-terminals need a POSIX system";
  const probe = spawnSync("python3", ["-c", "import pty, termios"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) return "python3 with the pty module is not installed";
  return undefined;
}

export interface TerminalKey {
  /** Regular expression (Python syntax) the screen must show before the key is sent. */
  when: string;
  /** What to type: "\u0003" is Ctrl-C. */
  send: string;
}

export interface TerminalRun {
  /** Exit code, or 128 + signal number. */
  status: number;
  /** Every byte drawn, escape sequences included. */
  transcript: string;
  /** How many of the keys were sent. */
  sent: number;
}

/** Runs `wavix-sync ...args` on a terminal 100 columns wide with `env` (plus PATH and TERM). */
export function runOnTerminal(args: string[], env: Record<string, string>, keys: TerminalKey[] = [], limitS = 60): Promise<TerminalRun> {
  const spec = {
    argv: [process.execPath, BIN, ...args],
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", TERM: "xterm-256color", HOME: process.env.HOME ?? "/tmp", ...env },
    cwd: ROOT,
    cols: 100,
    rows: 30,
    keys,
    limit_s: limitS,
  };
  return new Promise((resolve, reject) => {
    const child = spawn("python3", [DRIVER, JSON.stringify(spec)], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", () => {
      try {
        resolve(JSON.parse(out) as TerminalRun);
      } catch {
        reject(new Error(`pty driver failed: ${err || out}`));
      }
    });
  });
}

/** The transcript without escape sequences and carriage-return redraws: roughly what stays on screen. */
export function plainText(transcript: string): string {
  return transcript.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").replace(/\r(?!\n)/g, "\n");
}
