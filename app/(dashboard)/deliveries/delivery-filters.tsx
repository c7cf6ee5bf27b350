"use client";
import { Field, Input, Select } from "@/app/_components/ui/form";
import { type FilterErrors, type InspectorFilters, STATES, WITHIN } from "./inspector-filters";

/** The inspector's filters, one row at 1280 px; a value the server cannot take is named under its field. */
export function DeliveryFilters({
  filters,
  errors,
  integrations,
  onChange,
}: {
  filters: InspectorFilters;
  errors: FilterErrors;
  integrations: string[];
  onChange: (patch: Partial<InspectorFilters>) => void;
}) {
  return (
    // Wrapping fields of fixed widths, the search taking what is left (at least 14rem): one row at
    // 1920 px, two at 1280 px, never a field squeezed until its text is clipped.
    <div
      className="flex flex-wrap items-start gap-x-3 gap-y-2 [&>*]:shrink-0"
      role="search"
      aria-label="Filter deliveries"
    >
      <div className="w-36">
        <Field id="f-integration" label="Integration">
          <Select
            id="f-integration"
            value={filters.integration}
            onChange={(e) => onChange({ integration: e.target.value, selected: "" })}
          >
            <option value="">all</option>
            {integrations.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <div className="w-[19rem]">
        <Field id="f-incident" label="Incident" error={errors.incident}>
          <Input
            id="f-incident"
            value={filters.incident}
            placeholder="id or first 8 characters"
            className="font-mono text-xs"
            aria-invalid={errors.incident ? true : undefined}
            aria-describedby={errors.incident ? "f-incident-error" : undefined}
            onChange={(e) => onChange({ incident: e.target.value, selected: "" })}
          />
        </Field>
      </div>
      <div className="w-36">
        <Field id="f-state" label="State">
          <Select id="f-state" value={filters.state} onChange={(e) => onChange({ state: e.target.value })}>
            <option value="">any</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <div className="w-28">
        <Field id="f-status" label="Attempt status" error={errors.status}>
          <Input
            id="f-status"
            inputMode="numeric"
            value={filters.status}
            placeholder="e.g. 503"
            maxLength={3}
            className="font-mono text-xs"
            aria-invalid={errors.status ? true : undefined}
            aria-describedby={errors.status ? "f-status-error" : undefined}
            onChange={(e) => onChange({ status: e.target.value })}
          />
        </Field>
      </div>
      <div className="w-32">
        <Field id="f-within" label="Produced">
          <Select id="f-within" value={filters.within} onChange={(e) => onChange({ within: e.target.value })}>
            <option value="">any time</option>
            {Object.entries(WITHIN).map(([k, label]) => (
              <option key={k} value={k}>
                {label}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <div className="flex h-[3.75rem] items-end pb-2">
        <label className="flex items-center gap-1.5 whitespace-nowrap text-sm text-slate-700">
          <input
            type="checkbox"
            className="h-4 w-4 accent-orange-700"
            checked={filters.failed === "1"}
            onChange={(e) => onChange({ failed: e.target.checked ? "1" : "" })}
          />
          Has failed attempts
        </label>
      </div>
      <div className="min-w-56 flex-1 !shrink">
        <Field id="f-q" label="Search">
          <Input
            id="f-q"
            type="search"
            value={filters.q}
            placeholder="id (or its first 8), event or path"
            onChange={(e) => onChange({ q: e.target.value })}
          />
        </Field>
      </div>
    </div>
  );
}
