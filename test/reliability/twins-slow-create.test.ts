/**
 * Issue #33 item 4: twins when creates are slow. Two `apply` runs 150 ms apart, against a server that
 * takes 1.5 s to commit a create, both read "no such object" right before their POST and both create.
 * Every kind that creates must end with one object (src/kit/twins.ts): the run whose object is not the
 * oldest removes its own — a Sender ID is deleted, a sub-account (the API cannot delete one) is disabled
 * and renamed "<name> (duplicate <id>)" — says so, and adopts the oldest; the next plan is clean.
 *
 * The server is the real simulator behind the hostile proxy (test/helpers/hostile-server.ts), which
 * holds each create for 1.5 s before it commits. Sender IDs: the simulator refuses a second
 * `sender_id`, but the official document does not (SenderIDCreateRequest has no uniqueness rule), so
 * the proxy plays a server that follows the document: after the 1.5 s it stores the Sender ID as
 * asked and answers 201, whatever is already there.
 *
 * The same under the real engine: two stacks of the ready program (`up` at once; their creates meet
 * at a barrier, since a stack's start time varies by seconds) end the same way, and a second `up` of
 * each sends no write.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/simulator";
import { runCli, scratch, writeYaml } from "../helpers/cli";
import { startHostileServer, type HostileServer, type ProxyRequest } from "../helpers/hostile-server";
import { RealStack, engineUnavailable, must } from "../helpers/real-pulumi";
import { checkoutProject, type TempProject } from "../helpers/pulumi-project";

const KEY = "twins-slow-create-key-81c4";
const COMMIT_MS = 1_500;
const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Holds the first two requests `match` picks until both arrived (or `ms` passed). */
function barrier(match: (r: ProxyRequest) => boolean, ms = 60_000) {
  const held: Array<() => void> = [];
  let seen = 0;
  return async (req: ProxyRequest): Promise<void> => {
    if (!match(req) || ++seen > 2) return;
    await new Promise<void>((go) => {
      held.push(go);
      if (held.length >= 2) for (const release of held.splice(0)) release();
      setTimeout(go, ms);
    });
  };
}

/** `meet`: creates are held until the other run's create arrives too (for runs whose start times vary: Pulumi stacks). */
async function slowServer(meet = false): Promise<{ sim: Simulator; proxy: HostileServer }> {
  const sim = await startSimulator({ port: 0, apiKeys: [{ key: KEY }], asyncDelayMs: 20 });
  opened.push(sim);
  const subs = barrier((r) => r.method === "POST" && r.path === "/v1/sub-organizations");
  const senders = barrier((r) => r.method === "POST" && r.path === "/v3/messages/sender-ids");
  const proxy = await startHostileServer(sim.url, {
    before: async (req) => {
      if (req.method !== "POST") return;
      if (meet) {
        await subs(req);
        await senders(req);
      }
      if (req.path === "/v1/sub-organizations") {
        await sleep(COMMIT_MS); // then forwarded: the simulator commits now
        return;
      }
      if (req.path === "/v3/messages/sender-ids") {
        await sleep(COMMIT_MS);
        const b = JSON.parse(req.body) as { sender_id: string; type: string; countries: string[]; usecase: string; samples?: string[] };
        const made = sim.store.messaging.createSenderId({
          sender_id: b.sender_id,
          type: b.type,
          allowlisted_in: [...b.countries],
          usecase: b.usecase,
          samples: [...(b.samples ?? [])],
        });
        return { status: 201, body: made };
      }
    },
  });
  opened.push(proxy);
  return { sim, proxy };
}

const FILE = `version: 1
sub_accounts:
  - name: Twin Co
sender_ids:
  - { sender_id: TWINCO, type: alphanumeric, countries: [GB], usecase: promo }
`;

describe("two applies 150 ms apart, creates that take 1.5 s to commit", () => {
  it("end with one enabled sub-account \"Twin Co\" and one Sender ID TWINCO; the run that made a twin removes it and says so; the next plan is clean", async () => {
    const { sim, proxy } = await slowServer();
    const file = writeYaml(scratch(), "w.yaml", FILE);
    const env = { WAVIX_API_KEY: KEY, WAVIX_BASE_URL: proxy.url };
    const first = runCli(["apply", "-f", file, "--auto-approve"], env);
    await sleep(150);
    const second = runCli(["apply", "-f", file, "--auto-approve"], env);
    const runs = await Promise.all([first, second]);

    // Both runs created (each read "none" right before its POST): the twins were made, then settled.
    expect(proxy.requests.filter((r) => r.method === "POST" && r.path === "/v1/sub-organizations")).toHaveLength(2);
    expect(proxy.requests.filter((r) => r.method === "POST" && r.path === "/v3/messages/sender-ids")).toHaveLength(2);

    const subs = [...sim.store.subAccounts.values()]
      .map((s) => ({ id: s.data.id, name: s.data.name, status: s.data.status }))
      .filter((s) => s.name.startsWith("Twin Co"));
    const live = subs.filter((s) => s.status === "enabled");
    expect(live.map((s) => s.name), JSON.stringify(subs)).toEqual(["Twin Co"]);
    const twin = subs.find((s) => s.status === "disabled");
    expect(twin, JSON.stringify(subs)).toBeDefined();
    expect(twin!.name).toBe(`Twin Co (duplicate ${twin!.id})`);
    expect(twin!.id).toBeGreaterThan(live[0].id); // the newer one goes; the older is kept

    expect([...sim.store.messaging.senderIds.values()].filter((s) => s.sender_id === "TWINCO")).toHaveLength(1);
    expect(proxy.requests.filter((r) => r.method === "DELETE" && r.path.startsWith("/v3/messages/sender-ids/"))).toHaveLength(1);

    for (const run of runs) expect(run.code, run.stdout + run.stderr).toBe(0);
    const out = runs.map((r) => r.stdout + r.stderr).join("\n");
    expect(out).toMatch(new RegExp(`sub_account "Twin Co": another run made it at the same moment; this run's twin \\(id ${twin!.id}\\) was disabled and renamed "Twin Co \\(duplicate ${twin!.id}\\)"; id ${live[0].id} is kept`));
    expect(out).toMatch(/sender_id "TWINCO": another run made it at the same moment; this run's twin \(id [0-9a-f-]{36}\) was deleted; id [0-9a-f-]{36} is kept/);

    const plan = await runCli(["plan", "-f", file, "--detailed-exitcode"], env);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  }, 60_000);
});

const unavailable = engineUnavailable();
const projects: TempProject[] = [];
afterEach(() => {
  for (const p of projects.splice(0)) p.remove();
});

describe.skipIf(unavailable !== undefined)("two Pulumi stacks (the ready program, real engine) creating at once, creates that take 1.5 s to commit", () => {
  it("end with one enabled \"Twin Co\" and one TWINCO; the stack whose create was newer removes its own, adopts the older and warns; a second up of each changes nothing", async () => {
    const { sim, proxy } = await slowServer(true);
    const stacks = [0, 1].map(() => {
      const project = checkoutProject({ "wavix.yaml": FILE });
      projects.push(project);
      return new RealStack({ projectDir: project.dir, config: { "wavix:apiKey": KEY, "wavix:baseUrl": proxy.url }, secretKeys: ["wavix:apiKey"], env: { WAVIX_API_KEY: undefined, WAVIX_BASE_URL: undefined } });
    });
    const runs = await Promise.all(stacks.map((st) => must(st.up())));
    expect(proxy.requests.filter((r) => r.method === "POST" && r.path === "/v1/sub-organizations")).toHaveLength(2);
    expect(proxy.requests.filter((r) => r.method === "POST" && r.path === "/v3/messages/sender-ids")).toHaveLength(2);
    const subs = [...sim.store.subAccounts.values()].map((x) => x.data).filter((x) => x.name.startsWith("Twin Co")).sort((a, b) => a.id - b.id);
    expect(subs.map((x) => [x.name, x.status])).toEqual([
      ["Twin Co", "enabled"],
      [`Twin Co (duplicate ${subs[1].id})`, "disabled"],
    ]);
    expect([...sim.store.messaging.senderIds.values()].filter((x) => x.sender_id === "TWINCO")).toHaveLength(1);
    const out = runs.map((r) => r.programOutput + JSON.stringify(r.diagnostics)).join("\n");
    expect(out).toContain(`this run's twin (id ${subs[1].id}) was disabled and renamed "Twin Co (duplicate ${subs[1].id})"; id ${subs[0].id} is kept`);
    expect(out).toMatch(/this run's twin \(id [0-9a-f-]{36}\) was deleted/);
    // Both stacks hold the same objects now; the next up of each sends no write.
    for (const st of stacks) {
      const mark = proxy.requests.length;
      await must(st.up());
      expect(proxy.requests.slice(mark).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`)).toEqual([]);
    }
  }, 400_000);
});
