import type { TCaller } from "@/server/incidents/snapshot.schema";
import { Badge } from "../ui/badge";
import { KeyValueList } from "../ui/key-value";
import { formatUtc } from "./labels";

/** Chat and live video (spec: caller.chat / caller.liveVideo; null = never started). */
export function CommunicationView({ chat, liveVideo }: { chat: TCaller["chat"]; liveVideo: TCaller["liveVideo"] }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div>
        <h3 className="flex items-center gap-2 text-xs text-slate-500">
          Chat {chat ? <Badge tone="success">Active</Badge> : <Badge>not started</Badge>}
        </h3>
        {chat && (
          <KeyValueList
            className="mt-2"
            items={[
              { label: "Since", value: formatUtc(chat.activatedAtUtc), mono: true },
              {
                label: "Portal",
                value: (
                  <a
                    className="break-all text-sm text-orange-800 underline-offset-2 hover:underline"
                    href={chat.portalUrl}
                  >
                    Open chat
                  </a>
                ),
              },
            ]}
          />
        )}
      </div>
      <div>
        <h3 className="flex items-center gap-2 text-xs text-slate-500">
          Live video{" "}
          {liveVideo ? (
            <Badge tone={liveVideo.state === "Active" ? "success" : "neutral"}>{liveVideo.state}</Badge>
          ) : (
            <Badge>not started</Badge>
          )}
        </h3>
        {liveVideo && (
          <KeyValueList
            className="mt-2"
            items={[
              { label: "Started", value: formatUtc(liveVideo.activatedAtUtc), mono: true },
              { label: "Ended", value: formatUtc(liveVideo.endedAtUtc), mono: true },
              {
                label: "Portal",
                value: (
                  <a className="text-sm text-orange-800 underline-offset-2 hover:underline" href={liveVideo.portalUrl}>
                    Open live video
                  </a>
                ),
              },
            ]}
          />
        )}
      </div>
    </div>
  );
}
