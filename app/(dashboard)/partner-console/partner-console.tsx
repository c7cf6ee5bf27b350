"use client";
import { useState } from "react";
import { SectionCard } from "@/app/_components/ui/card";
import { OperationRunner } from "./operation-runner";
import { type ConsoleToken, TokenPanel } from "./token-panel";

export function PartnerConsole() {
  const [token, setToken] = useState<ConsoleToken | null>(null);
  return (
    <div className="grid gap-4">
      <SectionCard id="h-token" title="1 · Token (POST /connect/token)">
        <TokenPanel onToken={setToken} />
      </SectionCard>
      <SectionCard id="h-operation" title={`2 · Inbound operation${token ? "" : " (no token yet)"}`}>
        <OperationRunner token={token?.accessToken ?? null} />
      </SectionCard>
    </div>
  );
}
