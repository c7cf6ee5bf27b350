#!/usr/bin/env node
// `npx workbench ...`: the CLI is TypeScript, run through tsx like the server.
import { register } from "tsx/esm/api";

register();
await import("../../../server/cli/main.ts");
