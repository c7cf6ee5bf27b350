import { requirePortalSession } from "../../../require-portal-session";
import { CallerChannel } from "../_components/caller-channel";

export const dynamic = "force-dynamic";
export const metadata = { title: "Live video" };

/** The live-video portalUrl the inbound API returns (server/incidents/portal-urls.ts). */
export default async function LiveVideoPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requirePortalSession(`/portal/incidents/${encodeURIComponent(id)}/live-video`);
  return <CallerChannel incidentId={id} channel="liveVideo" />;
}
