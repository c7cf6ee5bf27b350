"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "@/app/_components/ui/alert";
import { Button } from "@/app/_components/ui/button";
import { ClientForm, Input } from "@/app/_components/ui/form";
import { cn } from "@/app/_components/ui/cn";
import { useTRPC } from "@/app/_trpc/react";

/** The simulated conversation: caller messages come from the simulator, the dispatcher answers here. */
export function ChatConversation({ incidentId, active }: { incidentId: string; active: boolean }) {
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
  return (
    <section aria-labelledby="conversation-h" className="rounded-lg border border-slate-200 bg-white">
      <h2 id="conversation-h" className="border-b border-slate-200 px-4 py-2.5 text-sm font-semibold">
        Conversation
      </h2>
      <ol
        aria-live="polite"
        aria-label="Messages"
        className="flex max-h-[28rem] min-h-40 flex-col gap-2 overflow-y-auto p-4"
        data-testid="chat-messages"
      >
        {(messages.data ?? []).map((m) => (
          <li
            key={m.id}
            className={cn(
              "max-w-[80%] rounded-lg px-3 py-2 text-sm",
              m.author === "Caller" ? "self-start bg-slate-100 text-slate-900" : "self-end bg-slate-900 text-white",
            )}
          >
            <span className="sr-only">{m.author}: </span>
            {m.text}
            <div
              className={cn(
                "mt-0.5 font-mono text-[11px]",
                m.author === "Caller" ? "text-slate-600" : "text-slate-300",
              )}
            >
              {m.author} · {m.sentAtUtc.slice(11, 19)}Z
            </div>
          </li>
        ))}
        {messages.data?.length === 0 && (
          <li className="text-sm text-slate-600">No messages yet. Caller messages are sent from the Simulator.</li>
        )}
      </ol>
      <ClientForm
        className="flex gap-2 border-t border-slate-200 p-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) send.mutate({ incidentId, text });
        }}
      >
        <label htmlFor="chat-reply" className="sr-only">
          Reply to the caller
        </label>
        <Input
          id="chat-reply"
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
    </section>
  );
}
