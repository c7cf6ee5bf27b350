// Opens a link in the user's browser, as `gh auth login` does, or says it cannot: no display on
// Linux, or no opener. Hand-written rather than the `open` package: three commands, and the CLI
// prints the link either way, so a failed opener costs nothing.
import { spawn } from "node:child_process";

/** The command that opens a URL here, or undefined when there is no browser to open (e.g. over SSH). */
export function browserOpener(
  platform: NodeJS.Platform = process.platform,
  env: Record<string, string | undefined> = process.env,
): { command: string; args: (url: string) => string[] } | undefined {
  if (env.BROWSER === "none") return undefined;
  if (platform === "darwin") return { command: "open", args: (url) => [url] };
  if (platform === "win32") return { command: "rundll32", args: (url) => ["url.dll,FileProtocolHandler", url] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  return { command: "xdg-open", args: (url) => [url] };
}

/** True when an opener was started (not that a browser showed the page: the link is printed as well). */
export function openBrowser(url: string): boolean {
  const opener = browserOpener();
  if (!opener) return false;
  try {
    const child = spawn(opener.command, opener.args(url), { stdio: "ignore", detached: true });
    child.on("error", () => {}); // no such command: the printed link is the way
    child.unref();
    return true;
  } catch {
    return false;
  }
}
