// Which receiver URLs the kit targets. The service itself delivers only to HTTPS
// endpoints with a valid certificate (platform-interface.md); the kit allows
// plain http only for loopback hosts, where a receiver under development runs
// (the workbench's embedded receivers included). Anything else must be https.
import { AppError } from "../platform/errors.ts";
import { isLoopbackHost } from "../platform/network/loopback.ts";

/** The receiver base URL ({receiver_url}) without a trailing slash, or a ValidationFailed AppError. */
export function normalizeReceiverUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw invalid(`"${input}" is not a URL.`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw invalid("The receiver URL must be https:// (http:// only for loopback).");
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    throw invalid(`Plain http is allowed only for loopback receivers (localhost, 127.0.0.0/8, ::1); use https:// for ${url.hostname}.`);
  }
  if (url.search || url.hash) throw invalid("The receiver URL is a base URL: no query string or fragment.");
  if (url.username || url.password) throw invalid("The receiver URL must not carry credentials.");
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

const invalid = (detail: string) => new AppError("ValidationFailed", 400, detail, [{ field: "receiverUrl", message: detail }]);
