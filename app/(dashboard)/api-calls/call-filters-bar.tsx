"use client";
import { Field, Input, Select } from "@/app/_components/ui/form";
import { type CallFilters, type FilterErrors, WINDOWS } from "./call-filters";

/** The filters: client, surface, operation, status, problem code, incident, window, "has advice". */
export function CallFiltersBar({
  filters,
  errors,
  clients,
  onChange,
}: {
  filters: CallFilters;
  errors: FilterErrors;
  clients: string[];
  onChange: (patch: Partial<CallFilters>) => void;
}) {
  return (
    <div
      className="flex flex-wrap items-start gap-x-3 gap-y-2 [&>*]:shrink-0"
      role="search"
      aria-label="Filter API calls"
    >
      <div className="w-40">
        <Field id="c-client" label="Client">
          <Select id="c-client" value={filters.client} onChange={(e) => onChange({ client: e.target.value, call: "" })}>
            <option value="">all</option>
            {[...new Set([...clients, ...(filters.client ? [filters.client] : [])])].map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <div className="w-32">
        <Field id="c-surface" label="Surface" error={errors.surface}>
          <Select
            id="c-surface"
            value={filters.surface}
            onChange={(e) => onChange({ surface: e.target.value, call: "" })}
          >
            <option value="">all</option>
            <option value="token">/connect/token</option>
            <option value="v1">/v1</option>
            <option value="account">/Account</option>
          </Select>
        </Field>
      </div>
      <div className="w-60">
        <Field id="c-operation" label="Operation">
          <Input
            id="c-operation"
            value={filters.operation}
            placeholder="POST /v1/incidents"
            maxLength={200}
            onChange={(e) => onChange({ operation: e.target.value, call: "" })}
          />
        </Field>
      </div>
      <div className="w-24">
        <Field id="c-status" label="Status" error={errors.status}>
          <Input
            id="c-status"
            value={filters.status}
            inputMode="numeric"
            placeholder="409"
            maxLength={3}
            aria-invalid={errors.status ? true : undefined}
            onChange={(e) => onChange({ status: e.target.value, call: "" })}
          />
        </Field>
      </div>
      <div className="w-48">
        <Field id="c-problem" label="Problem code">
          <Input
            id="c-problem"
            value={filters.problem}
            placeholder="ValidationFailed"
            maxLength={100}
            onChange={(e) => onChange({ problem: e.target.value, call: "" })}
          />
        </Field>
      </div>
      <div className="w-72">
        <Field id="c-incident" label="Incident" error={errors.incident}>
          <Input
            id="c-incident"
            value={filters.incident}
            placeholder="incident id"
            className="font-mono text-xs"
            maxLength={36}
            aria-invalid={errors.incident ? true : undefined}
            onChange={(e) => onChange({ incident: e.target.value, call: "" })}
          />
        </Field>
      </div>
      <div className="w-28">
        <Field id="c-within" label="Received">
          <Select id="c-within" value={filters.within} onChange={(e) => onChange({ within: e.target.value, call: "" })}>
            {WINDOWS.map((w) => (
              <option key={w} value={w}>
                last {w}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <label className="mt-6 flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={filters.advice === "1"}
          onChange={(e) => onChange({ advice: e.target.checked ? "1" : "", call: "" })}
          className="h-4 w-4 accent-orange-700"
        />
        Has advice
      </label>
    </div>
  );
}
