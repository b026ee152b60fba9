/**
 * Wire types of the Wavix API, as the seed spec (part 2) and the official document describe them.
 * Money is decimal text and stays text: never parse it into a float.
 */

/** Inbound call destination transport: 1 SIP URI, 4 PSTN number, 5 SIP trunk on the platform (seed 2.2). */
export type TransportCode = 1 | 4 | 5;

/** Seed 2.2 InboundCallDestination, as the API returns it. */
export interface InboundCallDestination {
  id: number;
  destination: string;
  priority: number;
  transport: TransportCode;
  trunk_id: number | null;
  srtp?: boolean;
  trunk_label: string | null;
}

/** A destination as written (official NumberDestination): no server-made fields. */
export interface NumberDestinationInput {
  destination: string;
  priority: number;
  transport: TransportCode;
  trunk_id?: number | null;
}

/** Seed 2.3. */
export interface NumberDocument {
  id: number;
  allow_replace: boolean;
  did_number: string;
  doc_content_type: string;
  doc_file_name: string;
  doc_type_id: 1 | 2 | 3;
  status: "approved" | "pending" | "rejected";
  url: string;
}

/** Seed 2.1 Number. */
export interface WavixNumber {
  id: number;
  number: string;
  activation_fee: string;
  monthly_fee: string;
  per_min: string;
  city: string;
  state?: string | null;
  country: string;
  country_short_name: string;
  destination: InboundCallDestination[];
  channels: number;
  require_docs: string[];
  documents: NumberDocument[];
  domestic_cli: boolean;
  free_min?: number;
  unlimited?: boolean;
  label: string | null;
  status: "active" | "inactive";
  seconds: string;
  added: string;
  paid_until: string;
  sms_enabled: boolean;
  sms_relay_url: string | null;
  cnam: boolean | null;
  call_recording_enabled: boolean;
  transcription_enabled: boolean;
  transcription_threshold: number;
  call_status_url?: string | null;
}

/** Fields of `PATCH /v1/numbers/{id}` and `PATCH /v1/numbers` (official). Only fields sent change. */
export interface NumberUpdate {
  sms_enabled?: boolean;
  destinations?: NumberDestinationInput[];
  /** Official schema says `format: uri`; `null` clears it (never send `""`). */
  sms_relay_url?: string | null;
  call_recording_enabled?: boolean;
  transcription_enabled?: boolean;
  transcription_threshold?: number;
  call_status_url?: string | null;
}

export interface Pagination {
  current_page: number;
  per_page: number;
  total: number;
  total_pages: number;
}

export interface NumberListResponse {
  items: WavixNumber[];
  pagination: Pagination;
}

/** Seed 2.8 Sub-account. `api_key` is a secret. */
export interface SubAccount {
  id: number;
  created_at: string;
  name: string;
  api_key: string;
  master_organization: number;
  status: "enabled" | "disabled";
  default_destinations: DefaultDestinations;
}

export interface DefaultDestinations {
  sms_endpoint?: string | null;
  dlr_endpoint?: string | null;
}

export interface SubAccountCreate {
  name: string;
  default_destinations?: { sms_endpoint?: string; dlr_endpoint?: string };
}

/** `PUT /v1/sub-organizations/{id}` replaces: omitted fields revert to defaults. */
export interface SubAccountReplace {
  name: string;
  status?: "enabled" | "disabled";
  default_destinations?: { sms_endpoint?: string; dlr_endpoint?: string };
}

export interface SubAccountListResponse {
  sub_organizations: SubAccount[];
  pagination: Pagination;
}

export type CallWebhookEventType = "on-call" | "post-call";

export interface CallWebhook {
  event_type: CallWebhookEventType;
  url: string;
}

/** Seed 2.4 Call (plus the official `id`, the same value as `uuid`, which the official marks deprecated). */
export interface Call {
  uuid: string;
  /** Official: the call ID (`uuid` is its deprecated twin). Optional: the seed does not show it. */
  id?: string;
  direction: "inbound" | "outbound";
  event_type: string;
  event_time: string;
  event_payload: Record<string, unknown> | null;
  from: string;
  to: string;
  call_started: string;
  call_answered: string | null;
  call_completed: string | null;
  machine_detected: boolean;
  tag: string;
}

export interface StartCallRequest {
  from: string;
  to: string;
  callback_url: string;
  recording?: boolean;
  voicemail_detection?: boolean;
  tag?: string;
  timeout?: number;
}

export type StreamType = "oneway" | "twoway";
export type StreamChannel = "inbound" | "outbound" | "both";

export interface AnswerCallRequest {
  call_recording?: boolean;
  call_transcription?: boolean;
  stream_url?: string;
  stream_type?: StreamType;
  stream_channel?: StreamChannel;
}

/** Official CallStreamCreateRequest: all three fields are required. */
export interface StartStreamRequest {
  /** WebSocket URL (`wss://...`) the call media is streamed to. */
  stream_url: string;
  stream_type: StreamType;
  stream_channel: StreamChannel;
}

/** Seed 2.6. */
export interface TwoFaEvent {
  created_at: string;
  event: string;
  status: "success" | "failed" | "pending";
  charge: string;
  error: string | null;
}

/** Official ListSessionsResponseItem. */
export interface TwoFaSession {
  created_at: string;
  /** Optional in the official ListSessionsResponseItem. */
  session_id?: string;
  phone_number: string;
  destination_country: string;
  status: string;
  charge: string;
  service_id: string;
  service_name: string;
}

/** Seed 2.7; `reasons` arrives as an array or a single string (normalised to an array by the client). */
export interface BrandVetting {
  evp_id: string;
  create_date: string;
  vetted_date: string | null;
  vetting_id: string;
  vetting_token: string | null;
  vetting_score: number | null;
  vetting_class: string;
  vetting_status: string;
  reasons: string[] | null;
  vetting_details?: Record<string, unknown>;
}

/** Official 10DLC brand (only the fields we use are typed; others pass through). */
export interface Brand {
  brand_id: string;
  dba_name?: string;
  company_name?: string;
  status?: string;
  [key: string]: unknown;
}

export interface BrandListResponse {
  items: Brand[];
  pagination: Pagination;
}

/** A page of an official list operation, as the client returns it. */
export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

/** Official ProfileResponse (`GET /v1/profile`): wavix-sync reads only `id`, the account the key belongs to. */
export interface AccountProfile {
  id: number;
  [key: string]: unknown;
}

/** `{success: true}` of answer, delete and release operations. */
export interface SuccessResponse {
  success: boolean;
  [key: string]: unknown;
}

/** Seed 4.5 response. */
export interface StartStreamResponse {
  success: boolean;
  stream_id: string;
}

/** Seed 4.9 query; the official operation requires `type`. */
export interface MessageListQuery {
  type: "outbound" | "inbound";
  page?: number;
  perPage?: number;
}

/** Official Message (the seed does not show it): the fields it requires. */
export interface Message {
  message_id: string;
  message_type: string;
  from: string;
  to: string;
  direction: string;
  mcc: string | null;
  mnc: string | null;
  message_body: Record<string, unknown>;
  tag: string | null;
  status: string;
  segments: number;
  /** Decimal text. */
  charge: string;
  submitted_at: string;
  sent_at: string | null;
  delivered_at: string | null;
  error_message: string | null;
  [key: string]: unknown;
}

/** Official MessageListResponse. */
export interface MessageListResponse {
  items: Message[];
  pagination: Pagination;
}

/** Official bulk update answer: `items` is optional (the change applies asynchronously). */
export interface NumberBulkUpdateResponse {
  items?: WavixNumber[];
}

// ---- SMS Sender IDs (official `/v3/messages/sender-ids`) ----

/** Official SenderIDType: `numeric` (a phone number) or `alphanumeric` (a text sender name). */
export type SenderIdType = "numeric" | "alphanumeric";
/** Official SenderIDCreateRequest `usecase`. */
export type SenderIdUsecase = "transactional" | "promo" | "authentication";
/** Official SenderIDCreateRequest `monthly_volume`. */
export type SenderIdMonthlyVolume = "1-1000" | "1001-20000" | "20001-50000" | "50001-100000" | "More than 100000";

/** Official SenderID (list item), SenderIDDetails (create) and SenderIDResponse (retrieve). */
export interface SenderId {
  /** The Sender ID's own id (a UUID). */
  id: string;
  /** The name messages are sent from. */
  sender_id: string;
  type: string;
  /** Two-letter ISO country codes where it is allowlisted. */
  allowlisted_in?: string[];
  usecase?: string;
  samples?: string[];
}

/** Official SenderIDCreateRequest. */
export interface SenderIdCreate {
  sender_id: string;
  type: SenderIdType;
  countries: string[];
  usecase: SenderIdUsecase;
  monthly_volume?: SenderIdMonthlyVolume;
  samples?: string[];
}

// ---- 10DLC Campaign numbers (official `/v3/10dlc/brands/{brand_id}/campaigns/{campaign_id}/numbers`) ----

/** Official TenDLCCampaignNumber: `status` such as `PENDING`, `APPROVED`, `FAILED`. */
export interface CampaignNumber {
  number: string;
  status: string;
}

/** Official TenDLCCampaignNumberListResponse. */
export interface CampaignNumberList {
  brand_id: string;
  campaign_id: string;
  numbers: CampaignNumber[];
}

/** Official TenDLCCampaign: the fields wavix-sync reads. */
export interface Campaign {
  brand_id: string;
  campaign_id: string;
  [key: string]: unknown;
}

// ---- Profile (official `/v1/profile`) ----

/** The part of the official ProfileUpdateRequest wavix-sync sends: the account's callback defaults. */
export interface ProfileCallbacksUpdate {
  sms_relay_url?: string;
  dlr_relay_url?: string;
}

/** Official ProfileUpdateRequest (`PUT /v1/profile`): every field optional. */
export interface ProfileUpdate extends ProfileCallbacksUpdate {
  additional_info?: string;
  contacts?: string;
  default_short_link_endpoint?: string;
  first_name?: string;
  last_name?: string;
  phone?: string;
  time_zone?: string;
  job_title?: string;
  company_info?: {
    name?: string;
    industry?: string;
    billing_address?: string;
    attn_contact_name?: string;
    vat_number?: string;
    country_code?: string;
  };
}

// ---- SIP trunks (official `/v1/trunks`) ----

/** Official SIPTrunkSummary: one item of `GET /v1/trunks` (the listing carries fewer fields than the record). */
export interface SipTrunkSummary {
  id: number;
  /** System-generated login: what a number's trunk destination names. */
  name: string;
  label: string;
  callerid: string | null;
  multiple_numbers: boolean;
  auth_method: string;
  host_request: { host?: string; status?: string } | null;
  status: string;
  talk_time: number;
  /** Decimal text. */
  charge: string;
  /** Static authentication token: a secret (never printed, exported or stored in plain state). */
  access_token: string | null;
  [key: string]: unknown;
}

/** Official SIPTrunkListResponse. */
export interface SipTrunkListResponse {
  sip_trunks: SipTrunkSummary[] | null;
  pagination: Pagination;
}

/** Official SIPTrunkResponse: `GET`/`POST`/`PUT /v1/trunks[/{id}]`. */
export interface SipTrunk {
  id: number;
  name: string;
  label: string;
  callerid: string | null;
  ip_restrict?: boolean;
  allowed_ips: Array<{ id: number; ip: string }>;
  channels_restrict?: boolean;
  max_channels?: number | null;
  cost_limit?: boolean;
  /** Decimal text. */
  max_call_cost?: string | null;
  call_restrict?: boolean | null;
  call_limit?: number | null;
  didinfo_enabled?: boolean;
  rewrite_enabled?: boolean;
  rewrite_prefix?: string;
  rewrite_cond?: string;
  call_recording_enabled?: boolean;
  machine_detection_enabled?: boolean;
  transcription_enabled?: boolean;
  transcription_threshold?: number;
  created_at: string;
  /** `dynamic` for credential registration, else the static IP of IP authentication. */
  host?: string;
  multiple_numbers?: boolean;
  encrypted_media?: boolean;
  passthrough?: boolean;
  /** A secret. */
  access_token?: string | null;
  [key: string]: unknown;
}

/** Official SIPTrunkCreateRequest: the body of `POST /v1/trunks` and `PUT /v1/trunks/{id}` (PUT replaces). */
export interface SipTrunkWrite {
  label: string;
  /** Write-only. Required on create; on update sent only to rotate it. */
  password?: string;
  host_request?: { host: string };
  callerid: string;
  multiple_numbers?: boolean;
  ip_restrict: boolean;
  allowed_ips?: Array<{ ip: string }> | null;
  didinfo_enabled: boolean;
  call_restrict: boolean;
  call_limit?: number;
  cost_limit: boolean;
  /** A JSON number written from decimal text (official `type: number, format: decimal`). */
  max_call_cost?: number;
  channels_restrict: boolean;
  max_channels?: number;
  rewrite_enabled: boolean;
  rewrite_prefix?: string;
  rewrite_cond?: string;
  call_recording_enabled?: boolean;
  transcription_enabled: boolean;
  transcription_threshold: number;
  machine_detection_enabled?: boolean;
  encrypted_media?: boolean;
}
