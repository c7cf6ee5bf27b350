"use client";
import {
  ArrowDownToLine,
  Activity,
  BookOpen,
  Building2,
  Clock,
  FlaskConical,
  LayoutDashboard,
  type LucideIcon,
  Radio,
  Send,
  Siren,
  Terminal,
} from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/app/_components/ui/cn";

/** The workbench's areas, in the navigation's order. */
export const AREAS = [
  { href: "/", label: "Overview" },
  { href: "/incidents", label: "Incidents" },
  { href: "/deliveries", label: "Deliveries" },
  { href: "/api-calls", label: "API calls" },
  { href: "/reference-receivers", label: "Receivers" },
  { href: "/simulator", label: "Simulator" },
  { href: "/partner-console", label: "Partner console" },
  { href: "/conformance", label: "Conformance" },
  { href: "/api-docs", label: "Inbound API" },
  { href: "/docs", label: "Docs" },
  { href: "/admin", label: "Admin" },
  { href: "/clock", label: "Clock" },
] as const;

const ICONS: Record<string, LucideIcon> = {
  "/": LayoutDashboard,
  "/incidents": Siren,
  "/deliveries": Send,
  "/api-calls": ArrowDownToLine,
  "/reference-receivers": Radio,
  "/simulator": FlaskConical,
  "/partner-console": Terminal,
  "/docs": BookOpen,
  "/admin": Building2,
  "/clock": Clock,
};

export function Nav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Workbench areas" className="flex flex-col gap-0.5 p-3">
      {AREAS.map((area) => {
        const active = area.href === "/" ? pathname === "/" : pathname.startsWith(area.href);
        const Icon = ICONS[area.href] ?? Activity;
        return (
          <Link
            key={area.href}
            href={area.href}
            aria-current={active ? "page" : undefined}
            className={cn(
              "flex items-center gap-2.5 rounded-md px-3 py-2 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500",
              active ? "bg-slate-800 text-white shadow-inner" : "text-slate-300 hover:bg-slate-800/60 hover:text-white",
            )}
          >
            <Icon aria-hidden className={cn("h-4 w-4 shrink-0", active ? "text-orange-400" : "text-slate-500")} />
            {area.label}
          </Link>
        );
      })}
    </nav>
  );
}
