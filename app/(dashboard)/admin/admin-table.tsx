// The admin sections' hand-built tables: a header row whose last, unlabelled column holds the row's
// actions, a row that says the table is empty, and the line that says why a section's last action
// failed.
import type { ReactNode } from "react";
import { td, th } from "./admin-classes";

/** The header row; an "Actions" column for screen readers closes it. */
export function AdminTableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c} className={th}>
            {c}
          </th>
        ))}
        <th className={th}>
          <span className="sr-only">Actions</span>
        </th>
      </tr>
    </thead>
  );
}

/** The first failure among a section's mutations, as an alert; nothing when none failed. */
export function ActionError({ errors }: { errors: ReadonlyArray<{ message: string } | null | undefined> }) {
  const error = errors.find(Boolean);
  if (!error) return null;
  return (
    <p role="alert" className="px-4 py-2 text-sm text-red-700">
      {error.message}
    </p>
  );
}

/** A table's only row when it has none of its own (`rows`: the loaded rows; nothing while loading). */
export function NoRows({
  rows,
  columns,
  children,
}: {
  rows: unknown[] | undefined;
  columns: number;
  children: ReactNode;
}) {
  if (rows?.length !== 0) return null;
  return (
    <tr>
      <td colSpan={columns} className={`${td} text-slate-600`}>
        {children}
      </td>
    </tr>
  );
}
