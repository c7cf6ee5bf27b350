"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";

/** The workbench's areas; each arrives with its issue, the shell names them from the start. */
export const AREAS = [
  { href: "/", label: "Overview" },
  { href: "/incidents", label: "Incidents" },
  { href: "/deliveries", label: "Deliveries" },
  { href: "/reference-receivers", label: "Receivers" },
  { href: "/simulator", label: "Simulator" },
  { href: "/partner-console", label: "Partner console" },
  { href: "/conformance", label: "Conformance" },
  { href: "/api-docs", label: "Inbound API" },
  { href: "/admin", label: "Admin" },
  { href: "/clock", label: "Clock" },
] as const;

export function Nav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Workbench areas" className="flex flex-col gap-1 p-3">
      {AREAS.map((area) => {
        const active = area.href === "/" ? pathname === "/" : pathname.startsWith(area.href);
        return (
          <Link
            key={area.href}
            href={area.href}
            aria-current={active ? "page" : undefined}
            className={`rounded-md px-3 py-2 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500 ${
              active ? "bg-slate-800 text-white" : "text-slate-300 hover:bg-slate-800/60 hover:text-white"
            }`}
          >
            {area.label}
          </Link>
        );
      })}
    </nav>
  );
}
