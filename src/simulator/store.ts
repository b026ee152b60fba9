/**
 * The simulator's in-memory account. Numbers are indexed by id and by digits, and each organisation
 * keeps its number ids in ascending order so a list page is a slice (10,000 numbers serve quickly).
 */
import type {
  Call,
  CallWebhookEventType,
  DefaultDestinations,
  InboundCallDestination,
  NumberDestinationInput,
  SubAccount,
  WavixNumber,
} from "../client/types";
import { SeededRandom } from "./rng";
import { MessagingStore } from "./messaging";
import { seededTrunk, type SimTrunkRecord } from "./trunks";
import type {
  Scope,
  SimSeed,
  SimSeedBrand,
  SimSeedNumber,
  SimSeedTwoFaService,
  SimSeedTwoFaSession,
} from "./types";

/**
 * Both endpoints, as the official SubOrganizationResponse requires them (seed 2.8: `default_destinations`
 * contains `sms_endpoint` and `dlr_endpoint`); an unset one (null, "", absent) is served as `""`, the
 * only string the document leaves for "no URL" (docs/SIMULATOR.md lists it among the allowances).
 */
export function setEndpoints(dd: DefaultDestinations | undefined): { sms_endpoint: string; dlr_endpoint: string } {
  return { sms_endpoint: dd?.sms_endpoint || "", dlr_endpoint: dd?.dlr_endpoint || "" };
}

/** Every field the official TenDLCBrand requires, for a seeded brand that leaves some out (demo values). */
function brandDefaults(brandId: string): Omit<SimSeedBrand, "vettings"> {
  return {
    brand_id: brandId,
    dba_name: brandId,
    company_name: `${brandId} Inc.`,
    entity_type: "PRIVATE_PROFIT",
    vertical: "TECHNOLOGY",
    ein_taxid: "123456789",
    ein_taxid_country: "US",
    status: "VERIFIED",
    first_name: "Demo",
    last_name: "Contact",
    phone_number: "15551230001",
    email: "compliance@brand.example",
    street_address: "1 Demo Street",
    city: "Springfield",
    country: "US",
    zip: "12345",
    feedback: null,
    created_at: "2026-10-20T12:00:00",
    updated_at: "2026-10-20T12:00:00",
  };
}

/** Master organisation id when the seed names none. */
export const DEFAULT_ORGANIZATION_ID = 1000;

export interface SimNumberRecord {
  /** Owning organisation: the master id or a sub-account id. */
  organization: number;
  data: WavixNumber;
}

export interface SimSubAccountRecord {
  data: SubAccount;
  disabledFeatures: Set<Scope>;
}

export interface SimCallRecord {
  organization: number;
  call: Call;
  streams: string[];
}

export interface SimTwoFaSessionRecord {
  service: SimSeedTwoFaService;
  session: SimSeedTwoFaSession;
}

/** Defaults for every seed 2.1 field a seeded number leaves out (all listed fields are present). */
function numberDefaults(id: number, digits: string): WavixNumber {
  return {
    id,
    number: digits,
    activation_fee: "0.00",
    monthly_fee: "1.00",
    per_min: "0.0100",
    city: "NEW YORK, NY",
    state: "NY",
    country: "United States",
    country_short_name: "US",
    destination: [],
    channels: 2,
    require_docs: [],
    documents: [],
    domestic_cli: true,
    free_min: 0,
    unlimited: false,
    label: null,
    status: "active",
    seconds: "0",
    added: "2026-01-15T09:00:00.000Z",
    paid_until: "2026-12-15",
    sms_enabled: false,
    sms_relay_url: null,
    cnam: false,
    call_recording_enabled: false,
    transcription_enabled: false,
    transcription_threshold: 0,
    call_status_url: null,
  };
}

/** Key order of seed 2.1, so responses read like the API's and carry nothing else. */
const NUMBER_FIELDS: ReadonlyArray<keyof WavixNumber> = Object.keys(numberDefaults(0, "")) as Array<
  keyof WavixNumber
>;

export class SimStore {
  readonly masterId: number;
  readonly rng: SeededRandom;
  /** Features disabled per organisation (seed option `disabledFeatures`). */
  readonly disabledFeatures = new Map<number, Set<Scope>>();
  readonly numbers = new Map<number, SimNumberRecord>();
  readonly numberIdByDigits = new Map<string, number>();
  /** Number ids per organisation, ascending. */
  readonly numberIdsByOrg = new Map<number, number[]>();
  readonly subAccounts = new Map<number, SimSubAccountRecord>();
  readonly callWebhooks = new Map<number, Map<CallWebhookEventType, string>>();
  readonly calls = new Map<string, SimCallRecord>();
  readonly twoFaServices = new Map<string, SimSeedTwoFaService>();
  readonly twoFaSessions = new Map<string, SimTwoFaSessionRecord>();
  readonly brands = new Map<string, SimSeedBrand>();
  messages: Array<Record<string, unknown>> = [];
  /** Sender IDs, 10DLC Campaigns and their numbers, the profile (src/simulator/messaging.ts). */
  readonly messaging: MessagingStore;
  /** SIP trunks by id (src/simulator/trunks.ts). */
  readonly trunks = new Map<number, SimTrunkRecord>();
  private trunkIds = 1;
  private trunkIpIds = 1;
  private nextNumberId = 1;
  private nextDestinationId = 1;
  private nextSubAccountId = 1;

  constructor(seed: SimSeed) {
    this.masterId = seed.organizationId ?? DEFAULT_ORGANIZATION_ID;
    this.rng = new SeededRandom(seed.rngSeed ?? 1);
    this.disabledFeatures.set(this.masterId, new Set(seed.disabledFeatures ?? []));
    this.nextSubAccountId = this.masterId + 1;
    for (const sub of seed.subAccounts ?? []) {
      const data: SubAccount = {
        id: sub.id,
        created_at: sub.created_at ?? "2026-01-10T08:00:00.000Z",
        name: sub.name,
        api_key: sub.api_key,
        master_organization: this.masterId,
        status: sub.status ?? "enabled",
        // Seed 2.8 and the official schema show both endpoints as strings: an unset one is ""
        // (docs/SIMULATOR.md lists this choice), never left out or served as null.
        default_destinations: setEndpoints(sub.default_destinations),
      };
      this.subAccounts.set(sub.id, { data, disabledFeatures: new Set(sub.disabledFeatures ?? []) });
      this.nextSubAccountId = Math.max(this.nextSubAccountId, sub.id + 1);
    }
    const seededNumbers = seed.numbers ?? [];
    for (const n of seededNumbers) {
      if (typeof n.id === "number") this.nextNumberId = Math.max(this.nextNumberId, n.id + 1);
      for (const d of n.destination ?? []) this.nextDestinationId = Math.max(this.nextDestinationId, d.id + 1);
    }
    for (const n of seededNumbers) this.addNumber(n);
    for (const hook of seed.callWebhooks ?? []) this.webhooksOf(this.masterId).set(hook.event_type, hook.url);
    for (const c of seed.calls ?? []) {
      const { organization, ...call } = c;
      this.calls.set(call.uuid, { organization: organization ?? this.masterId, call: { ...call, id: call.id ?? call.uuid }, streams: [] });
    }
    for (const service of seed.twoFaServices ?? []) {
      this.twoFaServices.set(service.service_id, service);
      for (const session of service.sessions) this.twoFaSessions.set(session.session_id, { service, session });
    }
    for (const brand of seed.brands ?? []) this.brands.set(brand.brand_id, { ...brandDefaults(brand.brand_id), ...brand });
    this.messages = [...(seed.messages ?? [])];
    this.messaging = new MessagingStore(
      { senderIds: seed.senderIds, campaigns: seed.campaigns, profile: seed.profile, callbacks: seed.profileCallbacks },
      this.masterId,
      this.rng,
    );
    for (const t of seed.trunks ?? []) {
      const rec = seededTrunk(t, this.masterId);
      this.trunks.set(rec.data.id, rec);
      this.trunkIds = Math.max(this.trunkIds, rec.data.id + 1);
      for (const ip of rec.data.allowed_ips) this.trunkIpIds = Math.max(this.trunkIpIds, ip.id + 1);
    }
  }

  /** A trunk id not in use (tests may add records to the store directly). */
  nextTrunkId(): number {
    while (this.trunks.has(this.trunkIds)) this.trunkIds++;
    return this.trunkIds++;
  }

  nextTrunkIpId(): number {
    return this.trunkIpIds++;
  }

  /** Add a number (seeded or by a test); missing fields take defaults, a missing id the next free one. */
  addNumber(seedNumber: SimSeedNumber): WavixNumber {
    const { organization, ...fields } = seedNumber;
    const digits = fields.number.replace(/^\+/, "");
    if (this.numberIdByDigits.has(digits)) throw new Error(`simulator seed: duplicate number ${digits}`);
    const id = fields.id ?? this.nextNumberId++;
    if (this.numbers.has(id)) throw new Error(`simulator seed: duplicate number id ${id}`);
    this.nextNumberId = Math.max(this.nextNumberId, id + 1);
    const merged: WavixNumber = { ...numberDefaults(id, digits), ...fields, id, number: digits };
    merged.destination = (merged.destination ?? []).map((d) => ({ ...d }));
    const data = {} as Record<string, unknown>;
    for (const key of NUMBER_FIELDS) data[key] = merged[key];
    const org = organization ?? this.masterId;
    this.numbers.set(id, { organization: org, data: data as unknown as WavixNumber });
    this.numberIdByDigits.set(digits, id);
    const ids = this.numberIdsOf(org);
    // Seeds usually come in ascending order: append fast, insert in place otherwise.
    if (ids.length === 0 || ids[ids.length - 1] < id) ids.push(id);
    else ids.splice(lowerBound(ids, id), 0, id);
    return data as unknown as WavixNumber;
  }

  numberIdsOf(org: number): number[] {
    let ids = this.numberIdsByOrg.get(org);
    if (!ids) {
      ids = [];
      this.numberIdsByOrg.set(org, ids);
    }
    return ids;
  }

  /** The number with this id if `org` owns it. */
  numberOf(org: number, id: number): SimNumberRecord | undefined {
    const rec = this.numbers.get(id);
    return rec && rec.organization === org ? rec : undefined;
  }

  /** Release: the numbers leave the account (official DELETE /v1/numbers). */
  releaseNumbers(ids: number[]): void {
    const goneByOrg = new Map<number, Set<number>>();
    for (const id of ids) {
      const rec = this.numbers.get(id);
      if (!rec) continue;
      this.numbers.delete(id);
      this.numberIdByDigits.delete(rec.data.number);
      let gone = goneByOrg.get(rec.organization);
      if (!gone) goneByOrg.set(rec.organization, (gone = new Set()));
      gone.add(id);
    }
    for (const [org, gone] of goneByOrg) {
      this.numberIdsByOrg.set(org, this.numberIdsOf(org).filter((i) => !gone.has(i)));
    }
  }

  /** Destinations as written become server objects: `id` assigned, `srtp: false`, trunk fields per seed 2.2. */
  materializeDestinations(input: NumberDestinationInput[]): InboundCallDestination[] {
    return input.map((d) => {
      const trunk = d.transport === 5;
      const trunkId = trunk && typeof d.trunk_id === "number" ? d.trunk_id : null;
      return {
        id: this.nextDestinationId++,
        destination: d.destination,
        priority: d.priority,
        transport: d.transport,
        trunk_id: trunkId,
        srtp: false,
        trunk_label: trunkId === null ? null : (this.trunks.get(trunkId)?.data.label ?? `trunk-${trunkId}`),
      };
    });
  }

  webhooksOf(org: number): Map<CallWebhookEventType, string> {
    let hooks = this.callWebhooks.get(org);
    if (!hooks) {
      hooks = new Map();
      this.callWebhooks.set(org, hooks);
    }
    return hooks;
  }

  /** The organisation a sub-account key authenticates as, if `key` is one. */
  subAccountByKey(key: string): SimSubAccountRecord | undefined {
    for (const rec of this.subAccounts.values()) if (rec.data.api_key === key) return rec;
    return undefined;
  }

  createSubAccount(master: number, fields: Pick<SubAccount, "name" | "default_destinations">): SubAccount {
    // Tests may add records to the store directly: never hand out an id already in use.
    while (this.subAccounts.has(this.nextSubAccountId)) this.nextSubAccountId++;
    const id = this.nextSubAccountId++;
    const data: SubAccount = {
      id,
      created_at: new Date().toISOString(),
      name: fields.name,
      api_key: this.rng.hex(32),
      master_organization: master,
      status: "enabled",
      default_destinations: setEndpoints(fields.default_destinations),
    };
    this.subAccounts.set(id, { data, disabledFeatures: new Set() });
    return data;
  }

  isFeatureDisabled(org: number, feature: Scope): boolean {
    const set = this.subAccounts.get(org)?.disabledFeatures ?? this.disabledFeatures.get(org);
    return set?.has(feature) ?? false;
  }

  /** A JSON-able copy of everything, for `/__sim/state` and debugging. */
  dump(): Record<string, unknown> {
    return {
      masterOrganization: this.masterId,
      numbers: [...this.numbers.values()].map((r) => ({ organization: r.organization, ...r.data })),
      subAccounts: [...this.subAccounts.values()].map((r) => ({ ...r.data, disabledFeatures: [...r.disabledFeatures] })),
      callWebhooks: [...this.callWebhooks].map(([org, hooks]) => ({
        organization: org,
        webhooks: [...hooks].map(([event_type, url]) => ({ event_type, url })),
      })),
      calls: [...this.calls.values()].map((c) => ({ organization: c.organization, ...c.call, streams: c.streams })),
      twoFaServices: [...this.twoFaServices.values()],
      brands: [...this.brands.values()],
      messages: this.messages,
      ...this.messaging.dump(),
      // Never the password (write-only) nor, in a dump, the token.
      trunks: [...this.trunks.values()].map((r) => ({ organization: r.organization, ...r.data, access_token: r.data.access_token ? "(secret)" : null })),
      disabledFeatures: [...this.disabledFeatures].map(([org, set]) => ({ organization: org, features: [...set] })),
    };
  }
}

function lowerBound(sorted: number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

