"use client";
import { Select } from "../ui/form";

export type IncidentFilterValue = {
  state: "open" | "closed" | "all";
  purpose: "" | "Real" | "Test" | "Demo";
  agencyId: string;
};

/** Open/closed, purpose and agency filters of an incident list (native selects: keyboard and screen-reader friendly). */
export function IncidentFilters({
  value,
  onChange,
  agencies,
  anyAgencyLabel,
}: {
  value: IncidentFilterValue;
  onChange: (v: IncidentFilterValue) => void;
  agencies: Array<{ id: string; displayName: string }>;
  anyAgencyLabel?: string;
}) {
  const cls = "flex flex-col gap-1 text-xs font-medium text-slate-700";
  return (
    <div className="flex flex-wrap items-end gap-4" role="group" aria-label="Filter incidents">
      <label className={cls}>
        State
        <Select
          value={value.state}
          onChange={(e) => onChange({ ...value, state: e.target.value as IncidentFilterValue["state"] })}
          data-testid="filter-state"
        >
          <option value="open">Open</option>
          <option value="closed">Closed</option>
          <option value="all">All</option>
        </Select>
      </label>
      <label className={cls}>
        Purpose
        <Select
          value={value.purpose}
          onChange={(e) => onChange({ ...value, purpose: e.target.value as IncidentFilterValue["purpose"] })}
          data-testid="filter-purpose"
        >
          <option value="">Any purpose</option>
          <option value="Real">Real</option>
          <option value="Test">Test</option>
          <option value="Demo">Demo</option>
        </Select>
      </label>
      <label className={cls}>
        Agency
        <Select
          value={value.agencyId}
          onChange={(e) => onChange({ ...value, agencyId: e.target.value })}
          data-testid="filter-agency"
        >
          {anyAgencyLabel !== undefined && <option value="">{anyAgencyLabel}</option>}
          {agencies.map((a) => (
            <option key={a.id} value={a.id}>
              {a.displayName}
            </option>
          ))}
        </Select>
      </label>
    </div>
  );
}
