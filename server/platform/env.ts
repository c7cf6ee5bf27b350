// Environment, validated once at boot (t3 env.js style). Every default makes
// the embedded mode work with no configuration at all.
import path from "node:path";
import { z } from "zod";
import { isLoopbackHost, type AccessMode } from "./network/loopback.ts";
import { parseAllowList } from "./network/outbound-policy.ts";
import { OTEL_ENV, telemetryOf } from "./tracing/telemetry-env.ts";

const url = z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, ""));

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /**
     * The address the server binds. Loopback by default: one developer on one machine, no
     * sign-in. Any other address (0.0.0.0, a LAN address) shares the workbench, which then
     * requires a workbench session on every dashboard page and tRPC call.
     */
    HOST: z.string().min(1).default("127.0.0.1"),
    /**
     * `auto`: shared (signed-in) exactly when HOST is not loopback. `shared`: signed-in even on
     * loopback (behind a reverse proxy that publishes it). There is no way to open a non-loopback
     * bind without sign-in.
     */
    WORKBENCH_ACCESS: z.enum(["auto", "shared"]).default("auto"),
    /** Extra host names (comma-separated, optionally with :port) the server answers besides its own origins. */
    ALLOWED_HOSTS: z.string().default(""),
    /**
     * Outbound allow-list (comma-separated host names, *.suffix, IP addresses, CIDRs): what
     * integrations and conformance runs may reach beyond the default policy (private ranges,
     * insecure-dev beyond loopback, loopback in shared mode). Never link-local or cloud metadata.
     */
    OUTBOUND_ALLOW: z
      .string()
      .max(8_000)
      .default("")
      .superRefine((text, ctx) => {
        try {
          parseAllowList(text);
        } catch (e) {
          ctx.addIssue({ code: "custom", message: (e as Error).message.replace(/^OUTBOUND_ALLOW: /, "") });
        }
      }),
    /**
     * `true` keeps the seeded client secrets and the dev portal password working on a shared
     * workbench (they are public: written in the seed and the docs). Local mode always accepts them.
     */
    ALLOW_DEV_CREDENTIALS: z.stringbool().default(false),
    /** Shared mode: the password of the member `admin`, created (or reset to it) at start. */
    WORKBENCH_ADMIN_PASSWORD: z.string().min(12, "must be at least 12 characters").max(200).optional(),
    PUBLIC_URL: url.optional(),
    AUTH_URL: url.optional(),
    BASE_URL: url.optional(),
    PORTAL_URL: url.optional(),
    /** Any PostgreSQL server; when unset the workbench runs its own (embedded). */
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL")
      .optional(),
    DATA_DIR: z.string().default(".data"),
    /** Preferred port of the embedded PostgreSQL. */
    EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(5499),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /** Append the log (JSON lines) to this file instead of writing it to the standard output. */
    LOG_FILE: z.string().min(1).max(1000).optional(),
    /** `false` skips seeding an empty database (e.g. a shared staging server). */
    SEED_ON_EMPTY: z.stringbool().default(true),
    /** Simulated live-video length: an activated live video ends on its own after this many seconds of workbench time. */
    LIVE_VIDEO_DURATION_S: z.coerce.number().int().min(1).max(86_400).default(120),
    /**
     * Scale-out on one database: `false` makes an API-only process. It still plans every
     * change's deliveries in the change's own transaction (the outbox), but sends none;
     * processes with the default `true` send them (any number, FOR UPDATE SKIP LOCKED).
     */
    DELIVERY_WORKERS: z.stringbool().default(true),
    /** `false`: partner clients' calls to /connect/token, /v1 and /Account are not recorded (docs/api-calls.md). */
    RECORD_CLIENT_CALLS: z.stringbool().default(true),
    /**
     * Days of workbench time that finished deliveries, receiver records, conformance runs and spent
     * sign-in artefacts are kept before the retention pruner deletes them; 0 keeps them forever.
     * Incidents and their change history are always kept (docs/retention.md).
     */
    RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(14),
    /**
     * Set by `workbench up` / `--ephemeral`: the process deletes its DATA_DIR when it stops (only a
     * directory created for it under the temporary folder), and stops when its parent goes away.
     */
    WORKBENCH_EPHEMERAL: z.stringbool().default(false),
    ...OTEL_ENV,
    /**
     * A trace UI's URL for one trace, `{traceId}` standing for the id (Jaeger:
     * `http://localhost:16686/trace/{traceId}`): the inspector links an attempt's trace there.
     */
    TRACE_UI_URL: z
      .string()
      .max(500)
      .regex(/^https?:\/\/[^\s]*\{traceId\}/, "must be an http(s) URL containing {traceId}")
      .optional(),
  })
  .transform((e) => {
    const publicUrl = e.PUBLIC_URL ?? `http://localhost:${e.PORT}`;
    return {
      ...e,
      PUBLIC_URL: publicUrl,
      /** {auth_url}: also the token issuer `iss`, exactly. */
      AUTH_URL: e.AUTH_URL ?? publicUrl,
      /** {base_url} of the inbound API. */
      BASE_URL: e.BASE_URL ?? publicUrl,
      /** {portal_url}: the trusted portal origin. */
      PORTAL_URL: e.PORTAL_URL ?? publicUrl,
      DATA_DIR: path.resolve(e.DATA_DIR),
      /** `local`: loopback only, no sign-in. `shared`: reachable beyond loopback, every dashboard call signed in. */
      ACCESS_MODE: accessModeOf(e.WORKBENCH_ACCESS, e.HOST),
      ALLOWED_HOSTS: e.ALLOWED_HOSTS.split(",")
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
      OUTBOUND_ALLOW: parseAllowList(e.OUTBOUND_ALLOW).entries,
      /** What goes out over OTLP (docs/observability.md): nothing unless an endpoint is set. */
      TELEMETRY: telemetryOf(e),
    };
  });

export type { AccessMode };

function accessModeOf(access: "auto" | "shared", host: string): AccessMode {
  return access === "shared" || !isLoopbackHost(host) ? "shared" : "local";
}
export type Env = z.infer<typeof EnvSchema>;

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  return result.data;
}
