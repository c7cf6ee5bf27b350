// The layering of ARCHITECTURE.md as checked rules (`npm run lint`). Arrows point
// down: app/ and server/http, server/api, server/cli sit on the domain modules,
// which sit on server/platform. Type-only imports count (tsPreCompilationDeps).
// Every rule is an error: a new violation fails npm run lint.
const DOMAIN = "^server/(identity|incidents|webhooks|receiver|simulator|conformance|directory|workbench|scenarios)/";
const TEST_CODE = "(\\.test\\.ts$|/testing/|^e2e/|^bench/)";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A cycle makes both modules one: split out what they share.",
      from: {},
      to: { circular: true },
    },
    {
      name: "platform-is-the-bottom",
      severity: "error",
      comment: "server/platform (clock, db, env, logger, errors, network) imports nothing above it.",
      from: { path: "^server/platform/", pathNot: TEST_CODE },
      to: { path: "^(server/(?!platform/)|app/|prisma/|packages/)" },
    },
    {
      name: "domain-not-up",
      severity: "error",
      comment: "Domain modules never import the HTTP surfaces, the tRPC API, the CLI, the app or the seed.",
      from: { path: DOMAIN, pathNot: TEST_CODE },
      to: { path: "^(server/(http|api|cli)/|app/|prisma/seed)" },
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
    exclude: { path: "(^|/)(node_modules|\\.next|\\.data|\\.ab|dist|server/platform/db/generated)/" },
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
