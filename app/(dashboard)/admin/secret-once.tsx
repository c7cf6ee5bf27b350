"use client";

/** A client secret, shown once: it is stored only as a hash and cannot be shown again. */
export function SecretOnce({
  clientId,
  secret,
  onDismiss,
}: {
  clientId: string;
  secret: string;
  onDismiss: () => void;
}) {
  return (
    <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm">
      <p className="font-semibold">client_secret of {clientId}: copy it now, it will not be shown again.</p>
      <p className="mt-2 break-all rounded bg-white p-2 font-mono text-xs" data-testid="client-secret">
        {secret}
      </p>
      <div className="mt-2 flex gap-2">
        <button
          type="button"
          onClick={() => void navigator.clipboard?.writeText(secret)}
          className="rounded-md border border-slate-300 bg-white px-3 py-1 text-xs font-medium hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500"
        >
          Copy
        </button>
        <button
          type="button"
          onClick={onDismiss}
          className="rounded-md border border-slate-300 bg-white px-3 py-1 text-xs font-medium hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500"
        >
          I have stored it
        </button>
      </div>
    </div>
  );
}
