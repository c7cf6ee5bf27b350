// The browser's zod never compiles parsers with `new Function`: the Content-Security-Policy allows no eval
// (server/http/content-security-policy.ts), and zod's probe for it alone is reported as a violation.
// Imported first by the client provider, before any schema parses in the page. The browser only: the
// server's parsers (Next's thread renders this module too) keep their compiled speed.
import { z } from "zod";

if (typeof window !== "undefined") z.config({ jitless: true });
