// What the dashboard's database banner says, from GET /api/health (docs/database-outages.md): pure,
// so its wording is tested without a browser.

export type HealthAnswer = {
  ready?: boolean;
  databaseState?: "up" | "down" | "restarting";
  downForS?: number;
};

export type DatabaseBannerState = { show: false } | { show: true; title: string; detail: string };

/** `answer`: the parsed body of /api/health, or null when the workbench itself did not answer. */
export function databaseBannerState(answer: HealthAnswer | null): DatabaseBannerState {
  if (answer === null)
    return {
      show: true,
      title: "The workbench is not answering",
      detail: "Its server may be restarting. This page tries again every few seconds.",
    };
  if (answer.ready !== false) return { show: false };
  const since = answer.downForS === undefined ? "" : ` (for ${answer.downForS} s)`;
  return {
    show: true,
    title:
      answer.databaseState === "restarting"
        ? `The database is restarting${since}`
        : `The database is unreachable${since}`,
    detail:
      "Changes are refused until it is back (the API answers 503 with Retry-After); nothing the workbench acknowledged is lost, and webhook deliveries resume in order. A page keeps what it shows and loads the rest once the database is back.",
  };
}

/** How long until the next look: soon while something is wrong. */
export const healthPollMs = (state: DatabaseBannerState) => (state.show ? 2_000 : 5_000);
