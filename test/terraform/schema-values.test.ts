/**
 * The Terraform face's pure parts: the schema generated from the kinds (src/terraform/schema.ts) and
 * the MessagePack values with unknowns (src/terraform/values.ts), against the wire format's facts
 * (OpenTofu docs/plugin-protocol/object-wire-format.md: any extension code is an unknown value).
 */
import { encode } from "@msgpack/msgpack";
import { describe, expect, it } from "vitest";
import { ExtData } from "@msgpack/msgpack";
import { dataSources, providerBlock, resources } from "../../src/terraform/schema";
import { fromKind, toKind } from "../../src/terraform/convert";
import { decodeValue, encodeObject, UNKNOWN_VALUE } from "../../src/terraform/values";
import { UNKNOWN } from "../../src/kit/provider/props";

describe("the Terraform schema, from the kinds", () => {
  const r = resources();
  const attr = (type: string, name: string) => r.get(type)!.block.attributes.find((a) => a.name === name)!;

  it("has one resource per kind and the two data sources, names snake_case", () => {
    expect([...r.keys()].sort()).toEqual([
      "wavix_account_callbacks", "wavix_call_webhook", "wavix_phone_number", "wavix_sender_id", "wavix_sip_trunk", "wavix_sub_account", "wavix_ten_dlc_campaign_number",
    ]);
    expect([...dataSources().keys()].sort()).toEqual(["wavix_brand_vettings", "wavix_two_fa_events"]);
    for (const res of r.values()) for (const a of res.block.attributes) expect(a.name).toMatch(/^[a-z][a-z0-9_]*$/);
  });

  it("marks secrets sensitive, identities required, outputs computed, omitted settings left as they are", () => {
    expect(attr("wavix_sub_account", "api_key")).toMatchObject({ computed: true, sensitive: true });
    expect(attr("wavix_sip_trunk", "password")).toMatchObject({ optional: true, sensitive: true });
    expect(attr("wavix_sip_trunk", "access_token")).toMatchObject({ computed: true, sensitive: true });
    expect(attr("wavix_phone_number", "number")).toMatchObject({ required: true });
    expect(attr("wavix_phone_number", "sms_enabled")).toMatchObject({ optional: true, computed: true });
    expect(attr("wavix_sub_account", "sub_account_id")).toMatchObject({ optional: true, computed: true, decidedByCreate: true });
    expect(providerBlock().attributes.map((a) => `${a.name}${a.sensitive ? "(sensitive)" : ""}`)).toEqual(["api_key(sensitive)", "base_url", "account_id", "max_destructive", "force"]);
  });

  it("takes the kinds' sets as sets and a destination's transport as its name", () => {
    expect(attr("wavix_phone_number", "destinations").nested?.nesting).toBe("set");
    expect(attr("wavix_sender_id", "countries").type).toEqual(["set", "string"]);
    expect(attr("wavix_sip_trunk", "allowed_ips").type).toEqual(["set", "string"]);
    const dest = attr("wavix_phone_number", "destinations");
    const out = fromKind({ destinations: [{ destination: "x", transport: 1, priority: 1 }] }, [dest]);
    expect(out.destinations).toEqual([{ destination: "x", transport: "sip", priority: 1, trunk_id: null }]);
  });

  it("turns a configuration into the kind's props: null is not managed, \"\" clears a URL, unknown is the kit's", () => {
    const attrs = r.get("wavix_phone_number")!.block.attributes;
    const props = toKind({ number: "15551230001", sms_enabled: null, sms_relay_url: "", call_status_url: UNKNOWN_VALUE, id: null }, attrs);
    expect(props).toEqual({ number: "15551230001", smsRelayUrl: null, callStatusUrl: UNKNOWN });
  });
});

describe("MessagePack values", () => {
  const block = { version: 0, description: "", attributes: [
    { name: "a", prop: "a", type: "string" as const, description: "", input: true },
    { name: "b", prop: "b", type: "number" as const, description: "", input: true },
    { name: "c", prop: "c", type: ["list", "string"] as const, description: "", input: true },
  ] };

  it("encodes every attribute, unknowns as extension 0, and decodes them back", () => {
    const e = encodeObject({ a: "x", b: UNKNOWN_VALUE, c: ["q", UNKNOWN_VALUE] }, block);
    expect(decodeValue(e)).toEqual({ a: "x", b: UNKNOWN_VALUE, c: ["q", UNKNOWN_VALUE] });
    expect(Buffer.from(e.msgpack).includes(Buffer.from([0xd4, 0x00]))).toBe(true);
    expect(decodeValue(encodeObject({ a: "x" }, block))).toEqual({ a: "x", b: null, c: null });
  });

  it("takes any extension code as unknown (a refined unknown is code 12)", () => {
    const refined = encode({ a: new ExtData(12, new Uint8Array([0x81, 0x01, 0xc3])), b: new ExtData(5, new Uint8Array([0])) });
    expect(decodeValue({ msgpack: refined })).toEqual({ a: UNKNOWN_VALUE, b: UNKNOWN_VALUE });
  });
});
