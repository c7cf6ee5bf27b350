// The seed of docs/spec/workbench-decisions.md, with its fixed ids, so tests,
// docs and scenarios can name them. Applied once to an empty database at
// start-up, and again by `workbench seed reset`.
import type { DbClient } from "../server/platform/db/client.ts";
import type { Clock } from "../server/platform/clock/clock.ts";
import { hashClientSecret } from "../server/identity/client-secret.ts";
import { INBOUND_SCOPES, USER_SIGNIN_SCOPE, USERNAME_REQUIRED_SCOPE } from "../server/identity/scopes.ts";
import { seedDemoIncidents } from "../server/incidents/seed-demo-incidents.ts";
import { defaultDeclaration } from "../server/reference-receiver/capabilities.ts";

export { AGENCY, USER } from "../server/directory/seed-ids.ts";
import { AGENCY, USER } from "../server/directory/seed-ids.ts";

/** The dev-login password of every seeded user (dev portal form only). */
export const DEV_PASSWORD = "workbench";

/**
 * The fictional city of the seed: longitudes 10.70–10.85, latitudes 59.90–60.00.
 * North PSAP, Central EMS and Fire and Rescue cover the northern half, South PSAP the southern.
 */
const NORTH_HALF = polygon([
  [10.7, 59.95],
  [10.85, 59.95],
  [10.85, 60.0],
  [10.7, 60.0],
]);
const SOUTH_HALF = polygon([
  [10.7, 59.9],
  [10.85, 59.9],
  [10.85, 59.95],
  [10.7, 59.95],
]);

function polygon(corners: Array<[number, number]>) {
  return { type: "Polygon", coordinates: [[...corners, corners[0]!]] };
}

export const SEED_CLIENTS = {
  partnerCad: { id: "partner-cad", secret: "partner-cad-secret" },
  partnerReadonly: { id: "partner-readonly", secret: "partner-readonly-secret" },
  portalSpa: { id: "portal-spa" },
} as const;

export async function seedDatabase(options: { db: DbClient; clock: Clock; publicUrl: string }): Promise<void> {
  const { db, clock, publicUrl } = options;
  const createdAt = clock.now();
  const [cadHash, readonlyHash] = await Promise.all([
    hashClientSecret(SEED_CLIENTS.partnerCad.secret),
    hashClientSecret(SEED_CLIENTS.partnerReadonly.secret),
  ]);

  await db.$transaction(async (tx) => {
    await tx.agency.createMany({
      data: [
        { id: AGENCY.northPsap, displayName: "North PSAP", type: "Psap", area: NORTH_HALF, createdAt },
        { id: AGENCY.centralEms, displayName: "Central EMS", type: "Ems", area: NORTH_HALF, createdAt },
        { id: AGENCY.fireRescue, displayName: "Fire and Rescue", type: "Fire", area: NORTH_HALF, createdAt },
        { id: AGENCY.southPsap, displayName: "South PSAP", type: "Psap", area: SOUTH_HALF, createdAt },
      ],
    });
    const north = [AGENCY.northPsap, AGENCY.centralEms, AGENCY.fireRescue];
    await tx.agencyRelation.createMany({
      data: north.flatMap((fromId) => north.filter((toId) => toId !== fromId).map((toId) => ({ fromId, toId }))),
    });

    await tx.client.createMany({
      data: [
        {
          id: SEED_CLIENTS.partnerCad.id,
          displayName: "Partner CAD",
          secretHash: cadHash,
          scopes: [...INBOUND_SCOPES, USERNAME_REQUIRED_SCOPE, USER_SIGNIN_SCOPE],
          grantTypes: ["client_credentials"],
          redirectUris: [],
          createdAt,
        },
        {
          id: SEED_CLIENTS.partnerReadonly.id,
          displayName: "Partner read-only",
          secretHash: readonlyHash,
          scopes: ["agency.read"],
          grantTypes: ["client_credentials"],
          redirectUris: [],
          createdAt,
        },
        {
          id: SEED_CLIENTS.portalSpa.id,
          displayName: "Portal SPA",
          secretHash: null,
          scopes: ["openid", "profile", "offline_access"],
          grantTypes: ["authorization_code", "refresh_token"],
          // A path: resolves against {portal_url} at request time, so changing PORT keeps portal sign-in working.
          redirectUris: ["/portal/callback"],
          createdAt,
        },
      ],
    });
    await tx.clientAgency.createMany({
      data: [
        ...north.map((agencyId) => ({ clientId: SEED_CLIENTS.partnerCad.id, agencyId })),
        { clientId: SEED_CLIENTS.partnerReadonly.id, agencyId: AGENCY.northPsap },
      ],
    });

    const users = [
      {
        id: USER.dispatcherNorth,
        username: "dispatcher.north",
        name: "Nora North",
        email: "dispatcher.north@example.test",
        role: "Dispatcher",
        agencyId: AGENCY.northPsap,
        canSignIn: true,
      },
      {
        id: USER.dispatcherEms,
        username: "dispatcher.ems",
        name: "Emil Ems",
        email: "dispatcher.ems@example.test",
        role: "Dispatcher",
        agencyId: AGENCY.centralEms,
        canSignIn: true,
      },
      {
        id: USER.dispatcherFire,
        username: "dispatcher.fire",
        name: "Fiona Fire",
        email: "dispatcher.fire@example.test",
        role: "Dispatcher",
        agencyId: AGENCY.fireRescue,
        canSignIn: true,
      },
      {
        id: USER.lockedUser,
        username: "locked.user",
        name: "Lars Locked",
        email: "locked.user@example.test",
        role: "Dispatcher",
        agencyId: AGENCY.northPsap,
        canSignIn: false,
      },
      {
        id: USER.jSmithLower,
        username: "j.smith",
        name: "Jane Smith",
        email: "jane.smith@example.test",
        role: "Dispatcher",
        agencyId: AGENCY.northPsap,
        canSignIn: true,
      },
      {
        id: USER.jSmithUpper,
        username: "J.Smith",
        name: "John Smith",
        email: "john.smith@example.test",
        role: "Supervisor",
        agencyId: AGENCY.northPsap,
        canSignIn: true,
      },
    ];
    await tx.user.createMany({ data: users.map((u) => ({ ...u, createdAt })) });
    // locked.user is assigned too, so that "cannot sign in" is about the user, not the client.
    await tx.userClient.createMany({
      data: users.map((u) => ({ userId: u.id, clientId: SEED_CLIENTS.partnerCad.id })),
    });

    // Embedded receivers are stored as paths: they resolve against this
    // workbench's own PUBLIC_URL at delivery time, so changing PORT keeps them working.
    await tx.integration.createMany({
      data: [
        {
          key: "north-psap",
          agencyId: AGENCY.northPsap,
          receiverUrl: "/receivers/north-psap",
          insecureDev: true,
          createdAt,
        },
        {
          key: "central-ems",
          agencyId: AGENCY.centralEms,
          receiverUrl: "/receivers/central-ems",
          insecureDev: true,
          createdAt,
        },
        {
          key: "fire-rescue",
          agencyId: AGENCY.fireRescue,
          receiverUrl: "/receivers/fire-rescue",
          insecureDev: true,
          createdAt,
        },
      ],
    });

    // fire-rescue's embedded receiver speaks the legacy v2 contract (its /about says 2.0),
    // with v3 declared beside it, ready for a cutover rehearsal (workbench-decisions.md, seed table).
    await tx.receiverCapabilities.create({
      data: {
        integrationKey: "fire-rescue",
        declaration: { ...defaultDeclaration(), version: "2.0" },
        updatedAt: createdAt,
      },
    });
  });
  // Two Demo incidents (spec, Delivery rule 6) with fixed ids (server/incidents/seed-demo-incidents.ts), made
  // through the aggregate, which runs its own transactions (on the pg pool): so after the commit
  // that makes their agencies exist.
  await seedDemoIncidents({ db, clock, portalUrl: publicUrl, agencies: AGENCY });
}

/** True when the database holds no workbench data yet. */
export async function isDatabaseEmpty(db: DbClient): Promise<boolean> {
  return (await db.agency.count()) === 0;
}

/**
 * Dev data back to the seed: empties every workbench table (those of later migrations
 * included, found from the catalog) except the migration record, the clock and who may use
 * the workbench (members, their sessions, API tokens: a reset must not lock its admin out).
 */
export async function resetToSeed(options: { db: DbClient; clock: Clock; publicUrl: string }): Promise<void> {
  const { db } = options;
  const tables = await db.$queryRaw<Array<{ tablename: string }>>`
    SELECT tablename::text AS tablename FROM pg_tables
    WHERE schemaname = current_schema() AND tablename NOT IN ('_prisma_migrations', 'WorkbenchClock', 'WorkbenchMember', 'WorkbenchSession', 'WorkbenchApiToken')`;
  if (tables.length > 0) {
    const list = tables.map((t) => `"${t.tablename.replaceAll('"', '""')}"`).join(", ");
    // Table names come from the catalog, not from input; $executeRawUnsafe is needed for identifiers.
    await db.$executeRawUnsafe(`TRUNCATE ${list} CASCADE`);
  }
  await seedDatabase(options);
}
