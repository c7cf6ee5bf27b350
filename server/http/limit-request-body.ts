// A request body limit for the Hono surfaces, checked before the body is read.
// A declared Content-Length is checked from the header alone (Node's parser reads
// exactly that many bytes); only a chunked body goes through hono's bodyLimit,
// which counts the stream. Why not bodyLimit for every request: its first step
// reads `c.req.raw.body`, which makes @hono/node-server build a full fetch Request
// with a web stream for each request and read the body through it, about a fifth
// of the API process's Node CPU per request (measured on /v1: docs/decisions/0008).
import type { Context, Env, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";

export function limitRequestBody<E extends Env>(options: {
  maxBytes: number;
  onTooLarge: (c: Context<E>) => Response | Promise<Response>;
}): MiddlewareHandler<E> {
  // The rest of the body stays unread: the connection closes after the answer, so no client reuses it mid-body.
  const refuse = (c: Context<E>) => {
    c.header("connection", "close");
    return options.onTooLarge(c);
  };
  const limitStreamedBody = bodyLimit({ maxSize: options.maxBytes, onError: refuse });
  return async function limitBody(c, next) {
    if (c.req.header("transfer-encoding") === undefined) {
      const length = c.req.header("content-length");
      if (length !== undefined && !(Number(length) <= options.maxBytes)) return refuse(c);
      return next();
    }
    return limitStreamedBody(c, next);
  };
}
