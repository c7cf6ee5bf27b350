// The fixtures. Worker-scoped: the workbench (an ephemeral one per worker unless
// WORKBENCH_URL or the `workbenchUrl` option names one). Test-scoped: the partner
// API, a signed-in dispatcher page, the clock, receiver faults and capabilities,
// external receivers — and whatever a test changes through them is undone after
// it, so tests sharing a workbench do not see each other's faults or jumps.
import { test as base, type Page } from "@playwright/test";
import { durationMs } from "./duration.ts";
import { startEphemeralWorkbench, type WorkbenchSeed } from "./ephemeral.ts";
import type {
  ClockControl,
  ExternalReceiverControl,
  FaultOptions,
  ReceiverControl,
  SignInDispatcher,
  Workbench,
  WorkbenchOptions,
} from "./fixture-types.ts";
import { PartnerApi } from "./partner-api.ts";
import { clientControl, type ClientControl } from "./clients.ts";
import { EmbeddedReceiver, ExternalReceiver } from "./receivers.ts";
import { workbenchApi } from "./workbench-api.ts";

/** The seed of every workbench (fixed ids): agencies, users, the partner clients. A copy of the server's, guarded by server-copies.test.ts. */
export const SEED: WorkbenchSeed = {
  agencies: {
    northPsap: "0b0c5b52-1c0e-4a57-9a57-000000000001",
    centralEms: "0b0c5b52-1c0e-4a57-9a57-000000000002",
    fireRescue: "0b0c5b52-1c0e-4a57-9a57-000000000003",
    southPsap: "0b0c5b52-1c0e-4a57-9a57-000000000004",
  },
  users: {
    dispatcherNorth: "0b0c5b52-1c0e-4a57-9a57-100000000001",
    dispatcherEms: "0b0c5b52-1c0e-4a57-9a57-100000000002",
    dispatcherFire: "0b0c5b52-1c0e-4a57-9a57-100000000003",
    lockedUser: "0b0c5b52-1c0e-4a57-9a57-100000000004",
    jSmithLower: "0b0c5b52-1c0e-4a57-9a57-100000000005",
    jSmithUpper: "0b0c5b52-1c0e-4a57-9a57-100000000006",
  },
  clients: {
    partnerCad: { clientId: "partner-cad", clientSecret: "partner-cad-secret" },
    partnerReadonly: { clientId: "partner-readonly", clientSecret: "partner-readonly-secret" },
  },
};

type WorkerFixtures = WorkbenchOptions & { workbench: Workbench };
type TestFixtures = {
  partnerApi: PartnerApi;
  signInDispatcher: SignInDispatcher;
  dispatcherPage: Page;
  clock: ClockControl;
  receivers: ReceiverControl;
  externalReceiver: ExternalReceiverControl;
  clients: ClientControl;
};

export const test = base.extend<TestFixtures, WorkerFixtures>({
  workbenchUrl: [process.env.WORKBENCH_URL, { option: true, scope: "worker" }],
  workbenchToken: [process.env.WORKBENCH_TOKEN, { option: true, scope: "worker" }],
  workbench: [
    async ({ workbenchUrl, workbenchToken }, use) => {
      if (workbenchUrl) {
        const url = workbenchUrl.replace(/\/+$/, "");
        await use({ url, seed: SEED, api: workbenchApi(url, { token: workbenchToken }), ephemeral: false });
        return;
      }
      const started = await startEphemeralWorkbench();
      try {
        const { url, agencies, users, clients } = started;
        await use({ url, seed: { agencies, users, clients }, api: workbenchApi(url), ephemeral: true });
      } finally {
        await started.stop();
      }
    },
    { scope: "worker", timeout: 300_000 },
  ],

  baseURL: async ({ workbench }, use) => use(workbench.url),

  partnerApi: async ({ workbench }, use) => use(new PartnerApi(workbench.url, workbench.seed)),

  signInDispatcher: async ({ workbench }, use) =>
    use(async (page, options = {}) => {
      const partner = new PartnerApi(workbench.url, workbench.seed, {
        username: null,
        scopes: ["identity.user.signin"],
      });
      const res = await fetch(`${workbench.url}/Account/GetUserSigninToken`, {
        method: "POST",
        headers: { authorization: `Bearer ${await partner.token()}`, "content-type": "application/json" },
        body: JSON.stringify({
          agencyContext: options.agencyId ?? workbench.seed.agencies.northPsap,
          username: options.username ?? "dispatcher.north",
        }),
      });
      if (res.status !== 200) throw new Error(`GetUserSigninToken answered ${res.status}: ${await res.text()}`);
      const { token } = (await res.json()) as { token: string };
      const returnUrl = options.returnUrl ?? "/portal/incidents";
      await page.goto(
        `${workbench.url}/Account/LoginUserByToken?token=${token}&returnUrl=${encodeURIComponent(returnUrl)}`,
      );
    }),

  dispatcherPage: async ({ page, signInDispatcher }, use) => {
    await signInDispatcher(page);
    await use(page);
  },

  clients: async ({ workbench, workbenchToken }, use) => {
    // What the test's clients call from now on: after the newest call recorded so far.
    const { id } = await workbench.api.query<{ id: string | null }>("calls.newestCall");
    const control = clientControl({ ...workbench, token: workbenchToken }, id);
    await use(control);
    // Undone: every fault a test set (the kit's own surface has no other faults to keep).
    await workbench.api.mutate("calls.faults.clear", {});
  },

  clock: async ({ workbench }, use) => {
    const offset = async () => (await workbench.api.query<{ offsetMs: number }>("clock.show")).offsetMs;
    const before = await offset();
    await use({
      advance: async (by) => void (await workbench.api.mutate("clock.advance", { byMs: durationMs(by) })),
      now: async () => new Date((await workbench.api.query<{ now: string }>("clock.show")).now),
    });
    // Undone: back to the offset the test started with (the clock only jumps forward, so via a reset).
    if ((await offset()) !== before) {
      await workbench.api.mutate("clock.reset");
      if (before > 0) await workbench.api.mutate("clock.advance", { byMs: before });
    }
  },

  receivers: async ({ workbench }, use) => {
    const { api } = workbench;
    const faulted = new Set<string>();
    const networkFaulted = new Set<string>();
    const declared = new Map<string, { version: string; allowsMonitoring?: boolean; set: Record<string, boolean> }>();
    const window = (o: FaultOptions = {}) => ({
      ...(o.for === undefined ? {} : { for: typeof o.for === "number" ? `${o.for}ms` : o.for }),
      ...(o.at === undefined ? {} : { at: o.at }),
    });
    await use({
      embedded: (key) => new EmbeddedReceiver(api, key),
      fault: async (key, mode, options) => {
        faulted.add(key);
        await api.mutate("receivers.setFault", { key, mode, ...window(options) });
      },
      networkFault: async (key, mode, options) => {
        networkFaulted.add(key);
        await api.mutate("receivers.setNetworkFault", { key, mode, ...window(options) });
      },
      capabilities: async (key, flags, options = {}) => {
        if (!declared.has(key)) {
          const r = await api.query<{
            declaration: { version: string; allowsMonitoring?: boolean };
            flags: Array<{ flag: string; enabled: boolean }>;
          }>("receivers.get", { key });
          declared.set(key, {
            version: r.declaration.version,
            allowsMonitoring: r.declaration.allowsMonitoring,
            set: Object.fromEntries(r.flags.map((f) => [f.flag, f.enabled])),
          });
        }
        await api.mutate("receivers.setCapabilities", { key, set: flags, ...options });
      },
    });
    for (const key of faulted) await api.mutate("receivers.setFault", { key, mode: "ok" });
    for (const key of networkFaulted) await api.mutate("receivers.setNetworkFault", { key, mode: "ok" });
    for (const [key, d] of declared)
      await api.mutate("receivers.setCapabilities", {
        key,
        set: d.set,
        version: d.version,
        ...(d.allowsMonitoring === undefined ? {} : { allowsMonitoring: d.allowsMonitoring }),
      });
  },

  externalReceiver: async ({ workbench }, use) => {
    const { api } = workbench;
    /** Resolves once the platform has read the receiver's /about again and accepted it (events flow from then on). */
    async function discovered(integration: string, receiver: ExternalReceiver, readsBefore: number) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const all =
          await api.query<
            Array<{ key: string; resolvedUrl: string; discovery: { status: string; error: string | null } | null }>
          >("integrations.list");
        const current = all.find((i) => i.key === integration);
        if (
          receiver.aboutServed > readsBefore &&
          current?.resolvedUrl === receiver.url &&
          current.discovery?.status === "active"
        )
          return;
        if (Date.now() > deadline)
          throw new Error(
            `${integration} was not discovered at ${receiver.url} within 15 s: ${JSON.stringify(current?.discovery ?? null)}`,
          );
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const attached: Array<{
      integration: string;
      previous: { url: string; insecureDev: boolean };
      receiver: ExternalReceiver;
    }> = [];
    await use({
      attach: async (integration = "north-psap", options = {}) => {
        const all =
          await api.query<Array<{ key: string; receiverUrl: string; insecureDev: boolean }>>("integrations.list");
        const current = all.find((i) => i.key === integration);
        if (!current)
          throw new Error(`no integration "${integration}" (there are: ${all.map((i) => i.key).join(", ")})`);
        const receiver = await ExternalReceiver.start(options);
        attached.push({
          integration,
          previous: { url: current.receiverUrl, insecureDev: current.insecureDev },
          receiver,
        });
        await api.mutate("integrations.set", { key: integration, url: receiver.url, insecureDev: true });
        await discovered(integration, receiver, 0);
        return receiver;
      },
      rediscover: async (integration = "north-psap") => {
        const entry = attached.find((a) => a.integration === integration);
        const reads = entry?.receiver.aboutServed ?? 0;
        await api.mutate("integrations.rediscover", { key: integration });
        if (entry) await discovered(integration, entry.receiver, reads);
      },
    });
    for (const { integration, previous, receiver } of attached.reverse()) {
      await api.mutate("integrations.set", { key: integration, ...previous });
      await receiver.close();
    }
  },
});
