import { CallerChannel } from "../_components/caller-channel";

export const dynamic = "force-dynamic";
export const metadata = { title: "Live video" };

export default async function LiveVideoPage({ params }: { params: Promise<{ id: string }> }) {
  return <CallerChannel incidentId={(await params).id} channel="liveVideo" />;
}
