import { describe, expect, it } from "vitest";
import { EPHEMERAL_SEED } from "../ephemeral/start-ephemeral-workbench.ts";
import { readyLine } from "./ephemeral.ts";

describe("workbench up's ready line", () => {
  it("names the health probe a CI script or load balancer waits on, beside the URLs and the seed", () => {
    const line = readyLine({
      url: "http://localhost:41234",
      pid: 4242,
      dataDir: "/tmp/workbench-ephemeral-x",
      seed: EPHEMERAL_SEED,
    });
    expect(line).toEqual({
      event: "ready",
      url: "http://localhost:41234",
      authUrl: "http://localhost:41234",
      baseUrl: "http://localhost:41234/v1",
      healthUrl: "http://localhost:41234/api/health",
      pid: 4242,
      dataDir: "/tmp/workbench-ephemeral-x",
      agencies: EPHEMERAL_SEED.agencies,
      users: EPHEMERAL_SEED.users,
      clients: EPHEMERAL_SEED.clients,
    });
  });
});
