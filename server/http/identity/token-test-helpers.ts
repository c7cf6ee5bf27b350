// Helpers for the identity server's black-box tests.
import { decodeJwt, decodeProtectedHeader } from "jose";

export const NORTH = "0b0c5b52-1c0e-4a57-9a57-000000000001";
export const EMS = "0b0c5b52-1c0e-4a57-9a57-000000000002";
export const SOUTH = "0b0c5b52-1c0e-4a57-9a57-000000000004";
export const CAD = { client_id: "partner-cad", client_secret: "partner-cad-secret" };

export async function postToken(baseUrl: string, fields: Record<string, string | string[]>) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) body.append(k, one);
  const res = await fetch(`${baseUrl}/connect/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

export async function accessToken(baseUrl: string, fields: Record<string, string | string[]>): Promise<string> {
  const r = await postToken(baseUrl, { grant_type: "client_credentials", ...CAD, ...fields });
  if (r.status !== 200) throw new Error(`token request failed: ${JSON.stringify(r.body)}`);
  return r.body.access_token as string;
}

export function claimsOf(token: string) {
  return { header: decodeProtectedHeader(token), claims: decodeJwt(token) };
}
