import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { TRPCReactProvider } from "./_trpc/react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Incident Platform Workbench", template: "%s · Incident Platform Workbench" },
  description:
    "Identity server, inbound API and webhooks of the emergency-incident platform, with a reference receiver and a partner simulator.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: its scripts carry the request's CSP nonce, which the main thread
  // puts on the request (server/http/content-security-policy.ts); a prerendered page would have none.
  await connection();
  return (
    <html lang="en">
      <body>
        <TRPCReactProvider>{children}</TRPCReactProvider>
      </body>
    </html>
  );
}
