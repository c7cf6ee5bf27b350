// The dashboard API's domain errors on the wire (docs/dashboard.md, 'Errors'): tRPC's code and
// HTTP status from the code's row of the error table, `data.appCode` the code as the wire names it
// (dashboard access keeps not_found and conflict), and the domain's message.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startDashboardApiServer } from "../testing/dashboard-api-server.ts";
import type { TestServer } from "../testing/test-server.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startDashboardApiServer();
});
afterAll(async () => {
  await s.close();
});

const NO_SUCH_ID = "00000000-0000-4000-8000-000000000000";

async function mutate(path: string, input: unknown) {
  const res = await fetch(`${s.url}/api/trpc/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: s.url },
    body: JSON.stringify({ json: input }),
  });
  return answer(res);
}

async function query(path: string, input: unknown) {
  return answer(await fetch(`${s.url}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`));
}

async function answer(res: Response) {
  const body = (await res.json()) as {
    error?: { json: { message: string; data: { code: string; httpStatus: number; appCode: string | null } } };
  };
  const error = body.error?.json;
  return { status: res.status, code: error?.data.code, appCode: error?.data.appCode, message: error?.message };
}

it.each([
  ["clock.advance", 400, "BAD_REQUEST", "ValidationFailed", /at most 7 days/, { byMs: 8 * 86_400_000 }],
  ["access.members.update", 404, "NOT_FOUND", "not_found", /No member/, { id: NO_SUCH_ID, disabled: true }],
  ["access.apiTokens.revoke", 404, "NOT_FOUND", "not_found", /No API token/, { id: NO_SUCH_ID }],
  ["identity.clients.rotateSecret", 400, "BAD_REQUEST", "PublicClient", /public client/, { clientId: "portal-spa" }],
])("%s answers %i %s with appCode %s", async (path, status, code, appCode, message, input) => {
  expect(await mutate(path, input)).toEqual({ status, code, appCode, message: expect.stringMatching(message) });
});

it("a missing delivery is NOT_FOUND (the inspector stops retrying on it), appCode DeliveryNotFound", async () => {
  expect(await query("deliveries.get", { requestId: NO_SUCH_ID })).toMatchObject({
    status: 404,
    code: "NOT_FOUND",
    appCode: "DeliveryNotFound",
  });
});

it("the last enabled admin cannot be disabled: CONFLICT, appCode conflict", async () => {
  const created = await mutate("access.members.create", {
    username: "only.admin",
    role: "admin",
    password: "long-enough-password",
  });
  expect(created).toMatchObject({ status: 200 });
  const res = await fetch(`${s.url}/api/trpc/access.members.list`);
  const members = ((await res.json()) as { result: { data: { json: { id: string; username: string }[] } } }).result.data
    .json;
  const id = members.find((m) => m.username === "only.admin")!.id;
  expect(await mutate("access.members.update", { id, disabled: true })).toMatchObject({
    status: 409,
    code: "CONFLICT",
    appCode: "conflict",
  });
});
