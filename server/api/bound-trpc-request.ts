// Bounds of one request to the dashboard's API (/api/trpc), checked before tRPC
// reads it: a body of at most 1 MiB, at most 16 calls per batch, and a mutation
// body that is application/json. tRPC itself also accepts multipart/form-data and
// application/octet-stream, which a browser sends cross-site without a CORS
// preflight (a plain HTML form can post multipart); the dashboard and the CLI
// send JSON only, so nothing else is accepted. The input, in the query or the body, nests at most
// MAX_JSON_DEPTH deep and has no NUL or lone surrogate in any string (json-input.ts): a deep
// input overflowed the stack of the code that walks it, and NUL reached the database as a 500.
//
// The refusal is a TRPCError that the route throws from createContext, so it is
// rendered in tRPC's error shape by the same errorFormatter as every other error,
// once per call, and no procedure runs.
import { TRPCError } from "@trpc/server";
import { parseJsonInput } from "../platform/json-input.ts";

/** Largest request body: the biggest dashboard input (a scenario script, a capability declaration) is a few KiB. */
export const MAX_TRPC_BODY_BYTES = 1024 * 1024;
/** Most calls in one batch; the dashboard's link batches at most this many (app/_trpc/react.tsx). */
export const MAX_TRPC_BATCH_CALLS = 16;
/** Longest URL (path and query, GET batches carry their input there); the dashboard's link stays below it. */
export const MAX_TRPC_URL_LENGTH = 8 * 1024;

/** Where the dashboard's API is served (server/http/workbench-api.ts) and these bounds apply. */
export const TRPC_PREFIX = "/api/trpc";

export function isTrpcPath(pathname: string): boolean {
  return pathname === TRPC_PREFIX || pathname.startsWith(`${TRPC_PREFIX}/`);
}

export type BoundedTrpcRequest = { req: Request; refusal: TRPCError | null };

const isJson = (type: string | null) =>
  type !== null && type.split(";", 1)[0]!.trim().toLowerCase() === "application/json";

function checkCallCount(url: URL): TRPCError | null {
  if (url.searchParams.get("batch") !== "1") return null;
  const calls = url.pathname.split("/").pop()!.split(",").length;
  if (calls <= MAX_TRPC_BATCH_CALLS) return null;
  return new TRPCError({
    code: "BAD_REQUEST",
    message: `A batch may hold at most ${MAX_TRPC_BATCH_CALLS} calls; this one has ${calls}.`,
  });
}

/** The body, read up to the limit; null when it is longer (the rest is not read). */
async function readBoundedBody(req: Request): Promise<ArrayBuffer | null> {
  if (!req.body) return new ArrayBuffer(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_TRPC_BODY_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body.buffer;
}

/** The request with its body read within bounds, or the reason it is refused (and an empty body). */
export async function boundTrpcRequest(req: Request): Promise<BoundedTrpcRequest> {
  const url = new URL(req.url);
  const refuse = (refusal: TRPCError): BoundedTrpcRequest => ({
    req: new Request(req.url, { method: req.method, headers: req.headers }),
    refusal,
  });
  if (url.pathname.length + url.search.length > MAX_TRPC_URL_LENGTH) {
    return refuse(
      new TRPCError({
        code: "BAD_REQUEST",
        message: `The request URL is longer than ${MAX_TRPC_URL_LENGTH} characters.`,
      }),
    );
  }
  const tooMany = checkCallCount(url);
  if (tooMany) return refuse(tooMany);
  if (req.method === "GET" || req.method === "HEAD") {
    const input = url.searchParams.get("input");
    const unsafe = input === null ? null : checkInput(input, url);
    return unsafe ? refuse(unsafe) : { req, refusal: null };
  }
  if (!isJson(req.headers.get("content-type"))) {
    return refuse(
      new TRPCError({
        code: "UNSUPPORTED_MEDIA_TYPE",
        message: "The dashboard API accepts application/json request bodies only.",
      }),
    );
  }
  const body = await readBoundedBody(req);
  if (body === null)
    return refuse(
      new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: `The request body exceeds ${MAX_TRPC_BODY_BYTES} bytes.` }),
    );
  const unsafe = body.byteLength === 0 ? null : checkInput(new TextDecoder().decode(body), url);
  if (unsafe) return refuse(unsafe);
  return {
    req: new Request(req.url, { method: req.method, headers: req.headers, body, signal: req.signal }),
    refusal: null,
  };
}

/**
 * Why an input (superjson's `{json: …}`, or a batch of them by call index) is refused, naming the
 * field as the procedure sees it ("search", or "call 2: search"); null for one that may be parsed.
 * Malformed JSON is left to tRPC, which answers it in its own words.
 */
function checkInput(text: string, url: URL): TRPCError | null {
  const parsed = parseJsonInput(text);
  if (parsed.ok || parsed.kind === "syntax") return null;
  if (parsed.kind === "depth") return new TRPCError({ code: "BAD_REQUEST", message: `The input ${parsed.message}.` });
  let path = parsed.field.split(".");
  let call = "";
  if (url.searchParams.get("batch") === "1" && /^\d+$/.test(path[0] ?? "")) {
    call = `call ${path[0]}: `;
    path = path.slice(1);
  }
  if (path[0] === "json") path = path.slice(1);
  return new TRPCError({
    code: "BAD_REQUEST",
    message: `${call}${path.join(".") || "the input"} ${parsed.message}.`,
  });
}
