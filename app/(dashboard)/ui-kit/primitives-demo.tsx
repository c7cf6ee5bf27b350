"use client";
import { useQuery } from "@tanstack/react-query";
import { MoreHorizontal } from "lucide-react";
import { useEffect, useState } from "react";
import { useTRPC } from "@/app/_trpc/react";
import { Alert } from "@/app/_components/ui/alert";
import { Badge } from "@/app/_components/ui/badge";
import { Button } from "@/app/_components/ui/button";
import { CodeBlock } from "@/app/_components/ui/code-block";
import { Countdown } from "@/app/_components/ui/countdown";
import { Dialog, DialogClose, DialogContent, DialogTrigger } from "@/app/_components/ui/dialog";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/app/_components/ui/dropdown-menu";
import { EmptyState } from "@/app/_components/ui/empty-state";
import { ClientForm, Field, Input, Label, Select, Textarea } from "@/app/_components/ui/form";
import { KeyValueList } from "@/app/_components/ui/key-value";
import { PurposeBadge } from "@/app/_components/ui/purpose-badge";
import { SkeletonRows } from "@/app/_components/ui/skeleton";
import { Switch } from "@/app/_components/ui/switch";
import { Tooltip } from "@/app/_components/ui/tooltip";

const CURL = `curl -X POST http://localhost:3000/v1/incidents \\
  -H 'Authorization: Bearer <redacted>' \\
  -H 'Content-Type: application/json' \\
  -d '{"purpose":"Test","caller":{"phoneNumber":"+43 660 1234567"}}'`;

export function PrimitivesDemo() {
  const trpc = useTRPC();
  const clock = useQuery({ ...trpc.clock.show.queryOptions(), refetchInterval: 2_000 });
  // Set after mount: a target computed during render would differ between server and browser.
  const [target, setTarget] = useState<string | null>(null);
  useEffect(
    () => setTarget(new Date(Date.now() + (clock.data?.offsetMs ?? 0) + 5 * 60_000).toISOString()),
    [clock.data?.offsetMs],
  );
  const [dispatchable, setDispatchable] = useState(true);
  const [menuChoice, setMenuChoice] = useState<string | null>(null);
  return (
    <div className="grid gap-6">
      <Row title="Buttons">
        <Button>Primary</Button>
        <Button variant="secondary">Secondary</Button>
        <Button variant="ghost">Ghost</Button>
        <Button variant="danger">Resend all</Button>
        <Button variant="link">Link</Button>
        <Button size="sm">Small</Button>
        <Button disabled>Disabled</Button>
      </Row>
      <Row title="Badges and purpose">
        <Badge>neutral</Badge>
        <Badge tone="info">info</Badge>
        <Badge tone="success">delivered</Badge>
        <Badge tone="warning">retrying</Badge>
        <Badge tone="danger">expired</Badge>
        <Badge tone="brand">Owner</Badge>
        <PurposeBadge purpose="Real" />
        <PurposeBadge purpose="Demo" />
        <PurposeBadge purpose="Test" />
      </Row>
      <Row title="Dialog, menu, switch, tooltip">
        <Dialog>
          <DialogTrigger asChild>
            <Button variant="secondary">Open dialog</Button>
          </DialogTrigger>
          <DialogContent
            title="Resend delivery?"
            description="The receiver gets the same requestId again; a correct receiver deduplicates it."
          >
            <div className="flex justify-end gap-2">
              <DialogClose asChild>
                <Button variant="secondary">Cancel</Button>
              </DialogClose>
              <DialogClose asChild>
                <Button>Resend</Button>
              </DialogClose>
            </div>
          </DialogContent>
        </Dialog>
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="secondary" aria-label="Delivery actions">
              <MoreHorizontal className="h-4 w-4" aria-hidden />
              Actions
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent>
            <DropdownMenuLabel>Delivery</DropdownMenuLabel>
            <DropdownMenuItem onSelect={() => setMenuChoice("Resend")}>Resend</DropdownMenuItem>
            <DropdownMenuItem onSelect={() => setMenuChoice("Copy as curl")}>Copy as curl</DropdownMenuItem>
            <DropdownMenuSeparator />
            <DropdownMenuItem disabled>Delete (not allowed)</DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
        {menuChoice && <span className="text-sm text-slate-600">chose: {menuChoice}</span>}
        <span className="inline-flex items-center gap-2">
          <Switch id="kit-switch" checked={dispatchable} onCheckedChange={setDispatchable} />
          <Label htmlFor="kit-switch" className="mb-0">
            Receiver accepts IncidentUpdated
          </Label>
        </span>
        <Tooltip content="Workbench time, not wall-clock time">
          <Button variant="ghost" size="sm">
            Hover or focus me
          </Button>
        </Tooltip>
      </Row>
      <Row title="Countdown (workbench clock)">
        {target && <Countdown label="fault ends in" targetIso={target} clockOffsetMs={clock.data?.offsetMs ?? 0} />}
        <Countdown label="expires in" targetIso="2020-01-01T00:00:00Z" clockOffsetMs={0} />
      </Row>
      <div className="grid gap-4 md:grid-cols-2">
        <ClientForm className="grid gap-3" onSubmit={(e) => e.preventDefault()}>
          <Field id="kit-name" label="Caller name" hint="As the caller gave it">
            <Input id="kit-name" defaultValue="Anna Huber" />
          </Field>
          <Field id="kit-acc" label="Accuracy (m)" error="Must be 0 or more">
            <Input id="kit-acc" type="number" defaultValue={-5} aria-invalid="true" aria-describedby="kit-acc-error" />
          </Field>
          <Field id="kit-source" label="Source">
            <Select id="kit-source" defaultValue="Aml">
              <option>Aml</option>
              <option>MobileApp</option>
              <option>Entered</option>
            </Select>
          </Field>
          <Field id="kit-note" label="Chat message">
            <Textarea id="kit-note" defaultValue="We are on our way." />
          </Field>
        </ClientForm>
        <div className="grid content-start gap-3">
          <Alert tone="info" title="Receiver rediscovered">
            Capabilities changed: IncidentUpdated is now delivered as v3.
          </Alert>
          <Alert tone="success">Delivered on attempt 3.</Alert>
          <Alert tone="warning" title="Head of line is failing">
            4 later events wait behind it.
          </Alert>
          <Alert tone="danger" title="Receiver returned 401">
            invalid_token: the audience does not match.
          </Alert>
        </div>
      </div>
      <div className="grid items-start gap-4 md:grid-cols-3">
        <KeyValueList
          items={[
            { label: "client_id", value: "partner-cad", mono: true },
            { label: "Scope", value: "incidents.write", mono: true },
            { label: "Expires", value: null },
          ]}
        />
        <SkeletonRows rows={4} label="Loading deliveries…" />
        <EmptyState title="No deliveries yet" action={<Button size="sm">Create a Test incident</Button>}>
          Create an incident from the partner console and its webhooks appear here.
        </EmptyState>
      </div>
      <CodeBlock code={CURL} label="Copy curl" />
    </div>
  );
}

function Row({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div>
      <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
      <div className="flex flex-wrap items-center gap-2">{children}</div>
    </div>
  );
}
