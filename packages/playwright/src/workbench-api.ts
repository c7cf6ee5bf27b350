// The workbench's own API (the tRPC procedures its dashboard and CLI use), over
// plain fetch: the kit needs no tRPC client and no code of the workbench's. The
// wire format is tRPC's HTTP one with superjson, whose JSON part is all the kit
// sends and reads (dates arrive as ISO strings).

/** A refusal of the workbench's API, with tRPC's code (UNAUTHORIZED, BAD_REQUEST, …) and its one-line message. */
export class WorkbenchApiError extends Error {
  constructor(
    readonly procedure: string,
    readonly code: string,
    message: string,
  ) {
    super(`${procedure}: ${message}`);
    this.name = "WorkbenchApiError";
  }
}

/**
 * The workbench's own API: the tRPC procedures its dashboard and CLI use, by name (docs/cli.md
 * lists what they do). A refusal rejects with a WorkbenchApiError.
 */
export type WorkbenchApi = {
  /** Reads, e.g. `query("deliveries.list", { incidentId })`, `query("clock.show")`; `T` is the answer's type as you expect it. */
  query<T = unknown>(procedure: string, input?: unknown): Promise<T>;
  /** Changes, e.g. `mutate("clock.advance", { byMs: 60_000 })`; on a shared workbench they need a token with the right role. */
  mutate<T = unknown>(procedure: string, input?: unknown): Promise<T>;
};

/**
 * A client of one workbench's API. `token`: a workbench API token (a shared workbench requires
 * one: Admin → Access); a local workbench needs none.
 */
export function workbenchApi(baseUrl: string, options: { token?: string } = {}): WorkbenchApi {
  const root = `${baseUrl.replace(/\/+$/, "")}/api/trpc`;
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};

  async function call<T>(procedure: string, kind: "query" | "mutation", input: unknown): Promise<T> {
    const wire = input === undefined ? undefined : JSON.stringify({ json: input });
    const res =
      kind === "query"
        ? await fetch(`${root}/${procedure}${wire ? `?input=${encodeURIComponent(wire)}` : ""}`, { headers })
        : await fetch(`${root}/${procedure}`, {
            method: "POST",
            headers: { ...headers, "content-type": "application/json" },
            body: wire ?? "{}",
          });
    const text = await res.text();
    let answer: { result?: { data?: { json?: T } }; error?: { json?: { message?: string; data?: { code?: string } } } };
    try {
      answer = JSON.parse(text) as typeof answer;
    } catch {
      throw new WorkbenchApiError(procedure, `HTTP_${res.status}`, `answered ${res.status}: ${text.slice(0, 200)}`);
    }
    if (answer.error || !res.ok) {
      const e = answer.error?.json;
      throw new WorkbenchApiError(procedure, e?.data?.code ?? `HTTP_${res.status}`, e?.message ?? `HTTP ${res.status}`);
    }
    return answer.result?.data?.json as T;
  }

  return {
    query: (procedure, input) => call(procedure, "query", input),
    mutate: (procedure, input) => call(procedure, "mutation", input),
  };
}
