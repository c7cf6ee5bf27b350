// The words at the top of an incident: its title and the medical facts a dispatcher must not
// miss. Pure, so it is unit-tested.
import { REPORTED_PROBLEMS, type TCaller, type TMedicData } from "@/server/incidents/snapshot.schema";
import { PROBLEM_LABELS } from "./labels";

export type ReportedProblem = (typeof REPORTED_PROBLEMS)[number];

/** The problems that ARE reported, in the spec's order (the others are no information worth a line). */
export function reportedProblemsOf(problems: TCaller["reportedProblems"]): ReportedProblem[] {
  return REPORTED_PROBLEMS.filter((p) => problems[p]);
}

/**
 * A headline a dispatcher recognises: the label when there is one, else the reported problems
 * ("Unconscious, not breathing"), else who is calling, else the channel it came from. Never a raw id.
 */
export function incidentTitle(incident: {
  label: string | null;
  problems: ReportedProblem[];
  callerName: string | null;
  callerPhone: string | null;
}): string {
  if (incident.label) return incident.label;
  if (incident.problems.length) {
    const [first, ...rest] = incident.problems.map((p) => PROBLEM_LABELS[p]);
    return [first, ...rest.map((r) => r.toLowerCase())].join(", ");
  }
  if (incident.callerName) return `Call from ${incident.callerName}`;
  if (incident.callerPhone) return `Call from ${incident.callerPhone}`;
  return "Call, nothing reported yet";
}

export type MedicalFlag = { key: string; text: string; tone: "danger" | "warning" | "info" };

const CONDITION_TEXT = {
  heart: "Heart condition",
  lungs: "Lung condition",
  diabetes: "Diabetes",
  epilepsy: "Epilepsy",
  psychiatric: "Psychiatric condition",
} as const;

/**
 * The medical facts that change what a responder does first: conditions, allergies,
 * medications, pregnancy, assistance needs and the handset's crash or fall detection. Only what
 * is reported; an empty list means nothing is known, not that all is well.
 */
export function keyMedicalFlags(medic: TMedicData | null, device?: TCaller["deviceInfo"]): MedicalFlag[] {
  const flags: MedicalFlag[] = [];
  if (device?.automaticDetections.crashDetected) flags.push({ key: "crash", text: "Crash detected", tone: "danger" });
  if (device?.automaticDetections.fallDetected) flags.push({ key: "fall", text: "Fall detected", tone: "danger" });
  if (!medic) return flags;
  for (const c of Object.keys(CONDITION_TEXT) as Array<keyof typeof CONDITION_TEXT>)
    if (medic.conditions[c].reported) flags.push({ key: c, text: CONDITION_TEXT[c], tone: "warning" });
  if (medic.conditions.pregnancy.reported)
    flags.push({
      key: "pregnancy",
      text: medic.conditions.pregnancy.description ? `Pregnant: ${medic.conditions.pregnancy.description}` : "Pregnant",
      tone: "warning",
    });
  if (medic.allergies) flags.push({ key: "allergies", text: `Allergy: ${medic.allergies}`, tone: "danger" });
  if (medic.medications) flags.push({ key: "medications", text: `Medications: ${medic.medications}`, tone: "info" });
  for (const a of ["hearing", "vision", "speech"] as const)
    if (medic.assistance[a].reported) flags.push({ key: a, text: `Needs help with ${a}`, tone: "info" });
  return flags;
}
