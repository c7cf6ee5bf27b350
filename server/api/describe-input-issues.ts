// A refused tRPC input in one line per issue: which field, what it got, what
// it takes ("limit: got 100000, takes a number of at most 5000"). tRPC's own
// message for an input error is zod's issue array as JSON, which the CLI and
// the dashboard printed as is. The CLI puts its option names in front of these
// (server/cli/describe-failure.ts); the bounds come from the zod issue, so a
// one-sided issue names one bound.
import type { ZodError } from "zod";

export type InputIssue = { path: string; message: string; got?: string; takes?: string };

type Issue = ZodError["issues"][number] & Record<string, unknown>;

const LONGEST_SHOWN = 60;

/** A value as the user typed it, shortened: a number as is, text quoted. */
export function showValue(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > LONGEST_SHOWN ? `${text.slice(0, LONGEST_SHOWN - 1)}…` : text;
}

const KINDS: Record<string, string> = {
  int: "a whole number",
  number: "a number",
  string: "text",
  boolean: "true or false",
  array: "a list",
  object: "an object",
};
const FORMATS: Record<string, string> = {
  uuid: "a UUID",
  url: "a URL",
  email: "an e-mail address",
  datetime: "an ISO 8601 time",
  e164: "a phone number in E.164 (+4790000100)",
};

function bound(issue: Issue, word: "least" | "most"): string {
  const value = issue.code === "too_big" ? issue.maximum : issue.minimum;
  const exclusive = issue.inclusive === false;
  const limit = `${exclusive ? (word === "most" ? "less than" : "more than") : `at ${word}`} ${String(value)}`;
  if (issue.origin === "string") return `text of ${limit} characters`;
  if (issue.origin === "array" || issue.origin === "set") return `a list of ${limit} items`;
  return `a number ${limit}`;
}

/** What the field takes, from the issue alone; undefined when the issue says nothing usable. */
function takes(issue: Issue): string | undefined {
  switch (issue.code) {
    case "too_big":
      return bound(issue, "most");
    case "too_small":
      return bound(issue, "least");
    case "invalid_type":
      return KINDS[String(issue.expected)] ?? String(issue.expected);
    case "invalid_format":
      return FORMATS[String(issue.format)] ?? `the ${String(issue.format)} format`;
    case "invalid_value":
      return `one of ${(issue.values as unknown[]).map((v) => String(v)).join(", ")}`;
    default:
      return undefined;
  }
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let at = input;
  for (const key of path) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

export function describeInputIssues(error: ZodError, input: unknown): InputIssue[] {
  return error.issues.map((raw) => {
    const issue = raw as Issue;
    const path = issue.path.map(String).join(".");
    const what = takes(issue);
    const got = showValue(valueAt(input, issue.path));
    const name = path || "input";
    return {
      path,
      got,
      takes: what,
      message: what ? `${name}: got ${got}, takes ${what}` : `${name}: ${issue.message}`,
    };
  });
}
