/**
 * A strict Wavix API (issue #27): a server that gives only what the official document promises and
 * keeps what it is sent the way a real service would, so a test shows wavix-sync relies on nothing
 * more. It is the real simulator (src/simulator) started with
 *
 * - the `required-fields-only` variation: every success answer keeps only the fields its response
 *   schema requires (schemas/api/*.schema.json, whose `required` lists are the official
 *   document's: test/helpers/strict-server.test.ts compares them). A trunk comes back without
 *   `host`, `call_limit`, `max_call_cost`, `ip_restrict`…; a Sender ID without `usecase`;
 * - `profilePutReplaces`: `PUT /v1/profile` clears what it leaves out;
 *
 * behind a proxy (test/helpers/hostile-server.ts) that normalises what it is sent before the
 * simulator stores it: trunk labels and sub-account names to Unicode NFC, an alphanumeric Sender
 * ID upper-cased, IPv6 addresses (`allowed_ips`, `host_request.host`) in the canonical text of the
 * WHATWG URL host parser (not the code wavix-sync uses). Money is served at four places
 * (`"0.1800"`) and trunk and sub-account PUTs replace the record (omitted fields revert to their
 * defaults: trunk `host` dynamic, limits and rewrites none, `allowed_ips` []), as the simulator
 * always does.
 *
 * Faithful to: the official response schemas' required fields, PUT replacing (official for trunks
 * and sub-accounts; the stricter reading for the profile), normalisation on store. A behaviour of a
 * hostile server (lag, a barrier, a dropped listing entry) can be layered on top (`set`): it runs
 * after the normalisation, on the same proxy.
 * The official trunk PUT's required `password` is the simulator's own rule (its request schema, as
 * the document has it): a PUT without it is refused with 400 naming `password`.
 * Leaves out: a normalisation of fields wavix-sync does not send; any status or error body the
 * simulator would not give.
 */
import { startSimulator, type SimSeed, type Simulator, type SimulatorOptions } from "../../src/simulator";
import { startHostileServer, type Behaviour, type HostileServer, type ProxyRequest } from "./hostile-server";

export interface StrictServer {
  /** The proxy's base URL: what the CLI or a client is pointed at. */
  url: string;
  sim: Simulator;
  proxy: HostileServer;
  /** A hostile behaviour on top of the strict one (cleared with `{}`). */
  set(behaviour: Behaviour): void;
  close(): Promise<void>;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** An IPv6 address as the WHATWG URL host parser writes it; anything else as it was. */
export function urlCanonicalIp(ip: unknown): unknown {
  if (typeof ip !== "string" || !ip.includes(":")) return ip;
  try {
    return new URL(`http://[${ip}]/`).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return ip;
  }
}

/** The body as the strict server stores it. */
export function normalisedBody(req: Pick<ProxyRequest, "method" | "path" | "body">): string {
  if (req.body === "" || (req.method !== "POST" && req.method !== "PUT")) return req.body;
  let body: unknown;
  try {
    body = JSON.parse(req.body);
  } catch {
    return req.body;
  }
  if (!isObj(body)) return req.body;
  if (req.path.startsWith("/v1/trunks")) {
    if (typeof body.label === "string") body.label = body.label.normalize("NFC");
    if (Array.isArray(body.allowed_ips)) body.allowed_ips = body.allowed_ips.map((e) => (isObj(e) ? { ...e, ip: urlCanonicalIp(e.ip) } : e));
    if (isObj(body.host_request)) body.host_request = { ...body.host_request, host: urlCanonicalIp(body.host_request.host) };
  }
  if (req.path.startsWith("/v1/sub-organizations") && typeof body.name === "string") body.name = body.name.normalize("NFC");
  if (req.path === "/v3/messages/sender-ids" && body.type === "alphanumeric" && typeof body.sender_id === "string") body.sender_id = body.sender_id.toUpperCase();
  return JSON.stringify(body);
}

export interface StrictServerOptions extends Omit<SimulatorOptions, "seed" | "variations" | "profilePutReplaces"> {
  seed?: SimSeed;
  /** More variations besides `required-fields-only`. */
  variations?: SimulatorOptions["variations"];
}

export async function startStrictServer(options: StrictServerOptions = {}, behaviour: Behaviour = {}): Promise<StrictServer> {
  const { seed, variations, ...rest } = options;
  const sim = await startSimulator({
    seed: seed ?? "empty",
    ...rest,
    variations: ["required-fields-only", ...(variations ?? [])],
    profilePutReplaces: true,
  });
  let extra = behaviour;
  const proxy = await startHostileServer(sim.url, {
    async before(req) {
      req.body = normalisedBody(req);
      return extra.before?.(req);
    },
    rewrite: (req, status, body) => (extra.rewrite ? extra.rewrite(req, status, body) : body),
    after: (req, status) => extra.after?.(req, status),
  });
  return {
    url: proxy.url,
    sim,
    proxy,
    set(next) {
      extra = next;
    },
    async close() {
      await proxy.close();
      await sim.close();
    },
  };
}
