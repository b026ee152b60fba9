/**
 * An unset URL reads as null whether the API sends null, "" or nothing (docs/CONTRACT.md part 4), for
 * every URL the tool manages: no perpetual diff, and export never writes "".
 * Regression: a number whose unset sms_relay_url came as "" planned `~ sms_relay_url = "" → null`
 * on every run, and export wrote `sms_relay_url: ""`, which validate refuses.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SubAccount, WavixNumber } from "../../src/client/types";
import { currentSettings, diffNumber, diffSubAccount, NUMBER_URL_FIELDS, urlOrNull } from "../../src/resources";

const unset = fc.constantFrom<string | null | undefined>(null, "", undefined, " ");
const url = fc.webUrl();

function number(fields: Partial<WavixNumber>): WavixNumber {
  return {
    id: 1,
    number: "15551230002",
    sms_enabled: true,
    call_recording_enabled: false,
    transcription_enabled: false,
    transcription_threshold: 0,
    destination: [],
    ...fields,
  } as WavixNumber;
}

describe("an unset URL reads as null", () => {
  it("numbers: no diff against a desired null, a diff against a URL, never \"\" read", () => {
    fc.assert(
      fc.property(unset, unset, url, (relay, status, want) => {
        const n = number({ sms_relay_url: relay as string | null, ...(status === undefined ? {} : { call_status_url: status }) });
        const read = currentSettings(n);
        for (const f of NUMBER_URL_FIELDS) expect(read[f]).toBeNull();
        expect(diffNumber({ sms_relay_url: null, call_status_url: null }, n)).toEqual([]);
        expect(diffNumber({ sms_relay_url: want }, n)).toEqual([{ path: "sms_relay_url", before: null, after: want }]);
      }),
    );
  });

  it("a URL that is set reads as itself", () => {
    fc.assert(
      fc.property(url, (u) => {
        expect(urlOrNull(u)).toBe(u);
      }),
    );
  });

  it("sub-accounts: an endpoint sent as \"\" or null or not at all is unset", () => {
    fc.assert(
      fc.property(unset, unset, (sms, dlr) => {
        const dd: Record<string, unknown> = {};
        if (sms !== undefined) dd.sms_endpoint = sms;
        if (dlr !== undefined) dd.dlr_endpoint = dlr;
        const sub = { id: 1, name: "A", status: "enabled", default_destinations: dd } as unknown as SubAccount;
        expect(diffSubAccount({ name: "A", sms_endpoint: "https://x.example/s" }, sub)).toEqual([
          { path: "default_destinations.sms_endpoint", before: null, after: "https://x.example/s" },
        ]);
      }),
    );
  });
});
