import type { ComponentProps } from "react";
import { cn } from "./cn";

/** Plain semantic table, styled; scrolls horizontally inside its box rather than the page at 1280 px. */
export function Table({ className, ...props }: ComponentProps<"table">) {
  return (
    <div className="overflow-x-auto">
      <table className={cn("min-w-full divide-y divide-slate-100 text-sm", className)} {...props} />
    </div>
  );
}
export function THead(props: ComponentProps<"thead">) {
  return <thead className="bg-slate-50/60" {...props} />;
}
export function TBody({ className, ...props }: ComponentProps<"tbody">) {
  return <tbody className={cn("divide-y divide-slate-100", className)} {...props} />;
}
export function TR({ className, ...props }: ComponentProps<"tr">) {
  return <tr className={cn("hover:bg-slate-50/80", className)} {...props} />;
}
export function TH({ className, ...props }: ComponentProps<"th">) {
  return (
    <th
      scope="col"
      className={cn("px-4 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500", className)}
      {...props}
    />
  );
}
export function TD({ className, ...props }: ComponentProps<"td">) {
  return <td className={cn("px-4 py-2 align-top", className)} {...props} />;
}
