// A tiny HTTP client for black-box inbound API tests.
export type Answer = { status: number; body: any; headers: Headers };

export function inboundClient(baseUrl: string) {
  return async function call(
    method: string,
    path: string,
    options: { token?: string; body?: unknown; headers?: Record<string, string>; raw?: string } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined = options.raw;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
}
