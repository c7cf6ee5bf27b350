"use client";
import { Label as LabelPrimitive } from "radix-ui";
import type { ComponentProps } from "react";
import { cn, focusRing } from "./cn";
import { useHydrated } from "./use-hydrated";

const field = `block w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm shadow-xs placeholder:text-slate-500 disabled:opacity-50 aria-[invalid=true]:border-red-600 ${focusRing} focus-visible:ring-offset-0`;

export function Label({ className, ...props }: ComponentProps<typeof LabelPrimitive.Root>) {
  return <LabelPrimitive.Root className={cn("mb-1 block text-xs font-medium text-slate-700", className)} {...props} />;
}
export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input className={cn(field, "h-9", className)} {...props} />;
}
export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return <textarea className={cn(field, "min-h-20 font-mono text-xs", className)} {...props} />;
}
/**
 * A native select, styled: it submits with forms, works with every screen reader and with
 * Playwright's selectOption, which a Radix listbox would not give for free.
 */
export function Select({ className, ...props }: ComponentProps<"select">) {
  return <select className={cn(field, "h-9 pr-8", className)} {...props} />;
}

/** Label + control + hint/error, wired with ids so the error is announced. */
export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  children: React.ReactNode;
}) {
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-xs text-red-700">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A form handled by React (onSubmit): every control inside stays disabled until the page has
 * hydrated (a disabled fieldset, laid out as if absent). Before hydration a submit would be the
 * browser's own GET that reloads the page and loses the input, and a value typed in would be
 * reset by hydration; Playwright's fill/click wait for enabled controls.
 */
export function ClientForm({ children, ...props }: ComponentProps<"form">) {
  const hydrated = useHydrated();
  return (
    <form {...props}>
      <fieldset disabled={!hydrated} className="contents">
        {children}
      </fieldset>
    </form>
  );
}
