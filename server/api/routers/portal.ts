// The dispatcher portal's API: every procedure needs the portal session
// (cookie wb_portal_session, the one LoginUserByToken and the login form set)
// and sees only incidents of the user's agency or its related agencies.
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { createTRPCRouter, publicProcedure } from "../trpc.ts";
import { findPortalSession, readSessionCookie } from "../../identity/portal-sessions.ts";
import { readIncidentActivity, sortByActivity } from "../../incidents/incident-activity.ts";
import { listIncidentChanges, listIncidents } from "../../incidents/list-incidents.ts";
import { isVisibleTo, visibleAgencies } from "../../incidents/portal-visibility.ts";
import { readIncident } from "../../incidents/read-incident.ts";
import { addChatMessage, lastCallerMessageTimes, listChatMessages } from "../../simulator/chat-messages.ts";
import { describeClock } from "../../workbench/clock-control.ts";

const portalProcedure = publicProcedure.meta({ access: "portal" }).use(async ({ ctx, next }) => {
  const session = await findPortalSession({
    db: ctx.db,
    clock: ctx.clock,
    sessionId: readSessionCookie(ctx.headers.get("cookie")),
  });
  if (!session) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to the portal first." });
  const agencies = await visibleAgencies({ db: ctx.db, agencyId: session.agencyId });
  return next({ ctx: { session, agencies } });
});

const withVisibleIncident = portalProcedure
  .input(z.object({ incidentId: z.uuid() }))
  .use(async ({ ctx, input, next }) => {
    const incident = await readIncident({ db: ctx.db, incidentId: input.incidentId });
    if (
      !incident ||
      !isVisibleTo(
        incident.snapshot,
        ctx.agencies.map((a) => a.id),
      )
    )
      throw new TRPCError({ code: "NOT_FOUND", message: "No incident with that ID is visible to your agency." });
    return next({ ctx: { incident } });
  });

export const portalRouter = createTRPCRouter({
  agencies: portalProcedure.query(({ ctx }) => ctx.agencies),
  /**
   * The workbench clock for the portal's ages and header clock. The dashboard's clock.show needs a
   * dashboard role, which a dispatcher signed in through the portal does not hold in shared mode.
   */
  clock: portalProcedure.query(({ ctx }) => describeClock(ctx.clock)),
  incidents: portalProcedure
    .input(
      z.object({
        state: z.enum(["open", "closed", "all"]).default("open"),
        purpose: z.enum(["Real", "Test", "Demo"]).optional(),
        agencyId: z.uuid().optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      const agencyId = input.agencyId ?? ctx.session.agencyId;
      if (!ctx.agencies.some((a) => a.id === agencyId))
        throw new TRPCError({ code: "FORBIDDEN", message: "That agency's incidents are not visible to you." });
      const rows = await listIncidents({
        db: ctx.db,
        input: { state: input.state, purpose: input.purpose, agencyId, take: 200 },
      });
      const incidentIds = rows.map((r) => r.id);
      const [activity, callerWrote] = await Promise.all([
        readIncidentActivity({ db: ctx.db, incidentIds }),
        lastCallerMessageTimes({ db: ctx.db, incidentIds }),
      ]);
      return sortByActivity(
        rows.map((r) => ({
          ...r,
          lastUpdateAtUtc: activity.get(r.id)?.lastUpdateAtUtc ?? r.createdAtUtc,
          latestLocation: activity.get(r.id)?.latestLocation ?? null,
          lastCallerMessageAtUtc: callerWrote.get(r.id) ?? null,
        })),
      );
    }),
  incident: withVisibleIncident.query(async ({ ctx }) => {
    const { incident } = ctx;
    const changes = await listIncidentChanges({ db: ctx.db, incidentId: incident.id });
    return {
      id: incident.id,
      purpose: incident.purpose,
      version: incident.version,
      closedAtUtc: incident.closedAt?.toISOString() ?? null,
      snapshot: incident.snapshot,
      changes,
    };
  }),
  chatMessages: withVisibleIncident.query(({ ctx }) => listChatMessages({ db: ctx.db, incidentId: ctx.incident.id })),
  /** Only a dispatcher of an agency acting on the incident (Owner or Accepted) answers the caller; related agencies read. */
  sendChatMessage: withVisibleIncident
    .input(z.object({ text: z.string().trim().min(1).max(2000) }))
    .mutation(({ ctx, input }) => {
      const own = ctx.incident.snapshot.involvedAgencies.find((a) => a.id === ctx.session.agencyId);
      if (own?.collaboration !== "Owner" && own?.collaboration !== "Accepted")
        throw new TRPCError({
          code: "FORBIDDEN",
          message: "Only an agency acting on this incident answers the caller.",
        });
      return addChatMessage({
        db: ctx.db,
        clock: ctx.clock,
        incidentId: ctx.incident.id,
        author: "Dispatcher",
        text: input.text,
      });
    }),
});
