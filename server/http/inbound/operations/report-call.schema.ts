import { z } from "@hono/zod-openapi";
import { ZPhoneNumber, ZUtcInstant } from "./common.schema.ts";

export const ZReportCallRequest = z
  .strictObject({
    callerPhoneNumber: ZPhoneNumber,
    startedAtUtc: ZUtcInstant,
    endedAtUtc: ZUtcInstant.optional(),
  })
  .refine((b) => !b.endedAtUtc || Date.parse(b.endedAtUtc) >= Date.parse(b.startedAtUtc), {
    path: ["endedAtUtc"],
    message: "must not be before startedAtUtc",
  })
  .openapi("ReportCallRequest", {
    example: { callerPhoneNumber: "+4791234567", startedAtUtc: "2026-11-22T08:15:00Z" },
  });

export const ZCall = z
  .object({
    callId: z.uuid(),
    callerPhoneNumber: z.string(),
    startedAtUtc: z.string(),
    endedAtUtc: z.string().nullable(),
  })
  .openapi("Call", {
    example: {
      callId: "3c8e2a51-0d6b-4f0e-8a7c-2f5e9b1d4a60",
      callerPhoneNumber: "+4791234567",
      startedAtUtc: "2026-11-22T08:15:00.000Z",
      endedAtUtc: null,
    },
  });

export const ZEndCallRequest = z
  .strictObject({ endedAtUtc: ZUtcInstant })
  .openapi("EndCallRequest", { example: { endedAtUtc: "2026-11-22T08:21:30Z" } });
export const ZCallIdParam = z.object({
  callId: z.string().openapi({ param: { name: "callId", in: "path" }, format: "uuid" }),
});
