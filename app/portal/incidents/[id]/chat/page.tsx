import { requirePortalSession } from "../../../require-portal-session";
import { CallerChannel } from "../_components/caller-channel";

export const dynamic = "force-dynamic";
export const metadata = { title: "Caller chat" };

/** The chat portalUrl the inbound API returns (server/incidents/portal-urls.ts). */
export default async function ChatPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requirePortalSession(`/portal/incidents/${encodeURIComponent(id)}/chat`);
  return <CallerChannel incidentId={id} channel="chat" />;
}
