// The Node options the workbench server runs with, wherever it is started: `npm start` (its script in
// package.json spells them out; a test keeps the two equal), the CLI's ephemeral workbench, the
// Playwright servers and the benches.
//
// A young generation of up to 64 MB a semi-space (Node 20's default is 16): the default mode
// allocates ~100 KB per change, and with the small one a scavenge ran every 60–70 ms, 6–8 % of the
// main thread. With it, less server CPU per change for a little more memory under load
// (docs/decisions/0045 has the figures).
export const SERVER_NODE_OPTIONS: readonly string[] = ["--max-semi-space-size=64"];
