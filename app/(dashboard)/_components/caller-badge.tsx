"use client";
import { useCaller } from "./use-caller";

/** Who is signed in, with sign-out (shared mode); "local" when the workbench listens on loopback only. */
export function CallerBadge() {
  const { data } = useCaller();
  if (!data) return null;
  if (data.mode === "local") {
    return (
      <span
        className="rounded bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700"
        title="Listening on loopback only: no sign-in"
        data-testid="access-mode"
      >
        local
      </span>
    );
  }
  return (
    <div className="flex items-center gap-2 text-sm" data-testid="signed-in-as">
      <span>
        <span className="font-medium">{data.caller.name}</span>{" "}
        <span className="text-slate-600">· {data.caller.role}</span>
      </span>
      {data.caller.kind === "member" && (
        <form method="post" action="/auth/sign-out">
          <button
            type="submit"
            className="rounded-md border border-slate-300 px-2 py-1 text-xs font-medium hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500"
          >
            Sign out
          </button>
        </form>
      )}
    </div>
  );
}
