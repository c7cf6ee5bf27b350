// The contracts an integrator builds against, rendered in the app from the same documents the
// workbench serves (no CDN, nothing fetched from outside): the inbound OpenAPI document (its own
// page, /api-docs) and the webhook v3 AsyncAPI document with its JSON Schemas.
import Link from "next/link";
import { JsonView } from "@/app/_components/json/json-view";
import { SectionCard } from "@/app/_components/ui/card";
import { getRuntime } from "@/server/runtime";
import { buildAsyncApiDocument } from "@/server/webhook-contracts/v3/build-asyncapi";
import { PageHeader } from "../_components/page-header";
import { Prose } from "../api-docs/operation";

export const dynamic = "force-dynamic";
export const metadata = { title: "Docs" };

type AsyncOperation = { channel: { $ref: string }; summary?: string; description?: string; bindings?: { http?: { method?: string } } };
type Channel = { address: string; description?: string; messages?: Record<string, { $ref: string }> };

export default function DocsPage() {
  const doc = buildAsyncApiDocument({ publicUrl: getRuntime().env.PUBLIC_URL }) as unknown as {
    info: { title: string; version: string; description: string }; channels: Record<string, Channel>; operations: Record<string, AsyncOperation>;
    components: { schemas: Record<string, unknown>; messages: Record<string, unknown> };
  };
  const operations = Object.entries(doc.operations).map(([id, op]) => {
    const channelKey = op.channel.$ref.replace("#/channels/", "");
    return { id, op, channelKey, channel: doc.channels[channelKey]! };
  });
  return (
    <>
      <PageHeader title="Docs">
        The partner interface&apos;s contracts, rendered from the documents this workbench serves.
      </PageHeader>
      <div className="grid max-w-5xl gap-4">
        <SectionCard id="h-inbound" title="Inbound API v1 (OpenAPI 3.1)">
          <p className="text-sm text-slate-700">
            Every operation with its rules, request schema and problem codes: <Link className="underline" href="/api-docs">Inbound API reference</Link>.
            Machine-readable: <a className="underline" href="/v1/openapi.json">/v1/openapi.json</a>. Try any operation in the <Link className="underline" href="/partner-console">partner console</Link>.
          </p>
        </SectionCard>
        <SectionCard id="h-webhooks" title={`${doc.info.title} · AsyncAPI ${doc.info.version}`}>
          <div className="grid gap-4">
            <p className="text-sm">Machine-readable: <a className="underline" href="/api/docs/webhooks/asyncapi.json">asyncapi.json</a></p>
            <Prose text={doc.info.description} />
            <table className="w-full text-left text-sm" aria-label="Webhook routes">
              <thead><tr className="text-xs text-slate-600"><th className="py-1 pr-3">Route</th><th className="py-1 pr-3">Sent when</th></tr></thead>
              <tbody>
                {operations.map(({ id, op, channel, channelKey }) => (
                  <tr key={id} className="border-t border-slate-100 align-top">
                    <td className="py-1.5 pr-3 font-mono text-xs"><a className="underline" href={`#channel-${channelKey}`}>{op.bindings?.http?.method ?? "GET"} {channel.address}</a></td>
                    <td className="py-1.5 text-slate-700">{op.description ?? op.summary}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </SectionCard>
        <SectionCard id="h-messages" title="Messages (payload schemas)">
          <div className="grid gap-3">
            {Object.entries(doc.channels).map(([key, channel]) => (
              <details key={key} id={`channel-${key}`} className="rounded-md border border-slate-200 p-3">
                <summary className="cursor-pointer font-mono text-sm">{channel.address}</summary>
                {channel.description && <p className="mt-2 text-sm text-slate-700">{channel.description}</p>}
                {Object.keys(channel.messages ?? {}).map((m) => (
                  <div key={m} className="mt-2"><JsonView value={doc.components.messages[m] ?? channel.messages![m]} expandDepth={3} maxHeight="24rem" /></div>
                ))}
              </details>
            ))}
          </div>
        </SectionCard>
        <SectionCard id="h-schemas" title="JSON Schemas">
          <div className="grid gap-3">
            {Object.entries(doc.components.schemas).map(([name, schema]) => (
              <details key={name} className="rounded-md border border-slate-200 p-3">
                <summary className="cursor-pointer font-mono text-sm">{name}</summary>
                <div className="mt-2"><JsonView value={schema} expandDepth={2} maxHeight="32rem" /></div>
              </details>
            ))}
          </div>
        </SectionCard>
      </div>
    </>
  );
}
