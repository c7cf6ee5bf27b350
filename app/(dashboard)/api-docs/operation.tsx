// One operation of the OpenAPI document: summary, rules, request schema and
// every documented response with its problem codes.
export type OperationObject = {
  operationId: string;
  summary?: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<
    string,
    {
      description: string;
      content?: Record<string, { schema?: unknown; examples?: Record<string, { value: unknown }> }>;
    }
  >;
};

/** The document's descriptions are short markdown: paragraphs, `## headings` and `code`. */
export function Prose({ text }: { text: string }) {
  return (
    <div className="flex flex-col gap-3 text-sm leading-6 text-slate-700">
      {text.split("\n\n").map((para, i) =>
        para.startsWith("## ") ? (
          <h2 key={i} className="mt-2 text-base font-semibold text-slate-900">
            {para.slice(3)}
          </h2>
        ) : (
          <p key={i}>{inlineCode(para)}</p>
        ),
      )}
    </div>
  );
}

function inlineCode(text: string) {
  return text.split(/(`[^`]+`)/).map((part, i) =>
    part.startsWith("`") ? (
      <code key={i} className="rounded bg-slate-100 px-1 font-mono text-[0.85em]">
        {part.slice(1, -1)}
      </code>
    ) : (
      part
    ),
  );
}

const METHOD_COLOR: Record<string, string> = {
  get: "bg-sky-100 text-sky-800",
  post: "bg-emerald-100 text-emerald-800",
  patch: "bg-amber-100 text-amber-800",
};

export function Operation({ path, method, op }: { path: string; method: string; op: OperationObject }) {
  const body = op.requestBody?.content["application/json"]?.schema;
  return (
    <article id={op.operationId} className="rounded-lg border border-slate-200 bg-white p-5">
      <h2 className="flex flex-wrap items-center gap-2 font-mono text-sm">
        <span className={`rounded px-2 py-0.5 text-xs font-bold uppercase ${METHOD_COLOR[method] ?? "bg-slate-100"}`}>
          {method}
        </span>
        <span className="font-semibold">{path}</span>
      </h2>
      <p className="mt-2 font-medium">{op.summary}</p>
      {op.description && (
        <div className="mt-2">
          <Prose text={op.description} />
        </div>
      )}
      {body !== undefined && (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer font-medium">Request body (application/json)</summary>
          <pre className="mt-2 overflow-x-auto [contain:inline-size] rounded bg-slate-50 p-3 text-xs">
            {JSON.stringify(body, null, 2)}
          </pre>
        </details>
      )}
      <table className="mt-3 w-full text-left text-sm">
        <thead>
          <tr className="text-slate-500">
            <th className="w-16 py-1 font-medium">Status</th>
            <th className="py-1 font-medium">Meaning</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(op.responses).map(([status, r]) => (
            <tr key={status} className="border-t border-slate-100 align-top">
              <td className="py-1 font-mono">{status}</td>
              <td className="py-1">{inlineCode(r.description)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  );
}
