/**
 * The corpus of bad (and hostile) files: each fixture under fixtures/bad/ must produce exactly
 * these `FILE:LINE:COL: message (at path)` lines (docs/CONTRACT.md part 3), sorted by position. Files are
 * loaded from disk as bytes, as the CLI does, so encodings, control bytes and sizes are exercised.
 * The fixtures are loaded with a stand-in API key, `KEY`, that must never appear in a value.
 */
import { mkdtempSync, readdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatProblem, loadDesiredState, MAX_CONFIG_BYTES, parseDesiredState } from "../../src/config";

const KEY = "sk_test_hostile_corpus_key_0001";

const DIR = join(__dirname, "fixtures", "bad");
const SECRET =
  "secrets do not belong in this file: the API key comes from the WAVIX_API_KEY environment variable " +
  "or Pulumi secret config (`pulumi config set --secret wavix:apiKey`), sub-account keys are read from the API, " +
  "and a SIP trunk's password is named by `password_env: VARIABLE` (the environment variable that holds it)";

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
    'duplicate-sub-account.yaml:6:11: duplicate sub-account name "Acme Support": first declared at line 3 (sub_accounts[0]); ' +
      "give each its own id: to declare two sub-accounts of one name (at sub_accounts[2].name)",
  ],
  "empty.yaml": ['empty.yaml:1:1: the file is empty: expected a mapping starting with "version: 1"'],
  "many-problems.yaml": [
    'many-problems.yaml:4:13: unknown status "on": expected enabled or disabled (at sub_accounts[0].status)',
    'many-problems.yaml:7:18: expected a boolean, got the string "yes" (at numbers[0].sms_enabled)',
    'many-problems.yaml:8:22: expected an http(s) URL or null, got the string "not a url" (at numbers[0].call_status_url)',
    'many-problems.yaml:10:53: unknown transport "sipp": expected sip, pstn, trunk, 1, 4 or 5 (at numbers[0].destinations[0].transport)',
    'many-problems.yaml:11:13: duplicate number "15551230001": first declared at line 6 (numbers[0]) (at numbers[1].number)',
    'many-problems.yaml:12:5: unknown key "transcription" (expected number, sub_account, sms_enabled, sms_relay_url, call_status_url, ' +
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
  // The key is named, and the other checks still run (issue #22).
  "syntax-duplicate-key.yaml": [
    'syntax-duplicate-key.yaml:3:1: duplicate key "numbers": first at line 2; a key may appear once in a mapping (YAML would silently keep only the last) (at numbers)',
    'syntax-duplicate-key.yaml:4:13: invalid number "1555123000x": expected digits, with an optional leading "+" (at numbers[0].number)',
  ],
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
  "two-fa-services.yaml": [
    "two-fa-services.yaml:6:15: from without to: give the service's window with both, or neither (then the run gives it: wavix-sync audit --last 30d, or --from DATE --to DATE) (at audit.two_fa.services[0].from)",
    "two-fa-services.yaml:7:28: max_failure_ratio must be at most 1, got 1.2 (at audit.two_fa.services[0].max_failure_ratio)",
    'two-fa-services.yaml:8:21: duplicate service "7204a030201211ee9fb47d093f2f127c": first declared at line 5 (audit.two_fa.services[0]) (at audit.two_fa.services[1].service_id)',
    "two-fa-services.yaml:9:13: to without from: give the service's window with both, or neither (then the run gives it: wavix-sync audit --last 30d, or --from DATE --to DATE) (at audit.two_fa.services[1].to)",
  ],
  "two-fa-window.yaml": [
    'two-fa-window.yaml:6:63: invalid date "2026-13-01": expected YYYY-MM-DD (at audit.two_fa.services[0].from)',
    "two-fa-window.yaml:7:81: the window ends (2026-11-01) before it starts (2026-11-21) (at audit.two_fa.services[1].to)",
    "two-fa-window.yaml:8:24: max_failure_ratio must be at most 1, got 1.5 (at audit.two_fa.max_failure_ratio)",
  ],
  "unknown-key-far.yaml": [
    'unknown-key-far.yaml:2:1: unknown key "colour" (expected version, account_id, sub_accounts, sip_trunks, numbers, call_webhooks, sender_ids, ten_dlc_campaign_numbers, account_callbacks, safety or audit) (at colour)',
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

  // Hostile files (issue #14): encodings, control bytes, aliases, duplicates hidden by sets,
  // padded names, secrets inside values, and values too long to echo.
  "alias-bomb.yaml": [
    "alias-bomb.yaml:3:8: YAML: the aliases expand to more than 5,000,000 values (an alias bomb?); write the repeated parts out or use fewer nested aliases",
  ],
  "alias-self.yaml": ["alias-self.yaml:4:19: YAML: an alias refers to a node that contains it, so the file never ends"],
  "alias-undefined.yaml": [
    "alias-undefined.yaml:4:19: YAML: unresolved alias (the anchor must be set before the alias): nowhere",
  ],
  "api-key-in-url.yaml": [
    "api-key-in-url.yaml:4:22: this value contains the API key (WAVIX_API_KEY); secrets do not belong in this file, not even inside a URL: remove it (the value is not shown here) (at numbers[0].call_status_url)",
  ],
  "custom-tag.yaml": [
    "custom-tag.yaml:3:11: YAML: unresolved tag: !ruby/object:Gem::Installer",
  ],
  "deep-nesting.yaml": [
    "deep-nesting.yaml:2:*: YAML: the file nests lists or mappings too deeply to read",
  ],
  "duplicate-brand.yaml": [
    "duplicate-brand.yaml:4:31: duplicate brand \"B6AI7PA\": first declared at line 4 (audit.ten_dlc.brands[0]) (at audit.ten_dlc.brands[2])",
  ],
  "duplicate-destination.yaml": [
    "duplicate-destination.yaml:7:9: duplicate destination \"sip.acme.example\": first declared at line 5 (numbers[0].destinations[0]) (at numbers[0].destinations[2])",
  ],
  "duplicate-name-one-pinned.yaml": [
    "duplicate-name-one-pinned.yaml:5:11: duplicate sub-account name \"Acme Support\": first declared at line 3 (sub_accounts[0]); give each its own id: to declare two sub-accounts of one name (at sub_accounts[1].name)",
  ],
  "duplicate-session.yaml": [
    "duplicate-session.yaml:6:9: duplicate session \"8753d4308f2e11ecb75fcdafd6d2d690\": first declared at line 5 (audit.two_fa.sessions[0]) (at audit.two_fa.sessions[1])",
  ],
  "latin1-name.yaml": [
    "latin1-name.yaml:3:15: the file is not valid UTF-8: byte 0xE9 here is not part of a UTF-8 character (is it Latin-1 or Windows-1252? save the file as UTF-8)",
  ],
  "long-value.yaml": [
    "long-value.yaml:4:13: unknown status \"enabled but only on weekdays and never d…\": expected enabled or disabled (at sub_accounts[0].status)",
  ],
  "merge-key-typo.yaml": [
    "merge-key-typo.yaml:4:3: unknown key \"call_recording_enabeld\": did you mean \"call_recording_enabled\"? (at numbers[0].call_recording_enabeld)",
  ],
  "nul-byte.yaml": [
    "nul-byte.yaml:3:16: the file holds a control character (U+0000) here; a YAML file is text: remove it, or write it as an escape inside double quotes",
  ],
  "number-trailing-space.yaml": [
    "number-trailing-space.yaml:3:13: invalid number \"15551230001 \": expected digits, with an optional leading \"+\" (at numbers[0].number)",
  ],
  "overlong-utf8.yaml": [
    "overlong-utf8.yaml:4:38: the file is not valid UTF-8: byte 0xC0 here is not part of a UTF-8 character (is it Latin-1 or Windows-1252? save the file as UTF-8)",
  ],
  "padded-name.yaml": [
    "padded-name.yaml:3:11: sub-account name \"Acme Support \" has leading or trailing spaces; remove them (it is matched exactly) (at sub_accounts[0].name)",
    "padded-name.yaml:4:11: sub-account name \" Acme Billing\" has leading or trailing spaces; remove them (it is matched exactly) (at sub_accounts[1].name)",
  ],
  // Names the API cannot keep as written (issue #22): it stores NFC and at most 255 characters, so
  // such a name would never match by name again and be created anew on every run.
  "sub-account-name-api-cannot-keep.yaml": [
    'sub-account-name-api-cannot-keep.yaml:3:11: sub-account name "Cafe\u0301 Team" is not in Unicode NFC form (U+0065 U+0301 where NFC has U+00E9): the API stores names in NFC, so it would never match by name again; write it in NFC (at sub_accounts[0].name)',
    "sub-account-name-api-cannot-keep.yaml:4:11: sub-account name is 261 characters long: the API keeps at most 255 (at sub_accounts[1].name)",
  ],
  "tab-indent.yaml": [
    "tab-indent.yaml:3:1: YAML: tabs are not allowed as indentation",
  ],
  "token-in-wrong-field.yaml": [
    "token-in-wrong-field.yaml:4:18: expected a boolean, got the string \"sk_liv…\" (32 characters) (at numbers[0].sms_enabled)",
  ],
  "truncated-utf8.yaml": [
    "truncated-utf8.yaml:4:18: the file is not valid UTF-8: byte 0xE2 here is not part of a UTF-8 character (is it Latin-1 or Windows-1252? save the file as UTF-8)",
  ],
  "url-with-space.yaml": [
    "url-with-space.yaml:3:12: expected an http(s) URL, got the string \"https://münchen .example/hook\" (at call_webhooks.on-call)",
  ],
  "utf16-bom.yaml": [
    "utf16-bom.yaml:1:1: the file is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8",
  ],
};

describe("bad files", () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith(".yaml")).sort();

  it("has an expectation for every fixture, and a fixture for every expectation (at least 25)", () => {
    expect(files).toEqual(Object.keys(EXPECTED).sort());
    expect(files.length).toBeGreaterThanOrEqual(25);
  });

  it("has at least 40 hostile or bad files, each with its expected first error line", () => {
    expect(files.length).toBeGreaterThanOrEqual(40);
    for (const f of files) expect(EXPECTED[f][0]).toMatch(new RegExp(`^${f.replace(/\./g, "\\.")}:\\d+:(\\d+|\\*): `));
  });

  for (const file of Object.keys(EXPECTED).sort()) {
    it(`${file} reports exactly its problems`, () => {
      const result = loadDesiredState(join(DIR, file), { secretValues: [KEY] });
      expect(result.ok).toBe(false);
      const lines = result.ok ? [] : result.problems.map(formatProblem).map((l) => l.replace(`${DIR}/`, ""));
      // `*` for a column that depends on the JavaScript stack (where parsing ran out of it).
      const seen = lines.map((l, i) => (EXPECTED[file][i]?.includes(":*:") ? l.replace(/:(\d+): /, ":*: ") : l));
      expect(seen).toEqual(EXPECTED[file]);
    });
  }

  it("never echoes the API key found inside a value, nor a token pasted in the wrong field", () => {
    const all = files
      .map((f) => {
        const r = loadDesiredState(join(DIR, f), { secretValues: [KEY] });
        return r.ok ? "" : r.problems.map(formatProblem).join("\n");
      })
      .join("\n");
    expect(all).not.toContain(KEY);
    expect(all).not.toContain("sk_live_4eC39HqLyjWDarjtT1zdp7dc");
    expect(all).not.toContain("sk_live_4e");
  });

  it("without the key to compare, a URL holding it is an ordinary URL (validate offline still works)", () => {
    const r = loadDesiredState(join(DIR, "api-key-in-url.yaml"));
    expect(r.ok).toBe(true);
  });

  it("refuses a file over the size cap in one line, without reading it", () => {
    const dir = mkdtempSync(join(tmpdir(), "wavix-big-"));
    const file = join(dir, "huge.yaml");
    writeFileSync(file, "version: 1\n");
    truncateSync(file, 300 * 1024 * 1024); // sparse: no disk space, and a read would take seconds
    const r = loadDesiredState(file);
    expect(r.ok ? [] : r.problems.map(formatProblem)).toEqual([
      `${file}: the file is 300 MiB, more than the 16 MiB a desired-state file may be`,
    ]);
    truncateSync(file, MAX_CONFIG_BYTES); // exactly at the cap: read, then judged as YAML
    const atCap = loadDesiredState(file);
    expect(atCap.ok ? [] : atCap.problems.map(formatProblem)[0]).toMatch(/control character \(U\+0000\)/);
  });

  it("never quotes the value of a secret-looking key", () => {
    for (const file of ["api-key-in-sub-account.yaml", "secrets-anywhere.yaml"]) {
      const result = parseDesiredState(readFileSync(join(DIR, file), "utf8"), file);
      const text = result.ok ? "" : result.problems.map(formatProblem).join("\n");
      expect(text).not.toContain("sk-live");
      expect(text).not.toContain("hunter2");
    }
  });
});
