// Plausible caller data for actions given without details (and the scenarios).
import type { TDeviceInfo, TMedicData } from "../incidents/snapshot.schema.ts";

export function sampleMedicData(): TMedicData {
  const no = { reported: false };
  return {
    person: { sex: "Male", height: 180, weight: 85, yearOfBirth: 1961 },
    conditions: {
      diabetes: no,
      epilepsy: no,
      heart: { reported: true },
      lungs: no,
      psychiatric: no,
      description: "Prior myocardial infarction (2019)",
      pregnancy: { reported: false, description: null },
    },
    assistance: { hearing: no, vision: no, speech: no, description: null },
    notes: { caller: null },
    medications: "Acetylsalicylic acid 75 mg, metoprolol",
    allergies: "Penicillin",
    organDonation: { status: "Donor", description: null },
    advanceDirectives: null,
  };
}

export function sampleDeviceInfo(overrides: Partial<TDeviceInfo> = {}): TDeviceInfo {
  return {
    batteryLevel: 64,
    operatingSystem: "Android",
    operatingSystemVersion: "15",
    internetConnectionType: "Cellular4G",
    liveVideoSupport: true,
    automaticDetections: { crashDetected: false, fallDetected: false },
    ...overrides,
  };
}
