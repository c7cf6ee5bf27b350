// Test helpers for a shared workbench over HTTP: sign a member in through the real
// flow (/auth/sign-in → /connect/authorize's form → /auth/callback, whose page hands over the
// session's key), and call /api/trpc.
import { SESSION_KEY_HEADER } from "../workbench/access/session-key-names.ts";

/** The cookie pairs (name=value) a response sets. */
function setCookies(res: Response): string[] {
  return res.headers.getSetCookie().map((c) => c.split(";")[0]!);
}

export type SignInResult = {
  status: number;
  /** The session cookie (name=value), as the browser would keep it. */
  sessionCookie?: string;
  /** The session's key, which the callback page hands to the tab that signed in (decision 0071). */
  sessionKey?: string;
  /** What a signed-in page sends with every call: the cookie and the key. */
  credentials?: Record<string, string>;
  /** Where the callback page goes on to (the path first asked for). */
  location?: string;
  body?: string;
  /** With `stopAtCallback`: the callback URL the form redirected to, and the pending sign-in's cookie. */
  callbackUrl?: string;
  pendingCookie?: string;
};

/** The JSON a sign-in page's script holds (render-auth-pages.ts). */
function scriptData(html: string): Record<string, string> {
  const match = /const d = (\{.*?\});/s.exec(html);
  if (!match) throw new Error(`no sign-in data in the page: ${html.slice(0, 300)}`);
  return JSON.parse(match[1]!) as Record<string, string>;
}

export async function signInToDashboard(
  baseUrl: string,
  username: string,
  password: string,
  next = "/",
  options: { stopAtCallback?: boolean } = {},
): Promise<SignInResult> {
  const start = await fetch(`${baseUrl}/auth/sign-in?next=${encodeURIComponent(next)}`, { redirect: "manual" });
  if (start.status !== 200) return { status: start.status, location: start.headers.get("location") ?? undefined };
  const pending = setCookies(start).find((c) => c.startsWith("wb_signin="))!;
  const form = await fetch(scriptData(await start.text()).to!);
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
  if (options.stopAtCallback)
    return { status: login.status, callbackUrl: login.headers.get("location")!, pendingCookie: pending };
  const callback = await fetch(login.headers.get("location")!, { redirect: "manual", headers: { cookie: pending } });
  const body = await callback.text();
  const sessionCookie = setCookies(callback).find((c) => /^(__Host-)?wb_session=/.test(c));
  if (callback.status !== 200 || !sessionCookie) return { status: callback.status, body };
  const data = scriptData(body);
  return {
    status: callback.status,
    sessionCookie,
    sessionKey: data.key,
    credentials: { cookie: sessionCookie, [SESSION_KEY_HEADER]: data.key! },
    location: data.next,
    body,
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
