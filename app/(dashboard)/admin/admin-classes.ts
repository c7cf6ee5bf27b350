// The class names of the admin sections' hand-built tables and forms: a header cell, a body cell,
// and the dark action button.
export const th = "px-4 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600";
export const td = "px-4 py-2 align-top text-sm";
export const button =
  "rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500 disabled:opacity-50";
