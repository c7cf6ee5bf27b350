import { CallerChannel } from "../_components/caller-channel";

export const dynamic = "force-dynamic";
export const metadata = { title: "Caller chat" };

export default async function ChatPage({ params }: { params: Promise<{ id: string }> }) {
  return <CallerChannel incidentId={(await params).id} channel="chat" />;
}
