/**
 * The corpus of bad files: each fixture under fixtures/bad/ must produce exactly these
 * `FILE:LINE:COL: message (at path)` lines (PRODUCT.md part 3), sorted by position.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatProblem, parseDesiredState } from "../../src/config";

const DIR = join(__dirname, "fixtures", "bad");
const SECRET =
  "secrets do not belong in this file: the API key comes from the WAVIX_API_KEY environment variable " +
  "or Pulumi secret config (`pulumi config set --secret wavix:apiKey`), and sub-account keys are read from the API";

const EXPECTED: Record<string, string[]> = {
  "api-key-in-sub-account.yaml": [`api-key-in-sub-account.yaml:4:5: "api_key": ${SECRET} (at sub_accounts[0].api_key)`],
  "brands-bad-item.yaml": ['brands-bad-item.yaml:4:23: expected a string, got the number 42 (quote it: "42") (at audit.ten_dlc.brands[1])'],
  "brands-bad-string.yaml": [
    'brands-bad-string.yaml:4:13: expected a list of brand IDs or "all", got the string "some" (at audit.ten_dlc.brands)',
    "brands-bad-string.yaml:5:24: min_vetting_score must be at most 100, got 101 (at audit.ten_dlc.min_vetting_score)",
  ],
  "camel-case-key.yaml": ['camel-case-key.yaml:4:5: unknown key "smsEnabled": did you mean "sms_enabled"? (at numbers[0].smsEnabled)'],
  "destination-missing-priority.yaml": [
    'destination-missing-priority.yaml:5:9: missing required key "priority" (at numbers[0].destinations[0])',
  ],
  "duplicate-number.yaml": [
    'duplicate-number.yaml:5:13: duplicate number "15551230001": first declared at line 3 (numbers[0]) (at numbers[1].number)',
  ],
  "duplicate-sub-account-id.yaml": [
    "duplicate-sub-account-id.yaml:6:9: duplicate sub-account id 2001: first declared at line 3 (sub_accounts[0]) (at sub_accounts[1].id)",
  ],
  "duplicate-sub-account.yaml": [
    'duplicate-sub-account.yaml:6:11: duplicate sub-account name "Acme Support": first declared at line 3 (sub_accounts[0]) (at sub_accounts[2].name)',
  ],
  "empty.yaml": ['empty.yaml:1:1: the file is empty: expected a mapping starting with "version: 1"'],
  "many-problems.yaml": [
    'many-problems.yaml:4:13: unknown status "on": expected enabled or disabled (at sub_accounts[0].status)',
    'many-problems.yaml:7:18: expected a boolean, got the string "yes" (at numbers[0].sms_enabled)',
    'many-problems.yaml:8:22: expected an http(s) URL or null, got the string "not a url" (at numbers[0].call_status_url)',
    'many-problems.yaml:10:53: unknown transport "sipp": expected sip, pstn, trunk, 1, 4 or 5 (at numbers[0].destinations[0].transport)',
    'many-problems.yaml:11:13: duplicate number "15551230001": first declared at line 6 (numbers[0]) (at numbers[1].number)',
    'many-problems.yaml:12:5: unknown key "transcription" (expected number, sms_enabled, sms_relay_url, call_status_url, ' +
      "call_recording_enabled, transcription_enabled, transcription_threshold, destinations or on_delete) (at numbers[1].transcription)",
  ],
  "missing-number.yaml": ['missing-number.yaml:3:5: missing required key "number" (at numbers[0])'],
  "multiple-documents.yaml": ["multiple-documents.yaml:2:1: YAML: the file holds more than one YAML document (---); keep everything in one"],
  "null-list.yaml": ["null-list.yaml:2:1: expected a list, got null (at sub_accounts)"],
  "number-not-digits.yaml": [
    'number-not-digits.yaml:3:13: invalid number "555-1234": expected digits, with an optional leading "+" (at numbers[0].number)',
  ],
  "number-unquoted.yaml": [
    'number-unquoted.yaml:3:13: expected a string, got the number 15551230001 (quote it: "+15551230001") (at numbers[0].number)',
  ],
  "on-delete-enum.yaml": ['on-delete-enum.yaml:4:16: unknown on_delete "destroy": expected retain or release (at numbers[0].on_delete)'],
  "secrets-anywhere.yaml": [
    `secrets-anywhere.yaml:2:1: "apiKey": ${SECRET} (at apiKey)`,
    `secrets-anywhere.yaml:5:5: "client-secret": ${SECRET} (at audit.two_fa.client-secret)`,
  ],
  "status-enum.yaml": ['status-enum.yaml:4:13: unknown status "active": expected enabled or disabled (at sub_accounts[0].status)'],
  "sub-account-default-destinations.yaml": [
    "sub-account-default-destinations.yaml:3:11: name must not be empty (at sub_accounts[0].name)",
    "sub-account-default-destinations.yaml:5:21: expected an http(s) URL, got null (at sub_accounts[0].default_destinations.sms_endpoint)",
    'sub-account-default-destinations.yaml:6:7: unknown key "dlr" (expected sms_endpoint or dlr_endpoint) (at sub_accounts[0].default_destinations.dlr)',
  ],
  "syntax-duplicate-key.yaml": ["syntax-duplicate-key.yaml:3:1: YAML: map keys must be unique"],
  "syntax-unclosed-flow.yaml": [
    "syntax-unclosed-flow.yaml:4:1: YAML: flow map in block collection must be sufficiently indented and end with a }",
  ],
  "top-level-list.yaml": ['top-level-list.yaml:1:1: expected a mapping with "version: 1" at the top of the file, got a list'],
  "transcription-threshold.yaml": [
    'transcription-threshold.yaml:4:30: expected an integer, got the string "30s" (at numbers[0].transcription_threshold)',
    "transcription-threshold.yaml:6:30: transcription_threshold must be at least 0, got -1 (at numbers[1].transcription_threshold)",
  ],
  "trunk-id-with-sip.yaml": [
    "trunk-id-with-sip.yaml:5:71: trunk_id is only allowed with transport trunk, not sip (at numbers[0].destinations[0].trunk_id)",
  ],
  "trunk-without-trunk-id.yaml": [
    "trunk-without-trunk-id.yaml:5:9: transport trunk requires trunk_id (the SIP trunk's ID) (at numbers[0].destinations[0])",
  ],
  "two-fa-window.yaml": [
    'two-fa-window.yaml:6:63: invalid date "2026-13-01": expected YYYY-MM-DD (at audit.two_fa.services[0].from)',
    "two-fa-window.yaml:7:81: the window ends (2026-11-01) before it starts (2026-11-21) (at audit.two_fa.services[1].to)",
    "two-fa-window.yaml:8:24: max_failure_ratio must be at most 1, got 1.5 (at audit.two_fa.max_failure_ratio)",
  ],
  "unknown-key-far.yaml": [
    'unknown-key-far.yaml:2:1: unknown key "colour" (expected version, sub_accounts, numbers, call_webhooks or audit) (at colour)',
  ],
  "unknown-key-typo.yaml": ['unknown-key-typo.yaml:4:5: unknown key "sms_enabeld": did you mean "sms_enabled"? (at numbers[0].sms_enabeld)'],
  "unknown-transport.yaml": [
    'unknown-transport.yaml:5:53: unknown transport "sipp": expected sip, pstn, trunk, 1, 4 or 5 (at numbers[0].destinations[0].transport)',
  ],
  "url-bad-scheme.yaml": [
    'url-bad-scheme.yaml:4:20: expected an http(s) URL or null, got the string "ftp://files.acme.example/sms" (at numbers[0].sms_relay_url)',
  ],
  "url-no-host.yaml": ['url-no-host.yaml:3:12: expected an http(s) URL, got the string "https://" (at call_webhooks.on-call)'],
  "version-missing.yaml": ['version-missing.yaml:2:1: missing required key "version" (add "version: 1")'],
  "version-wrong.yaml": ["version-wrong.yaml:1:10: unsupported version 2: expected 1 (at version)"],
  "webhook-key-typo.yaml": [
    'webhook-key-typo.yaml:3:3: unknown key "on_call": did you mean "on-call"? (at call_webhooks.on_call)',
    "webhook-key-typo.yaml:4:14: expected an http(s) URL, got null (at call_webhooks.post-call)",
  ],
  "wrong-type-boolean.yaml": ['wrong-type-boolean.yaml:4:18: expected a boolean, got the string "yes" (at numbers[0].sms_enabled)'],
};

describe("bad files", () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith(".yaml")).sort();

  it("has an expectation for every fixture, and a fixture for every expectation (at least 25)", () => {
    expect(files).toEqual(Object.keys(EXPECTED).sort());
    expect(files.length).toBeGreaterThanOrEqual(25);
  });

  for (const file of Object.keys(EXPECTED).sort()) {
    it(`${file} reports exactly its problems`, () => {
      const result = parseDesiredState(readFileSync(join(DIR, file), "utf8"), file);
      expect(result.ok).toBe(false);
      const lines = result.ok ? [] : result.problems.map(formatProblem);
      expect(lines).toEqual(EXPECTED[file]);
    });
  }

  it("never quotes the value of a secret-looking key", () => {
    for (const file of ["api-key-in-sub-account.yaml", "secrets-anywhere.yaml"]) {
      const result = parseDesiredState(readFileSync(join(DIR, file), "utf8"), file);
      const text = result.ok ? "" : result.problems.map(formatProblem).join("\n");
      expect(text).not.toContain("sk-live");
      expect(text).not.toContain("hunter2");
    }
  });
});
