// The layering of ARCHITECTURE.md as checked rules (`npm run lint`). Modules sit in layers, and a
// module imports only from layers below its own: not from above, not from a neighbour in its layer.
// So no two modules depend on each other, even through a third (a cycle between modules would be
// an upward edge somewhere). Type-only imports count (tsPreCompilationDeps). Tests and test
// helpers are exempt; files keep the separate no-circular rule. Every rule is an error.
const TEST_CODE = "(\\.test\\.ts$|/testing/|^server/whole-chain/|^e2e/|^bench/|/type-tests/)";

/**
 * The webhook engine's modules, bottom to top (decision 0060): its lifecycle events; the outbox's
 * row, lanes and constants, below both planning and delivery; a listener's connection; sending a
 * request to a receiver; planning and delivery side by side, so neither imports the other (the
 * composition root hands delivery the planner's lane cutover); discovery; the inspector's admin;
 * and the engine's own composition root.
 */
const ENGINE = [
  { "webhook-events": "^server/webhooks/webhook-events\\.ts$" },
  { outbox: "^server/webhooks/outbox/" },
  { listen: "^server/webhooks/listen/" },
  { sending: "^server/webhooks/sending/" },
  { planning: "^server/webhooks/planning/", delivery: "^server/webhooks/delivery/" },
  { discovery: "^server/webhooks/discovery/" },
  { admin: "^server/webhooks/admin/" },
  { engine: "^server/webhooks/start-webhook-engine\\.ts$" },
];

/** Bottom to top. A module is a folder under server/ (or the named files); entries compose them all. */
const LAYERS = [
  { platform: "^server/platform/" },
  { runtime: "^server/runtime\\.ts$" },
  {
    identity: "^server/identity/",
    incidents: "^server/incidents/",
    directory: "^server/directory/",
    "client-calls": "^server/client-calls/",
  },
  { "webhook-contracts": "^server/webhook-contracts/" },
  ...ENGINE,
  // Above the engine: a stand-in for a partner's receiver, reached over HTTP; it tells the engine
  // of its capability changes through the engine's own event (decision 0060).
  { "reference-receiver": "^server/reference-receiver/" },
  { simulator: "^server/simulator/", conformance: "^server/conformance/", workbench: "^server/workbench/" },
  { seed: "^prisma/seed\\.ts$" },
  { api: "^server/api/" },
  { http: "^server/http/" },
  { cli: "^server/cli/" },
  // The composition root: the process's and the dashboard thread's entries, boot and the workers.
  { entries: "^server/(launch|main|next-thread|start-process|boot|workers)\\.ts$" },
  { app: "^app/" },
];

/** One rule per module: it may import its own files and what lies below its layer, nothing else. */
const layerRules = LAYERS.flatMap((layer, index) =>
  Object.entries(layer).flatMap(([name, path]) => {
    const notBelow = LAYERS.slice(index)
      .flatMap((l) => Object.entries(l))
      .filter(([other]) => other !== name)
      .map(([, p]) => p);
    if (notBelow.length === 0) return []; // the top layer
    return {
      name: `layer-${name}`,
      severity: "error",
      comment: `${name} (layer ${index}) imports only from layers below it (ARCHITECTURE.md, "Layering").`,
      from: { path, pathNot: TEST_CODE },
      to: { path: `(${notBelow.join("|")})`, pathNot: TEST_CODE },
    };
  }),
);

/** Every production file of the engine belongs to one of its modules, so the layer rules see it. */
const engineModules = ENGINE.flatMap((layer) => Object.values(layer));
const engineFilesInModules = {
  name: "engine-files-in-modules",
  severity: "error",
  comment: "A file of server/webhooks/ belongs to one of the engine's modules (ENGINE, ARCHITECTURE.md's table).",
  from: { path: "^server/webhooks/", pathNot: `(${[...engineModules, TEST_CODE].join("|")})` },
  to: {},
};

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    engineFilesInModules,
    {
      name: "no-framework-below-the-surfaces",
      severity: "error",
      comment: "Below server/api and server/http, code knows nothing of Next, React, Hono or tRPC.",
      from: {
        path: "^server/(platform|runtime\\.ts|identity|incidents|directory|client-calls|webhook-contracts|reference-receiver|webhooks|simulator|conformance|workbench)",
        pathNot: TEST_CODE,
      },
      to: { path: "^node_modules/(next|react|react-dom|hono|@hono|@trpc)/" },
    },
    {
      name: "no-circular",
      severity: "error",
      comment: "A cycle makes both modules one: split out what they share.",
      from: {},
      to: { circular: true },
    },
    {
      name: "server-not-app",
      severity: "error",
      comment: "server/ never imports Next's app/ (the app imports the server, not the other way).",
      from: { path: "^server/", pathNot: TEST_CODE },
      to: { path: "^app/" },
    },
    {
      name: "no-test-code-in-production",
      severity: "error",
      comment: "Production code never imports tests, test helpers, e2e or benches.",
      from: { path: "^(server|app|prisma)/", pathNot: TEST_CODE },
      to: { path: TEST_CODE },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: {
      path: "^(packages/cli/dist|packages/playwright/dist|dist|\\.next|\\.data|\\.ab|server/platform/db/generated)/",
    },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
