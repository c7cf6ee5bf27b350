// Test helpers for `workbench login` over HTTP (decision 0053): a CLI's /auth/cli link made by hand,
// a signed-in member's answer on the confirm page, as the browser's form would post it, and the CLI
// itself as a child process.
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import { SESSION_KEY_HEADER } from "../workbench/access/session-key-names.ts";

export type CliLink = { path: string; port: number; state: string; verifier: string; challenge: string };

export function makeCliLink(options: { port?: number; hostname?: string } = {}): CliLink {
  const state = randomBytes(32).toString("base64url");
  const verifier = randomBytes(48).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const port = options.port ?? 49_152 + Math.floor(Math.random() * 10_000);
  const query = new URLSearchParams({
    port: String(port),
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
    hostname: options.hostname ?? "laptop-1",
  });
  return { path: `/auth/cli?${query}`, port, state, verifier, challenge };
}

/** The hidden fields of the confirm page's form. */
export function confirmFormFields(html: string): Record<string, string> {
  return Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\s*\/?>/g)].map((m) => [m[1]!, m[2]!]),
  );
}

/**
 * GETs the confirm page with the member's session cookie, then posts Authorize or Cancel from the
 * workbench's origin with the session's key in the form, as the page's script puts it there.
 */
export async function answerCliLink(
  baseUrl: string,
  path: string,
  credentials: Record<string, string>,
  decision: "authorize" | "cancel",
  /** The token role chosen on the page (default: what the page preselects). */
  role?: string,
): Promise<{ page: Response; html: string; answer: Response }> {
  const cookie = credentials.cookie ?? "";
  const page = await fetch(`${baseUrl}${path}`, { headers: { cookie }, redirect: "manual" });
  const html = await page.text();
  const answer = await fetch(`${baseUrl}/auth/cli`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, origin: baseUrl },
    body: new URLSearchParams({
      ...confirmFormFields(html),
      session_key: credentials[SESSION_KEY_HEADER] ?? "",
      ...(role ? { role } : {}),
      decision,
    }),
  });
  return { page, html, answer };
}

/** POST /auth/cli/token as the CLI does. */
export async function redeemCliCode(
  baseUrl: string,
  code: string,
  verifier: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${baseUrl}/auth/cli/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ code, code_verifier: verifier }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export type CliRun = { code: number; stdout: string; stderr: string };

/**
 * The CLI as a child process, as a user runs it, with `configDir` as its home and XDG config folder
 * and nothing of the caller's environment but PATH. `link()` waits (30 s at most) for the /auth/cli
 * link `workbench login --no-browser` prints.
 */
export function spawnCli(args: string[], configDir: string, env: Record<string, string> = {}) {
  const child = spawn("node", ["packages/cli/bin/workbench.mjs", ...args], {
    env: {
      NODE_ENV: "test",
      PATH: process.env.PATH ?? "",
      HOME: configDir,
      XDG_CONFIG_HOME: path.join(configDir, "xdg"),
      ...env,
    },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliRun>((resolve) =>
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr })),
  );
  const link = async (): Promise<URL> => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const printed = /https?:\/\/\S+\/auth\/cli\?\S+/.exec(stderr)?.[0];
      if (printed) return new URL(printed);
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`the CLI printed no /auth/cli link (exit ${child.exitCode}); stderr: ${stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return { done, link, child };
}
