// The inbound API reference, rendered on the server from the same OpenAPI
// document /v1/openapi.json serves (no CDN, no client bundle).
import { getRuntime } from "@/server/runtime";
import { inboundOpenApiDocument } from "@/server/http/inbound/operations/openapi-document";
import { PageHeader } from "../_components/page-header";
import { Operation, Prose, type OperationObject } from "./operation";

export const dynamic = "force-dynamic";
export const metadata = { title: "Inbound API" };

const METHODS = ["get", "post", "patch", "put", "delete"] as const;

export default function ApiDocsPage() {
  const doc = inboundOpenApiDocument(getRuntime());
  const operations = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => (item as Record<string, unknown>)[m]).map((m) => ({
      path,
      method: m,
      op: (item as Record<string, OperationObject>)[m]!,
    })),
  );
  return (
    <>
      <PageHeader title={doc.info.title}>
        OpenAPI {doc.openapi} · version {doc.info.version} ·{" "}
        <a className="underline" href="/v1/openapi.json">
          /v1/openapi.json
        </a>
      </PageHeader>
      <section className="max-w-4xl rounded-lg border border-slate-200 bg-white p-6">
        <Prose text={doc.info.description ?? ""} />
      </section>
      <nav aria-label="Operations" className="my-6 flex max-w-4xl flex-wrap gap-2 text-xs">
        {operations.map(({ op }) => (
          <a
            key={op.operationId}
            href={`#${op.operationId}`}
            className="rounded bg-slate-100 px-2 py-1 hover:bg-slate-200"
          >
            {op.operationId}
          </a>
        ))}
      </nav>
      <div className="flex max-w-4xl flex-col gap-4">
        {operations.map(({ path, method, op }) => (
          <Operation key={`${method} ${path}`} path={path} method={method} op={op} />
        ))}
      </div>
    </>
  );
}
