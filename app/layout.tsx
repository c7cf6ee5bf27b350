import type { Metadata } from "next";
import type { ReactNode } from "react";
import { TRPCReactProvider } from "./_trpc/react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Incident Platform Workbench", template: "%s · Incident Platform Workbench" },
  description:
    "Identity server, inbound API and webhooks of the emergency-incident platform, with a reference receiver and a partner simulator.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <TRPCReactProvider>{children}</TRPCReactProvider>
      </body>
    </html>
  );
}
