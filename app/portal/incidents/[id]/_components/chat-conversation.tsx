"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Alert } from "@/app/_components/ui/alert";
import { Button } from "@/app/_components/ui/button";
import { ClientForm, Input } from "@/app/_components/ui/form";
import { cn } from "@/app/_components/ui/cn";
import { RelativeTime } from "@/app/_components/ui/relative-time";
import { SkeletonRows } from "@/app/_components/ui/skeleton";
import { useTRPC } from "@/app/_trpc/react";
import { markChatSeen } from "../../../_components/chat-seen";

/**
 * The simulated conversation: caller messages come from the simulator, the dispatcher answers
 * here. Shown, the caller's newest message counts as seen in this browser (the list's unread mark).
 */
export function ChatConversation({
  incidentId,
  active,
  nowMs,
  className,
  listClassName,
}: {
  incidentId: string;
  active: boolean;
  nowMs: number | null;
  className?: string;
  listClassName?: string;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const messages = useQuery({ ...trpc.portal.chatMessages.queryOptions({ incidentId }), refetchInterval: 1_000 });
  const send = useMutation(
    trpc.portal.sendChatMessage.mutationOptions({
      onSuccess: () => {
        setText("");
        void queryClient.invalidateQueries({ queryKey: trpc.portal.chatMessages.queryKey({ incidentId }) });
      },
    }),
  );
  const list = useRef<HTMLOListElement>(null);
  const count = messages.data?.length ?? 0;
  const lastCaller = messages.data?.findLast((m) => m.author === "Caller")?.sentAtUtc;
  useEffect(() => {
    if (lastCaller) markChatSeen(incidentId, lastCaller);
  }, [incidentId, lastCaller]);
  // The newest message in view as messages arrive (the list scrolls inside its own box).
  useEffect(() => {
    list.current?.scrollTo({ top: list.current.scrollHeight });
  }, [count]);
  return (
    <div className={cn("flex min-h-0 flex-col", className)}>
      {messages.error && (
        <Alert tone="danger" className="m-3">
          The conversation could not be loaded: {messages.error.message}
        </Alert>
      )}
      {messages.isPending ? (
        <div className="p-4">
          <SkeletonRows rows={3} label="Loading the conversation…" />
        </div>
      ) : (
        <ol
          ref={list}
          aria-live="polite"
          aria-label="Messages"
          // Scrollable region: focusable so keyboard users can scroll it.
          tabIndex={0}
          className={cn(
            "flex min-h-32 flex-col gap-2 overflow-y-auto p-3 focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-orange-500",
            listClassName,
          )}
          data-testid="chat-messages"
        >
          {(messages.data ?? []).map((m) => (
            <li
              key={m.id}
              className={cn(
                "max-w-[85%] break-words rounded-lg px-3 py-2 text-sm",
                m.author === "Caller" ? "self-start bg-slate-100 text-slate-900" : "self-end bg-slate-900 text-white",
              )}
            >
              <span className="sr-only">{m.author}: </span>
              {m.text}
              <div className={cn("mt-0.5 text-[11px]", m.author === "Caller" ? "text-slate-600" : "text-slate-300")}>
                {m.author} · <RelativeTime iso={m.sentAtUtc} nowMs={nowMs} />
              </div>
            </li>
          ))}
          {messages.data?.length === 0 && (
            <li className="text-sm text-slate-600">
              {active
                ? "No messages yet. The caller's messages appear here."
                : "Chat is not active: the caller's app starts it (in the workbench, from the Simulator)."}
            </li>
          )}
        </ol>
      )}
      <ClientForm
        className="flex gap-2 border-t border-slate-200 p-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) send.mutate({ incidentId, text });
        }}
      >
        <label htmlFor={`chat-reply-${incidentId}`} className="sr-only">
          Reply to the caller
        </label>
        <Input
          id={`chat-reply-${incidentId}`}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={active ? "Reply to the caller" : "Chat is not active"}
          disabled={!active}
          maxLength={2000}
        />
        <Button type="submit" disabled={!active || send.isPending || !text.trim()}>
          Send
        </Button>
      </ClientForm>
      {send.error && (
        <Alert tone="danger" className="m-3">
          {send.error.message}
        </Alert>
      )}
    </div>
  );
}
