/**
 * A failed run ends with its error: no retry notice of another request may follow it, and the CLI
 * does not linger for requests nothing awaits. Regression: with a listing refused while another
 * request was in its retry wait, "Error: …" came amid further "Retrying … (attempt 5 of 5)" lines and
 * the process stayed until the last retry gave up.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHttpTestServer, type HttpTestServer } from "../helpers/http-test-server";
import { runCli, scratch, writeYaml } from "../helpers/cli";

let server: HttpTestServer;
beforeEach(async () => {
  server = await createHttpTestServer();
});
afterEach(async () => {
  await server.close();
});

const FILE = `version: 1
sub_accounts:
  - name: Acme Support
numbers:
  - number: "15551230001"
    sms_enabled: true
call_webhooks:
  on-call: https://hooks.acme.example/on-call
`;

describe("retry notices and the final error", () => {
  it("no retry notice after the error, and the run ends when its error is printed", async () => {
    // The sub-account listing is refused (not retried: the run's final error, after 0.5 s); the
    // numbers listing and the webhooks keep answering 503 with Retry-After: 2, so each retry prints
    // a notice and would go on for several seconds.
    server.handle((req, res) => {
      if (req.url.startsWith("/v1/sub-organizations")) {
        setTimeout(() => {
          res.writeHead(400, { "content-type": "application/json" });
          res.end(JSON.stringify({ success: false, message: "refused on purpose" }));
        }, 500);
        return;
      }
      res.writeHead(503, { "content-type": "application/json", "retry-after": "2" });
      res.end(JSON.stringify({ success: false, message: "busy" }));
    });
    const file = writeYaml(scratch(), "wavix.yaml", FILE);
    const started = Date.now();
    const r = await runCli(["plan", "-f", file], { WAVIX_API_KEY: "retry-notice-key", WAVIX_BASE_URL: server.url, WAVIX_TIMEOUT: "30" });
    const took = Date.now() - started;
    expect(r.code).toBe(1);
    const lines = r.stderr.split("\n").filter(Boolean);
    const error = lines.findIndex((l) => l.startsWith("Error:"));
    expect(error, r.stderr).toBeGreaterThanOrEqual(0);
    expect(lines[error]).toContain("refused on purpose");
    // Notices came before it (the other requests were retrying), none after.
    expect(lines.slice(0, error).some((l) => l.startsWith("Retrying "))).toBe(true);
    expect(lines.slice(error + 1), r.stderr).toEqual([]);
    // The stragglers would retry with 2 s waits for about 8 s more; the run ends with its error.
    expect(took).toBeLessThan(5_000);
  });
});
