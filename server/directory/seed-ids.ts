// The fixed ids of the seed's agencies and users (docs/spec/workbench-decisions.md,
// seed table). Here rather than in prisma/seed.ts so that domain code (the
// simulator's default agency, its scenarios) can name them without importing
// the seed itself.
export const AGENCY = {
  northPsap: "0b0c5b52-1c0e-4a57-9a57-000000000001",
  centralEms: "0b0c5b52-1c0e-4a57-9a57-000000000002",
  fireRescue: "0b0c5b52-1c0e-4a57-9a57-000000000003",
  southPsap: "0b0c5b52-1c0e-4a57-9a57-000000000004",
} as const;

export const USER = {
  dispatcherNorth: "0b0c5b52-1c0e-4a57-9a57-100000000001",
  dispatcherEms: "0b0c5b52-1c0e-4a57-9a57-100000000002",
  dispatcherFire: "0b0c5b52-1c0e-4a57-9a57-100000000003",
  lockedUser: "0b0c5b52-1c0e-4a57-9a57-100000000004",
  jSmithLower: "0b0c5b52-1c0e-4a57-9a57-100000000005",
  jSmithUpper: "0b0c5b52-1c0e-4a57-9a57-100000000006",
} as const;
