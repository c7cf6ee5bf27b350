// Reading calls back for the API calls page, the CLI and the kit (docs/api-calls.md): the list,
// newest first, with each call's advice; one call whole, with the changes it recorded and the
// deliveries they planned; a client's verdict. Advice needs a call's neighbours (the token before
// it, the 503 it retried), so it is computed over the client's calls of the window before the
// list's own filters apply. Bounded: a window of at most 24 hours and 5,000 calls.
import { z } from "zod";
import type { Clock } from "../platform/clock/clock.ts";
import type { DbClient } from "../platform/db/client.ts";
import { AppError } from "../platform/errors.ts";
import { CALL_SURFACES, type RequestFacts, type ResponseFacts, type TokenFacts } from "./call-record.ts";
import { adviseCalls, verdictOf, type ClientVerdict } from "./advice/advise-calls.ts";
import type { Advice } from "./advice/advice-rules.ts";
import type { CallForAdvice } from "./advice/call-for-advice.ts";

const WINDOWS = { "15m": 15 * 60_000, "1h": 3_600_000, "6h": 6 * 3_600_000, "24h": 86_400_000 } as const;
/** The most calls one window reads. */
export const MAX_WINDOW_CALLS = 5_000;

export const ZListCallsInput = z
  .object({
    clientId: z.string().trim().min(1).max(64).optional(),
    surface: z.enum(CALL_SURFACES).optional(),
    operation: z.string().trim().min(1).max(200).optional(),
    status: z.number().int().min(0).max(599).optional(),
    /** A problem code or OAuth error, e.g. ValidationFailed, invalid_client. */
    problemCode: z.string().trim().min(1).max(100).optional(),
    incidentId: z.uuid().optional(),
    within: z.enum(["15m", "1h", "6h", "24h"]).default("1h"),
    hasAdvice: z.boolean().optional(),
    /** Only calls newer than this id (the live view's "N new"). */
    afterId: z
      .string()
      .regex(/^\d{1,19}$/)
      .optional(),
    limit: z.number().int().min(1).max(500).default(100),
  })
  .strict();
export type TListCallsInput = z.input<typeof ZListCallsInput>;

export type CallSummary = {
  id: string;
  receivedAt: string;
  durationMs: number;
  surface: string;
  operation: string;
  method: string;
  path: string;
  clientId: string | null;
  agencyId: string | null;
  username: string | null;
  status: number;
  problemCode: string | null;
  fault: string | null;
  console: boolean;
  incidentId: string | null;
  advice: Advice[];
};

type Row = {
  id: bigint;
  receivedAt: Date;
  durationMs: number;
  surface: string;
  operation: string;
  method: string;
  path: string;
  clientId: string | null;
  agencyId: string | null;
  username: string | null;
  status: number;
  problemCode: string | null;
  request: unknown;
  requestBody: string | null;
  response: unknown;
  responseBody: string | null;
  token: unknown;
  tokenDigest: string | null;
  fault: string | null;
  incidentId: string | null;
  changeSeqs: number[];
  traceId: string | null;
  console: boolean;
};

const forAdvice = (r: Row): CallForAdvice => ({
  id: String(r.id),
  receivedAt: r.receivedAt,
  surface: r.surface as CallForAdvice["surface"],
  operation: r.operation,
  method: r.method,
  clientId: r.clientId,
  status: r.status,
  problemCode: r.problemCode,
  request: r.request as RequestFacts,
  requestBody: r.requestBody,
  response: r.response as ResponseFacts,
  token: r.token as TokenFacts | null,
  fault: r.fault,
  console: r.console,
  incidentId: r.incidentId,
});

const summaryOf = (r: Row, advice: Advice[]): CallSummary => ({
  id: String(r.id),
  receivedAt: r.receivedAt.toISOString(),
  durationMs: r.durationMs,
  surface: r.surface,
  operation: r.operation,
  method: r.method,
  path: r.path,
  clientId: r.clientId,
  agencyId: r.agencyId,
  username: r.username,
  status: r.status,
  problemCode: r.problemCode,
  fault: r.fault,
  console: r.console,
  incidentId: r.incidentId,
  advice,
});

type Deps = { db: DbClient; clock: Clock };

/** The calls of a window, oldest first, with what advice needs: optionally one client's. */
async function readWindow(deps: Deps, options: { sinceMs: number; clientId?: string }): Promise<Row[]> {
  const rows = (await deps.db.clientCall.findMany({
    where: {
      receivedAt: { gte: new Date(options.sinceMs) },
      ...(options.clientId ? { clientId: options.clientId } : {}),
    },
    orderBy: { id: "desc" },
    take: MAX_WINDOW_CALLS,
  })) as Row[];
  return rows.reverse();
}

/** What advice may look up: the agencies involved in the incidents the calls name, and the clients' agencies. */
async function adviceContext(db: DbClient, rows: Row[]) {
  const incidentIds = [
    ...new Set(rows.filter((r) => r.problemCode === "IncidentNotFound" && r.incidentId).map((r) => r.incidentId!)),
  ];
  const clientIds = [...new Set(rows.map((r) => r.clientId).filter((c): c is string => c !== null))];
  const [involvements, assignments] = await Promise.all([
    incidentIds.length
      ? db.incidentAgency.findMany({
          where: { incidentId: { in: incidentIds } },
          select: { incidentId: true, agencyId: true },
        })
      : [],
    clientIds.length
      ? db.clientAgency.findMany({ where: { clientId: { in: clientIds } }, select: { clientId: true, agencyId: true } })
      : [],
  ]);
  const group = <T>(items: T[], key: (t: T) => string, value: (t: T) => string) => {
    const map = new Map<string, string[]>();
    for (const item of items) (map.get(key(item)) ?? map.set(key(item), []).get(key(item))!).push(value(item));
    return map;
  };
  return {
    incidentAgencies: group(
      involvements,
      (i) => i.incidentId,
      (i) => i.agencyId,
    ),
    clientAgencies: group(
      assignments,
      (a) => a.clientId,
      (a) => a.agencyId,
    ),
  };
}

export type CallList = {
  calls: CallSummary[];
  newestId: string | null;
  windowCut: boolean;
  dropped: { count: number; lastDropAt: string | null };
};

export async function listCalls(deps: Deps & { input: TListCallsInput }): Promise<CallList> {
  const input = ZListCallsInput.parse(deps.input);
  const sinceMs = deps.clock.nowMs() - WINDOWS[input.within];
  const rows = await readWindow(deps, { sinceMs, clientId: input.clientId });
  const advice = adviseCalls(rows.map(forAdvice), await adviceContext(deps.db, rows));
  const byCall = new Map<string, Advice[]>();
  for (const a of advice) (byCall.get(a.callId) ?? byCall.set(a.callId, []).get(a.callId)!).push(a);
  const after = input.afterId === undefined ? undefined : BigInt(input.afterId);
  const matching = rows.filter(
    (r) =>
      (input.surface === undefined || r.surface === input.surface) &&
      (input.operation === undefined || r.operation === input.operation) &&
      (input.status === undefined || r.status === input.status) &&
      (input.problemCode === undefined || r.problemCode === input.problemCode) &&
      (input.incidentId === undefined || r.incidentId === input.incidentId) &&
      (input.hasAdvice === undefined || byCall.has(String(r.id)) === input.hasAdvice) &&
      (after === undefined || r.id > after),
  );
  const newest = matching.slice(-input.limit).reverse();
  const drops = await deps.db.clientCallDrops.findUnique({ where: { id: 1 } });
  return {
    calls: newest.map((r) => summaryOf(r, byCall.get(String(r.id)) ?? [])),
    newestId: rows.length ? String(rows.at(-1)!.id) : null,
    windowCut: rows.length >= MAX_WINDOW_CALLS,
    dropped: { count: Number(drops?.dropped ?? 0), lastDropAt: drops?.lastDropAt?.toISOString() ?? null },
  };
}

export type CallDetail = CallSummary & {
  request: RequestFacts;
  requestBody: string | null;
  response: ResponseFacts;
  responseBody: string | null;
  token: TokenFacts | null;
  tokenDigest: string | null;
  traceId: string | null;
  changes: Array<{ seq: number; kind: string; producedAt: string }>;
  deliveries: Array<{ requestId: string; integrationKey: string; eventName: string; state: string; changeSeq: number }>;
  /** False for a caller who may read the list only (a viewer in shared mode): no bodies. */
  bodies: boolean;
};

/** One call whole: bodies only `withBodies`; its advice among the client's calls of the ten minutes around it. */
export async function getCall(deps: Deps & { id: string; withBodies: boolean }): Promise<CallDetail> {
  if (!/^\d{1,19}$/.test(deps.id))
    throw new AppError("ValidationFailed", "A call id is a number.", [{ field: "id", message: "not a call id" }]);
  const row = (await deps.db.clientCall.findUnique({ where: { id: BigInt(deps.id) } })) as Row | null;
  if (!row) throw new AppError("ClientCallNotFound", `No API call ${deps.id} (pruned, or never recorded).`);
  const around = (await deps.db.clientCall.findMany({
    where: {
      clientId: row.clientId,
      receivedAt: {
        gte: new Date(row.receivedAt.getTime() - 10 * 60_000),
        lte: new Date(row.receivedAt.getTime() + 10 * 60_000),
      },
    },
    orderBy: { id: "asc" },
    take: MAX_WINDOW_CALLS,
  })) as Row[];
  const advice = adviseCalls(around.map(forAdvice), await adviceContext(deps.db, around)).filter(
    (a) => a.callId === deps.id,
  );
  const [changes, deliveries] =
    row.incidentId && row.changeSeqs.length
      ? await Promise.all([
          deps.db.incidentChange.findMany({
            where: { incidentId: row.incidentId, seq: { in: row.changeSeqs } },
            select: { seq: true, kind: true, producedAt: true },
            orderBy: { seq: "asc" },
          }),
          deps.db.webhookDelivery.findMany({
            where: { incidentId: row.incidentId, changeSeq: { in: row.changeSeqs } },
            select: { requestId: true, integrationKey: true, eventName: true, state: true, changeSeq: true },
            orderBy: { id: "asc" },
            take: 100,
          }),
        ])
      : [[], []];
  const bodies = deps.withBodies;
  return {
    ...summaryOf(row, advice),
    request: bodies ? (row.request as RequestFacts) : { ...(row.request as RequestFacts), query: {} },
    requestBody: bodies ? row.requestBody : null,
    response: row.response as ResponseFacts,
    responseBody: bodies ? row.responseBody : null,
    token: row.token as TokenFacts | null,
    tokenDigest: row.tokenDigest,
    traceId: row.traceId,
    changes: changes.map((c) => ({ seq: c.seq, kind: c.kind, producedAt: c.producedAt.toISOString() })),
    deliveries: deliveries.map((d) => ({ ...d, state: String(d.state) })),
    bodies,
  };
}

export type ClientReport = ClientVerdict & { since: string; advice: Advice[] };

/** A client's verdict over its calls since `sinceMs` (at most 5,000 of them), and every piece of advice. */
export async function clientReport(deps: Deps & { clientId: string; sinceMs: number }): Promise<ClientReport> {
  const rows = await readWindow(deps, { sinceMs: deps.sinceMs, clientId: deps.clientId });
  const advice = adviseCalls(rows.map(forAdvice), await adviceContext(deps.db, rows));
  return { ...verdictOf(deps.clientId, rows.length, advice), since: new Date(deps.sinceMs).toISOString(), advice };
}
