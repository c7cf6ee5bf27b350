// Reaching the caller: chat (no end transition) and live video (ends on its
// own after LIVE_VIDEO_DURATION_S of workbench time, or from the simulator).
// Activation never fails because a device cannot do video (spec, state table).
import { AppError } from "../platform/errors.ts";
import type { Clock } from "../platform/clock/clock.ts";
import { applyIncidentChange } from "./apply-change.ts";
import type { DbClient } from "../platform/db/client.ts";
import { chatPortalUrl, liveVideoPortalUrl } from "./portal-urls.ts";
import type { IncidentOperation } from "./change-types.ts";

export async function activateChat(options: IncidentOperation & { portalUrl: string }) {
  return applyIncidentChange({
    ...options,
    mutate: ({ incident, now }) => {
      if (incident.snapshot.caller.chat)
        throw new AppError("ChatAlreadyActive", "Chat is already active for this incident.");
      const portalUrl = chatPortalUrl(options.portalUrl, incident.id);
      incident.snapshot.caller.chat = { state: "Active", activatedAtUtc: now.toISOString(), portalUrl };
      return { changes: [{ kind: "caller.chat.activated" }], result: { portalUrl } };
    },
  });
}

export async function activateLiveVideo(options: IncidentOperation & { portalUrl: string; durationS: number }) {
  return applyIncidentChange({
    ...options,
    mutate: ({ incident, now }) => {
      if (incident.snapshot.caller.liveVideo?.state === "Active")
        throw new AppError("LiveVideoAlreadyActive", "Live video is already active for this incident.");
      const portalUrl = liveVideoPortalUrl(options.portalUrl, incident.id);
      incident.snapshot.caller.liveVideo = {
        state: "Active",
        activatedAtUtc: now.toISOString(),
        endedAtUtc: null,
        portalUrl,
      };
      return {
        changes: [{ kind: "caller.liveVideo.activated" }],
        result: { portalUrl },
        liveVideoEndsAt: new Date(now.getTime() + options.durationS * 1000),
      };
    },
  });
}

/** Ends an active live video (simulator, the due-time worker, close). No-op when none is active. */
export async function endLiveVideo(options: IncidentOperation) {
  return applyIncidentChange({
    ...options,
    mutate: ({ incident, now }) => {
      const video = incident.snapshot.caller.liveVideo;
      if (video?.state !== "Active") return { changes: [], result: false };
      incident.snapshot.caller.liveVideo = { ...video, state: "Ended", endedAtUtc: now.toISOString() };
      return { changes: [{ kind: "caller.liveVideo.ended" }], result: true, liveVideoEndsAt: null };
    },
  });
}

/** Ends every live video whose simulated duration has elapsed on the workbench clock. Returns how many ended. */
export async function endDueLiveVideos(options: { db: DbClient; clock: Clock }): Promise<number> {
  const due = await options.db.incident.findMany({
    where: { liveVideoEndsAt: { lte: options.clock.now() }, closedAt: null },
    select: { id: true },
    take: 100,
  });
  let ended = 0;
  for (const { id } of due) {
    const r = await endLiveVideo({ db: options.db, clock: options.clock, incidentId: id, actor: "system" }).catch(
      () => undefined,
    );
    if (r?.result) ended += 1;
  }
  return ended;
}
