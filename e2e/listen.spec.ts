// `workbench listen` on the dashboard (docs/listen.md): a listener attached to central-ems shows on
// the overview (via listener, connected, who and where it forwards); a delivery it carried is
// marked "via listener" in the inspector; Detach on the overview closes it and the integration
// shows its URL alone.
import http from "node:http";
import type { AddressInfo } from "node:net";
import WebSocket from "ws";
import { forwardRequest } from "../server/cli/listen/forward-request.ts";
import { FULL_ABOUT } from "../server/conformance/testing/fixture-receiver.ts";
import type { TWorkbenchFrame } from "../server/webhooks/listen/listener-frames.ts";
import { E2E_URL } from "../playwright.config";
import { expect, expectAccessible, test } from "./fixtures/workbench";

const EMS = "0b0c5b52-1c0e-4a57-9a57-000000000002";

test("a listener on central-ems: on the overview, its attempts via listener, gone once detached", async ({
  page,
  workbench,
}) => {
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200).end(req.url === "/about" ? JSON.stringify(FULL_ABOUT) : "{}"));
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const forwardTo = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const ws = new WebSocket(
    `${E2E_URL.replace("http", "ws")}/api/listen?integration=central-ems&forward_to=${forwardTo}`,
  );
  const closed = new Promise<number>((resolve) => ws.on("close", (code) => resolve(code)));
  const attached = new Promise<void>((resolve) =>
    ws.on("message", (data) => {
      const frame = JSON.parse(String(data)) as TWorkbenchFrame;
      if (frame.type === "attached") return resolve();
      void forwardRequest(forwardTo, frame).then((a) => ws.send(JSON.stringify(a)));
    }),
  );
  try {
    await attached;
    await page.goto("/");
    const integrations = page.getByRole("region", { name: /Integrations/ });
    const note = integrations.getByTestId("listener-note");
    await expect(note).toContainText("via listener");
    await expect(note).toContainText("connected");
    await expect(note).toContainText(`forwarding to ${forwardTo}`);
    await expectAccessible(page);

    const raised = await workbench.simulator.raise.mutate({
      origin: "ConnectorAdmin",
      agencyId: EMS,
      location: { latitude: 59.962, longitude: 10.768, accuracy: 12 },
    });
    await page.goto(`/deliveries?integration=central-ems&incident=${raised.incidentId}`);
    await page.getByText("POST /v3/incidents").first().click({ timeout: 15_000 });
    await expect(page.getByTestId("via-listener")).toBeVisible();
    await page.getByRole("tab", { name: /Attempts/ }).click();
    await expect(page.getByRole("list", { name: "Attempts" })).toContainText("via listener → 200");
    // Detach on the dashboard: the listener's connection is closed (4002), the integration is back.
    await page.goto("/");
    await page.getByRole("button", { name: "Detach the listener from central-ems" }).click();
    expect(await closed).toBe(4002);
  } finally {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: "detach" }));
    await closed;
    receiver.close();
  }
  await page.goto("/");
  await expect(page.getByRole("region", { name: /Integrations/ })).toContainText("/receivers/central-ems");
  await expect(page.getByTestId("listener-note")).toHaveCount(0);
});
