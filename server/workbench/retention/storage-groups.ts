// What the workbench keeps, grouped as the Admin page shows it (docs/retention.md): the kinds the
// retention pruner deletes after RETENTION_DAYS, and what it always keeps. Every table of the schema
// that grows with use is in one group; the rest of the database (directory, settings, PostgreSQL's
// own catalog) is shown as one remainder.
import type { RetentionKind } from "./retention-policy.ts";

export type StorageGroup = {
  id: RetentionKind | "incidents" | "lanes" | "replicas";
  label: string;
  /** "pruned": deleted RETENTION_DAYS after it finished; "kept": never deleted by the pruner. */
  policy: "pruned" | "kept";
  tables: readonly string[];
};

export const STORAGE_GROUPS: readonly StorageGroup[] = [
  {
    id: "deliveries",
    label: "Deliveries (bodies and attempts)",
    policy: "pruned",
    tables: ["WebhookDelivery", "WebhookAttempt"],
  },
  {
    id: "receiverRecords",
    label: "Receiver records",
    policy: "pruned",
    tables: ["ReceiverRecord"],
  },
  {
    id: "conformanceRuns",
    label: "Conformance runs",
    policy: "pruned",
    tables: ["ConformanceRun"],
  },
  {
    id: "signInArtefacts",
    label: "Sign-in artefacts (tokens, codes, sessions, throttle rows)",
    policy: "pruned",
    tables: [
      "SigninToken",
      "AuthorizationCode",
      "RefreshToken",
      "PortalSession",
      "WorkbenchSession",
      "GuessThrottle",
      "GuessTrust",
    ],
  },
  {
    id: "incidents",
    label: "Incidents and their change history",
    policy: "kept",
    tables: [
      "Incident",
      "IncidentChange",
      "IncidentPosition",
      "IncidentAgency",
      "Call",
      "SimulatedSms",
      "SimulatedChatMessage",
    ],
  },
  {
    id: "lanes",
    label: "Webhook lanes (what each receiver was sent)",
    policy: "kept",
    tables: ["WebhookLane"],
  },
  {
    id: "replicas",
    label: "Receiver replicas (each receiver's copy of its incidents)",
    policy: "kept",
    tables: ["ReceiverIncident", "ReceiverTrackPosition", "ReceiverProgress"],
  },
];

export const GROUPED_TABLES: readonly string[] = STORAGE_GROUPS.flatMap((g) => g.tables);
