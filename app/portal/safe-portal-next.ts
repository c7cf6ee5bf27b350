/** Only portal pages of this origin are followed after sign-in (no open redirect): `/portal/…` of plain path characters. */
export function safePortalNext(next: string | string[] | undefined): string | undefined {
  if (typeof next !== "string") return undefined;
  return /^\/portal\/[A-Za-z0-9/_-]*$/.test(next) && !next.includes("//") ? next : undefined;
}

/** Where a dispatcher goes once signed in: the page they asked for (a portal page only), else the incident list. */
export function signInTarget(asked: string | null | undefined): string {
  return safePortalNext(asked ?? undefined) ?? "/portal/incidents";
}
