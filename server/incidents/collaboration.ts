// Collaboration (spec state table): an acting agency invites one of its
// relatedAgencies (Pending); the invited agency accepts or declines. Every
// refused transition is a 409 that changes nothing.
import { Prisma } from "../platform/db/client.ts";
import { AppError } from "../platform/errors.ts";
import { applyIncidentChange } from "./apply-change.ts";
import { isUuid } from "./db-handle.ts";
import type { TInvolvedAgency } from "./snapshot.schema.ts";
import type { IncidentOperation } from "./change-types.ts";

export async function inviteAgency(
  options: IncidentOperation & { access: { agencyId: string }; invitedAgencyId: string },
) {
  const inviterId = options.access.agencyId;
  return applyIncidentChange({
    ...options,
    transactional: true,
    mutate: async ({ tx, incident, now }) => {
      const [relation] = isUuid(options.invitedAgencyId)
        ? await tx.query<{ fromName: string; toName: string }>(Prisma.sql`
        SELECT f."displayName" AS "fromName", t."displayName" AS "toName"
        FROM "AgencyRelation" r JOIN "Agency" f ON f.id = r."fromId" JOIN "Agency" t ON t.id = r."toId"
        WHERE r."fromId" = ${inviterId}::uuid AND r."toId" = ${options.invitedAgencyId}::uuid`)
        : [];
      if (!relation)
        throw new AppError(
          "AgencyNotAllowed",
          "That agency may not be invited: choose one of GET /v1/agency/info relatedAgencies.",
          [{ field: "agencyId", message: "not among relatedAgencies" }],
        );
      const current = incident.snapshot.involvedAgencies.find((a) => a.id === options.invitedAgencyId);
      if (current?.collaboration === "Pending")
        throw new AppError("CollaborationInvitationPending", "An invitation for that agency is still open.");
      if (current?.collaboration === "Owner" || current?.collaboration === "Accepted")
        throw new AppError("CollaborationAlreadyActive", "That agency already collaborates on this incident.");

      const entry: TInvolvedAgency = {
        id: options.invitedAgencyId,
        displayName: relation.toName,
        collaboration: "Pending",
        invitedBy: { id: inviterId, displayName: relation.fromName },
      };
      incident.snapshot.involvedAgencies = [
        ...incident.snapshot.involvedAgencies.filter((a) => a.id !== entry.id),
        entry,
      ];
      await tx.execute(Prisma.sql`
        INSERT INTO "IncidentAgency" ("incidentId", "agencyId", collaboration, "invitedByAgencyId", "updatedAt")
        VALUES (${incident.id}::uuid, ${entry.id}::uuid, 'Pending', ${inviterId}::uuid, ${now}::timestamptz)
        ON CONFLICT ("incidentId", "agencyId") DO UPDATE SET collaboration = 'Pending', "invitedByAgencyId" = EXCLUDED."invitedByAgencyId", "updatedAt" = EXCLUDED."updatedAt"`);
      return { changes: [{ kind: "involvedAgency.invited", agencyId: entry.id }], result: entry };
    },
  });
}

/** The invited agency (any involvement may ask; only Pending may resolve). */
export async function resolveInvitation(
  options: IncidentOperation & { access: { agencyId: string }; decision: "Accepted" | "Declined" },
) {
  const agencyId = options.access.agencyId;
  return applyIncidentChange({
    ...options,
    access: { agencyId, anyInvolvement: true },
    transactional: true,
    mutate: async ({ tx, incident, now }) => {
      if (incident.collaboration === "Accepted" || incident.collaboration === "Declined")
        throw new AppError(
          "CollaborationInvitationAlreadyResolved",
          `The invitation was already ${incident.collaboration.toLowerCase()}.`,
        );
      if (incident.collaboration !== "Pending")
        throw new AppError(
          "NoPendingCollaborationInvitation",
          "There is no open invitation for the token's agency on this incident.",
        );
      const entry = incident.snapshot.involvedAgencies.find((a) => a.id === agencyId)!;
      entry.collaboration = options.decision;
      await tx.execute(Prisma.sql`
        UPDATE "IncidentAgency" SET collaboration = ${options.decision}::"CollaborationState", "updatedAt" = ${now}::timestamptz
        WHERE "incidentId" = ${incident.id}::uuid AND "agencyId" = ${agencyId}::uuid`);
      return { changes: [{ kind: "involvedAgency.collaboration.changed", agencyId }], result: { ...entry } };
    },
  });
}
