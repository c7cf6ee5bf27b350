// Lint: typescript-eslint with the type-aware rules that catch real bugs in this
// code (a promise nobody awaits or catches; a promise where a callback's return
// is ignored), on top of the recommended syntactic rules. Layout is Prettier's
// job (`npm run format`), layering dependency-cruiser's (.dependency-cruiser.cjs).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".data/**",
      ".test-data/**",
      "test-results/**",
      "playwright-report/**",
      "server/platform/db/generated/**",
      "next-env.d.ts",
      "bench/results/**",
      "docs/**",
      "dist/**",
      ".ab/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // Type-aware: floating and misused promises first (CONTRIBUTING.md, Lint and layering).
      "@typescript-eslint/no-floating-promises": ["error", { ignoreVoid: true }],
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/no-unnecessary-type-assertion": "error",
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      // Unused names are errors, except deliberately ignored ones (_x) and rest siblings.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
      // A variable read by a closure before its one assignment (a listener set up first) stays `let`.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      // Hono's `c.var` builds a new object of every variable on each read (Object.fromEntries): on
      // the protocol hot paths that was a measurable share of the CPU. `c.get(name)` is a map lookup.
      "no-restricted-syntax": [
        "error",
        {
          selector: "MemberExpression[object.name='c'][property.name='var']",
          message: "Read a Hono context variable with c.get(name): c.var copies all of them on every read.",
        },
      ],
      // TypeScript checks these itself (and better).
      "no-undef": "off",
      "no-redeclare": "off",
    },
  },
  {
    // Small functions (CONTRIBUTING.md, "Lint and layering"; decision 0048): a function past 150 lines
    // holds several mechanisms, so it is split into named pieces: in the server a pipeline's steps or a
    // state's transitions, in the dashboard a hook for a page's state and queries, a component per panel,
    // section or form, pure logic in a .ts file with its test. Tests are exempt.
    files: ["server/**/*.ts", "app/**/*.{ts,tsx}"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: { "max-lines-per-function": ["error", { max: 150, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Tests read JSON bodies loosely; production code may not.
    files: ["**/*.test.ts", "**/testing/**", "e2e/**", "bench/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Plain JavaScript files (configs, the CLI shim, scripts): no type information.
    files: ["**/*.{js,mjs,cjs}"],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // CommonJS on purpose (the start script and the build check it loads: scripts/start.cjs).
    files: ["**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
