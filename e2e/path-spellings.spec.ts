// One reading of the path in front of the real Next (SECURITY.md, "Every request"): on the shared
// e2e workbench, built as `npm start` runs it, paths spelled around the gate, sent byte for byte
// over a raw socket, are refused with 400 and serve no page; the canonical ones reach the gate.
import { E2E_SHARED_URL } from "../playwright.config";
import { rawHttpRequest } from "../server/testing/raw-http";
import { expect, test } from "./fixtures/workbench";

const SPELLINGS = [
  "/portal/../admin",
  "/portal/%2e%2e/admin",
  "/portal/.%2e/admin",
  "/_next/static/../../admin",
  "/_next/static/..%2f..%2fadmin",
  "/portal/..;/admin",
  "/portal\\..\\admin",
  "//admin",
  "/portal/../api/conformance/runs/00000000-0000-4000-8000-000000000001/report?download=1",
  "/portal/../api-docs",
  "/auth/../api/docs/webhooks/asyncapi.json",
];

test("paths spelled around the gate are refused before Next serves them", async () => {
  for (const path of SPELLINGS) {
    const res = await rawHttpRequest(E2E_SHARED_URL, path);
    expect(res.status, path).toBe(400);
    expect(res.body, path).not.toContain("<html");
  }
  const admin = await rawHttpRequest(E2E_SHARED_URL, "/admin");
  expect(admin.status).toBe(302);
  expect(admin.headers.location).toBe("/auth/sign-in?next=%2Fadmin");
  const docs = await rawHttpRequest(E2E_SHARED_URL, "/api/docs/webhooks/asyncapi.json");
  expect(docs.status).toBe(401);
});
