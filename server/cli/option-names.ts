// The CLI's names for the tRPC input fields it fills: a refused field is
// reported under the option or argument the user typed (`--limit`, `<duration>`),
// not the API's field name. A field missing here is shown as --kebab-case.
const NAMES: Record<string, string> = {
  incidentId: "--incident",
  integration: "--integration",
  state: "--state",
  limit: "--limit",
  take: "--take",
  byMs: "<duration>",
  key: "<key>",
  scenario: "<key>",
  url: "--url",
  agencyId: "--agency",
  receiverUrl: "<receiver-url>",
  origin: "--origin",
  source: "--source",
  latitude: "--lat",
  longitude: "--lon",
  accuracy: "--accuracy",
  altitude: "--altitude",
  capturedSecondsAgo: "--captured-ago",
  batteryLevel: "--battery",
  internetConnectionType: "--connection",
  phoneNumber: "--phone",
  fullName: "<fullName>",
  text: "--message",
  mode: "--mode",
  clientId: "--client",
  surface: "--surface",
  operation: "--operation",
  count: "--count",
  percent: "--percent",
  retryAfterS: "--retry-after",
  problemCode: "--problem",
  within: "--since",
  hasAdvice: "--advice",
  for: "--for",
  at: "--at",
  version: "--version",
  allowsMonitoring: "--allows-monitoring",
};

const kebab = (name: string) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** `location.latitude` → `--lat`: the whole path first, then its last field. */
export function optionName(path: string): string {
  const last = path.split(".").at(-1) ?? path;
  return NAMES[path] ?? NAMES[last] ?? (last ? kebab(last) : "the input");
}
