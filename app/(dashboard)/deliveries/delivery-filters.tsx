"use client";
import { Field, Input, Select } from "@/app/_components/ui/form";
import type { InspectorFilters } from "./inspector-filters";

export function DeliveryFilters({
  filters,
  integrations,
  onChange,
}: {
  filters: InspectorFilters;
  integrations: string[];
  onChange: (patch: Partial<InspectorFilters>) => void;
}) {
  return (
    <div
      className="grid grid-cols-2 gap-3 lg:grid-cols-[10rem_19rem_9rem_1fr]"
      role="search"
      aria-label="Filter deliveries"
    >
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
      <Field id="f-incident" label="Incident">
        <Input
          id="f-incident"
          value={filters.incident}
          placeholder="incident id"
          className="font-mono text-xs"
          onChange={(e) => onChange({ incident: e.target.value, selected: "" })}
        />
      </Field>
      <Field id="f-state" label="State">
        <Select id="f-state" value={filters.state} onChange={(e) => onChange({ state: e.target.value })}>
          <option value="">any</option>
          {["pending", "delivering", "delivered", "expired"].map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
      </Field>
      <Field id="f-q" label="Search">
        <Input
          id="f-q"
          type="search"
          value={filters.q}
          placeholder="Service-Request-Id, incident id, event or path"
          onChange={(e) => onChange({ q: e.target.value })}
        />
      </Field>
    </div>
  );
}
