// {receiver_url} of an integration. A stored path ("/receivers/north-psap")
// names an embedded receiver on this workbench's own origin (PUBLIC_URL);
// anything else is the absolute URL an integrator registered.
export function resolveReceiverUrl(stored: string, publicUrl: string): string {
  const base = stored.startsWith("/") ? `${publicUrl.replace(/\/+$/, "")}${stored}` : stored;
  return base.replace(/\/+$/, "");
}

/** Delivery requires HTTPS unless the integration is marked insecure-dev (workbench-decisions.md, Origins). */
export function refuseInsecureTarget(url: string, insecureDev: boolean): string | null {
  const protocol = new URL(url).protocol;
  if (protocol === "https:") return null;
  if (protocol === "http:" && insecureDev) return null;
  if (protocol === "http:") return `refused: ${url.split("/").slice(0, 3).join("/")} is plain http; HTTPS with a valid certificate is required unless the integration is marked insecure-dev`;
  return `refused: unsupported scheme ${protocol}`;
}
