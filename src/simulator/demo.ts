/**
 * The built-in demo account (the one `npm start` uses) and `generateAccount` for big test accounts.
 * Everything here is deterministic: same ids, keys and values every run.
 */
import { SeededRandom } from "./rng";
import type { SimSeed, SimSeedNumber, SimSeedSubAccount } from "./types";

/** Key the simulator accepts when no `apiKeys` are given (a fake local key). */
export const DEFAULT_SIM_API_KEY = "sim-demo-key";

/** Demo sub-account keys (fake, local). */
export const DEMO_SUB_ACCOUNT_KEYS = {
  acmeSupport: "sim-acme-support-key",
  legacyTeam: "sim-legacy-team-key",
} as const;

/** The demo account: numbers, two sub-accounts, a call webhook, 2FA, 10DLC and an inbound call. */
export function demoSeed(): SimSeed {
  const master = 1000;
  const numbers: SimSeedNumber[] = [];
  for (let i = 1; i <= 8; i++) {
    numbers.push({ id: 4000 + i, number: `1555123000${i}`, added: `2026-01-0${i}T09:00:00.000Z` });
  }
  Object.assign(numbers[0], {
    label: "Main line",
    sms_enabled: true,
    sms_relay_url: "https://hooks.demo.example/inbound-sms",
    call_recording_enabled: true,
    destination: [
      { id: 101, destination: "sip.acme.example", priority: 1, transport: 1, trunk_id: null, srtp: false, trunk_label: null },
      { id: 102, destination: "15557654321", priority: 2, transport: 4, trunk_id: null, srtp: false, trunk_label: null },
      { id: 103, destination: "acme-trunk", priority: 3, transport: 5, trunk_id: 144, srtp: false, trunk_label: "trunk-144" },
    ],
  } satisfies Partial<SimSeedNumber>);
  Object.assign(numbers[1], {
    label: "Support",
    call_status_url: "https://hooks.demo.example/call-status",
    transcription_enabled: true,
    transcription_threshold: 30,
    destination: [
      { id: 104, destination: "support.sip.demo.example", priority: 1, transport: 1, trunk_id: null, srtp: false, trunk_label: null },
    ],
  } satisfies Partial<SimSeedNumber>);
  Object.assign(numbers[2], { city: "LOS ANGELES, CA", state: "CA", monthly_fee: "1.50" });
  Object.assign(numbers[5], { status: "inactive" });
  Object.assign(numbers[6], { organization: 2001, label: "Acme Support line" });
  Object.assign(numbers[7], { organization: 2002, label: "Legacy line" });
  const subAccounts: SimSeedSubAccount[] = [
    {
      id: 2001,
      name: "Acme Support",
      api_key: DEMO_SUB_ACCOUNT_KEYS.acmeSupport,
      status: "enabled",
      created_at: "2026-01-10T08:00:00.000Z",
      default_destinations: {
        sms_endpoint: "https://hooks.acme.example/sms",
        dlr_endpoint: "https://hooks.acme.example/dlr",
      },
    },
    {
      id: 2002,
      name: "Legacy Team",
      api_key: DEMO_SUB_ACCOUNT_KEYS.legacyTeam,
      status: "enabled",
      created_at: "2025-06-01T08:00:00.000Z",
      default_destinations: {}, // unset endpoints: served as ""
    },
  ];
  return {
    organizationId: master,
    numbers,
    subAccounts,
    callWebhooks: [{ event_type: "post-call", url: "https://hooks.demo.example/post-call" }],
    // Two SIP trunks: 144 is the one the main line routes to (its login is the destination "acme-trunk").
    trunks: [
      {
        id: 144,
        name: "acme-trunk",
        label: "acme-pbx",
        callerid: "15551230001",
        ip_restrict: true,
        allowed_ips: [
          { id: 1, ip: "203.0.113.10" },
          { id: 2, ip: "203.0.113.11" },
        ],
        cost_limit: true,
        max_call_cost: "0.1800",
        call_recording_enabled: true,
        password: "sim-demo-trunk-password",
      },
      { id: 145, name: "67758", label: "office-phones", callerid: "", multiple_numbers: true, channels_restrict: true, max_channels: 4, password: "sim-demo-trunk-password-2" },
    ],
    calls: [
      {
        uuid: "5f3b1d2e-8c4a-4e6b-9a7d-1c2e3f4a5b6c",
        direction: "inbound",
        event_type: "call_setup",
        event_time: "2026-11-21T09:59:58.000Z",
        event_payload: null,
        from: "15557654321",
        to: "15551230001",
        call_started: "2026-11-21T09:59:58.000Z",
        call_answered: null,
        call_completed: null,
        machine_detected: false,
        tag: "",
      },
    ],
    twoFaServices: [
      {
        service_id: "7204a030201211ee9fb47d093f2f127c",
        service_name: "Demo 2FA Service",
        sessions: [
          {
            session_id: "8753d4308f2e11ecb75fcdafd6d2d690",
            phone_number: "15551230001",
            destination_country: "US",
            status: "verified",
            created_at: "2026-11-03T10:00:00.000Z",
            charge: "0.0525",
            events: [
              { created_at: "2026-11-03T10:00:00.000Z", event: "Number lookup", status: "success", charge: "0.0050", error: null },
              { created_at: "2026-11-03T10:00:01.000Z", event: "Code sent via SMS", status: "success", charge: "0.0475", error: null },
              { created_at: "2026-11-03T10:00:40.000Z", event: "Verification", status: "success", charge: "0.0000", error: null },
            ],
          },
          {
            session_id: "2953d4308f2e11ecb75fcdafd6d2d687",
            phone_number: "447919433768",
            destination_country: "GB",
            status: "failed",
            created_at: "2026-11-05T14:30:00.000Z",
            charge: "0.0475",
            events: [
              { created_at: "2026-11-05T14:30:00.000Z", event: "Code sent via SMS", status: "success", charge: "0.0475", error: null },
              {
                created_at: "2026-11-05T14:31:10.000Z",
                event: "Verification",
                status: "failed",
                charge: "0.0000",
                error: 'Invalid code, expected "6 digits"',
              },
            ],
          },
        ],
      },
    ],
    brands: [
      {
        brand_id: "B6AI7PA",
        company_name: "Acme Corp",
        dba_name: "Acme",
        country: "US",
        entity_type: "PRIVATE_PROFIT",
        status: "VERIFIED",
        created_at: "2026-10-20T12:00:00",
        ...brandContact("Acme", "2026-10-21T09:00:00"),
        vettings: [
          {
            evp_id: "AEGIS",
            create_date: "2026-11-03T10:15:00",
            vetted_date: "2026-11-03T10:20:00",
            vetting_id: "13d8e00c-3cb4-4dc0-9e26-d5057fa938d9",
            vetting_token: "sim-vetting-token-b6ai7pa",
            vetting_score: 82,
            vetting_class: "STANDARD",
            vetting_status: "ACTIVE",
            // The seed's sample shows `reasons` as one text value, not an array (seed 2.7).
            reasons: "Company size as reported by business sources resulted in a score deduction: size range 6-10",
            vetting_details: {},
          },
        ],
      },
      {
        brand_id: "BPEND01",
        company_name: "Pending Brand LLC",
        dba_name: "Pending",
        country: "US",
        entity_type: "PRIVATE_PROFIT",
        status: "UNVERIFIED",
        created_at: "2026-11-15T08:00:00",
        ...brandContact("Pending", "2026-11-15T08:00:00"),
        vettings: [
          {
            evp_id: "AEGIS",
            create_date: "2026-11-20T09:00:00",
            vetted_date: null,
            vetting_id: "7a1c52b4-0f3e-4d8a-8b61-2e9c4f7d3a10",
            vetting_token: null,
            vetting_score: null,
            vetting_class: "STANDARD",
            vetting_status: "PENDING",
            reasons: null,
          },
        ],
      },
    ],
    // 10DLC: a Campaign of brand B6AI7PA with one approved number (whose numeric Sender ID Wavix made).
    campaigns: [{ brand_id: "B6AI7PA", campaign_id: "CSIM001", numbers: [{ number: "15551230003", status: "APPROVED" }] }],
    senderIds: [
      { id: "3c7a5a90-43e0-43e0-b006-fdfea30c5a7c", sender_id: "ACME", type: "alphanumeric", allowlisted_in: ["FR", "GB"], usecase: "promo", samples: ["Acme: 20% off today"] },
      { id: "9d2f6b1e-5a3c-4f7e-8b2d-6c1a0e9f3b47", sender_id: "15551230003", type: "numeric", allowlisted_in: ["US"], usecase: "transactional", samples: [] },
    ],
    messages: [
      {
        message_id: "0b9e2c1a-6d4f-4a8e-9c3b-5f7a1d2e4c60",
        from: "15551230001",
        to: "+15557654321",
        message_type: "sms",
        message_body: { text: "Hello from the demo account", media: null },
        status: "delivered",
        charge: "0.0040",
        segments: 1,
        submitted_at: "2026-11-20T11:00:00",
        tag: "",
        direction: "outbound",
        mcc: "310",
        mnc: "260",
        sent_at: "2026-11-20T11:00:01",
        delivered_at: "2026-11-20T11:00:03",
        error_message: null,
      },
    ],
    rngSeed: 1,
  };
}

/** The rest of the fields the official TenDLCBrand requires (wavix-sync reads only `brand_id`). */
function brandContact(name: string, updatedAt: string): Record<string, unknown> {
  return {
    vertical: "TECHNOLOGY",
    ein_taxid: "123456789",
    ein_taxid_country: "US",
    first_name: "Demo",
    last_name: name,
    phone_number: "15551230001",
    email: `compliance@${name.toLowerCase()}.example`,
    street_address: "1 Demo Street",
    city: "Springfield",
    zip: "12345",
    feedback: null,
    updated_at: updatedAt,
  };
}

/** Options of `generateAccount`. */
export interface GenerateAccountOptions {
  /** How many numbers (all owned by the master organisation). */
  numbers: number;
  /** How many sub-accounts. @default 0 */
  subAccounts?: number;
  /** Seed of the variation between numbers. @default 1 */
  seed?: number;
  /**
   * Numbers each sub-account owns (tenants' numbers, seen only with that sub-account's key):
   * `1556<ssss><nnn>` for sub-account `ssss`, ids from 10000001. At most 999. @default 0
   */
  numbersPerSubAccount?: number;
}

/**
 * A large deterministic account: numbers `15550000001`... with ids from 100001, settings varied by
 * a seeded RNG, sub-accounts "Sub-account 0001"... with keys `sim-sub-key-0001`...
 */
export function generateAccount(options: GenerateAccountOptions): SimSeed {
  const rng = new SeededRandom(options.seed ?? 1);
  const numbers: SimSeedNumber[] = new Array(options.numbers);
  for (let i = 0; i < options.numbers; i++) {
    const smsEnabled = rng.next() < 0.5;
    const withDestination = rng.next() < 0.7;
    numbers[i] = {
      id: 100001 + i,
      number: `1555${String(i + 1).padStart(7, "0")}`,
      sms_enabled: smsEnabled,
      sms_relay_url: smsEnabled ? `https://hooks.gen.example/sms/${i + 1}` : null,
      call_recording_enabled: rng.next() < 0.3,
      transcription_enabled: false,
      transcription_threshold: 0,
      destination: withDestination
        ? [
            {
              id: 500001 + i,
              destination: `sip${(i % 10) + 1}.gen.example`,
              priority: 1,
              transport: 1,
              trunk_id: null,
              srtp: false,
              trunk_label: null,
            },
          ]
        : [],
    };
  }
  const subAccounts: SimSeedSubAccount[] = [];
  for (let i = 1; i <= (options.subAccounts ?? 0); i++) {
    const tag = String(i).padStart(4, "0");
    subAccounts.push({
      id: 2000 + i,
      name: `Sub-account ${tag}`,
      api_key: `sim-sub-key-${tag}`,
      status: "enabled",
    });
  }
  const per = options.numbersPerSubAccount ?? 0;
  if (per > 999) throw new RangeError("numbersPerSubAccount: at most 999");
  subAccounts.forEach((sub, s) => {
    for (let j = 1; j <= per; j++) {
      numbers.push({
        id: 10_000_000 + s * per + j,
        organization: sub.id,
        number: `1556${String(s + 1).padStart(4, "0")}${String(j).padStart(3, "0")}`,
        sms_enabled: rng.next() < 0.5,
        call_recording_enabled: false,
        transcription_enabled: false,
        transcription_threshold: 0,
        destination: [],
      });
    }
  });
  return { organizationId: 1000, numbers, subAccounts, rngSeed: options.seed ?? 1 };
}
