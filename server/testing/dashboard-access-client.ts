// Test helpers for a shared workbench over HTTP: sign a member in through the real
// flow (/auth/sign-in → /connect/authorize's form → /auth/callback), and call /api/trpc.

/** The cookie pairs (name=value) a response sets. */
function setCookies(res: Response): string[] {
  return res.headers.getSetCookie().map((c) => c.split(";")[0]!);
}

export type SignInResult = { status: number; sessionCookie?: string; location?: string; body?: string };

export async function signInToDashboard(
  baseUrl: string,
  username: string,
  password: string,
  next = "/",
): Promise<SignInResult> {
  const start = await fetch(`${baseUrl}/auth/sign-in?next=${encodeURIComponent(next)}`, { redirect: "manual" });
  if (start.status !== 302) return { status: start.status };
  const pending = setCookies(start).find((c) => c.startsWith("wb_signin="))!;
  const form = await fetch(start.headers.get("location")!);
  const html = await form.text();
  const hidden = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\s*\/?>/g)].map((m) => [
      m[1]!,
      m[2]!.replaceAll("&amp;", "&"),
    ]),
  );
  const login = await fetch(`${baseUrl}/connect/authorize`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: baseUrl },
    body: new URLSearchParams({ ...hidden, username, password }),
  });
  if (login.status !== 302) return { status: login.status, body: await login.text() };
  const callback = await fetch(login.headers.get("location")!, { redirect: "manual", headers: { cookie: pending } });
  const sessionCookie = setCookies(callback).find((c) => c.startsWith("wb_session="));
  return {
    status: callback.status,
    sessionCookie,
    location: callback.headers.get("location") ?? undefined,
    body: callback.status === 302 ? undefined : await callback.text(),
  };
}

export type TrpcAnswer = {
  status: number;
  data?: unknown;
  error?: { message: string; code: string; httpStatus: number };
};

/** One tRPC call over HTTP (superjson's wire format: {json: …}). */
export async function callTrpc(
  baseUrl: string,
  path: string,
  options: { mutation?: boolean; input?: unknown; headers?: Record<string, string> } = {},
): Promise<TrpcAnswer> {
  const encoded = options.input === undefined ? undefined : JSON.stringify({ json: options.input });
  const res = options.mutation
    ? await fetch(`${baseUrl}/api/trpc/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: baseUrl, ...options.headers },
        body: encoded ?? "{}",
      })
    : await fetch(`${baseUrl}/api/trpc/${path}${encoded ? `?input=${encodeURIComponent(encoded)}` : ""}`, {
        headers: options.headers,
      });
  const body = (await res.json()) as {
    result?: { data?: { json?: unknown } };
    error?: { json?: { message: string; data: { code: string; httpStatus: number } } };
  };
  if (body.error?.json)
    return {
      status: res.status,
      error: {
        message: body.error.json.message,
        code: body.error.json.data.code,
        httpStatus: body.error.json.data.httpStatus,
      },
    };
  return { status: res.status, data: body.result?.data?.json };
}
