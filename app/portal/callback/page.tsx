import { portalClientConfig } from "../portal-client";
import { CompleteSignIn } from "./complete-sign-in";

export const dynamic = "force-dynamic";
export const metadata = { title: "Signing in" };

export default function CallbackPage() {
  return <CompleteSignIn config={portalClientConfig()} />;
}
