// The one outbound-URL policy: whether the workbench may connect to a URL a
// user gave it (an integration's receiver, a conformance run's target). PURE:
// the same decision before connecting (the URL as written, literal addresses
// included) and at connect time (each address a host name resolved to, so a
// name that resolves somewhere forbidden is refused: DNS rebinding). The
// connect-time hook is `outbound-lookup.ts`.
//
// The rules (the workbench's decisions, "Origins"):
// - HTTPS with a valid certificate by default.
// - insecure-dev (plain http, any certificate) only to loopback, or to a host the
//   operator's allow-list (OUTBOUND_ALLOW) admits.
// - Private ranges only through the allow-list, whatever the scheme.
// - Link-local, cloud-metadata, unspecified, multicast, broadcast and reserved
//   addresses never, allow-list or not.
// - Shared mode: loopback is the workbench machine's own services, so only through
//   the allow-list. (The embedded receivers are not user-given URLs: they are
//   reached on PUBLIC_URL without this policy; see webhooks/sending/receiver-url.ts.)
import net from "node:net";
import type { AccessMode } from "./loopback.ts";
import { isLoopbackHost } from "./loopback.ts";

export type AddressKind = "never" | "loopback" | "private" | "public";
export type AddressClass = {
  kind: AddressKind;
  /** Why, for the refusal: "link-local", "cloud metadata", … */ what: string;
};

/** The operator's allow-list, parsed: exact host names, `*.suffix` names, addresses and CIDR ranges. */
export type AllowList = {
  entries: readonly string[];
  hosts: ReadonlySet<string>;
  suffixes: readonly string[];
  ranges: net.BlockList;
};
export type OutboundPolicy = { mode: AccessMode; allow: AllowList };
/** What a request asks for: insecure-dev allows plain http and any certificate. */
export type OutboundTarget = { insecureDev: boolean };

export const ALLOW_VARIABLE = "OUTBOUND_ALLOW";

/** Names of cloud metadata services (their addresses are refused by range too). */
const METADATA_NAMES = new Set([
  "metadata.google.internal",
  "metadata.goog",
  "metadata",
  "instance-data",
  "instance-data.ec2.internal",
]);

type Range = { net: string; prefix: number; kind: AddressKind; what: string };
// First match wins: the specific rows (metadata addresses) come before the ranges holding them.
const RANGES: Range[] = [
  { net: "169.254.169.254", prefix: 32, kind: "never", what: "a cloud-metadata address" },
  { net: "169.254.170.2", prefix: 32, kind: "never", what: "a cloud-metadata address" },
  { net: "100.100.100.200", prefix: 32, kind: "never", what: "a cloud-metadata address" },
  { net: "fd00:ec2::254", prefix: 128, kind: "never", what: "a cloud-metadata address" },
  { net: "0.0.0.0", prefix: 8, kind: "never", what: "an unspecified (0.0.0.0/8) address" },
  { net: "169.254.0.0", prefix: 16, kind: "never", what: "a link-local address" },
  { net: "224.0.0.0", prefix: 4, kind: "never", what: "a multicast address" },
  { net: "255.255.255.255", prefix: 32, kind: "never", what: "the broadcast address" },
  { net: "240.0.0.0", prefix: 4, kind: "never", what: "a reserved (240.0.0.0/4) address" },
  { net: "192.0.0.0", prefix: 24, kind: "never", what: "a reserved (192.0.0.0/24) address" },
  { net: "127.0.0.0", prefix: 8, kind: "loopback", what: "a loopback address" },
  { net: "10.0.0.0", prefix: 8, kind: "private", what: "a private address" },
  { net: "172.16.0.0", prefix: 12, kind: "private", what: "a private address" },
  { net: "192.168.0.0", prefix: 16, kind: "private", what: "a private address" },
  { net: "100.64.0.0", prefix: 10, kind: "private", what: "a shared (carrier-grade NAT) address" },
  { net: "198.18.0.0", prefix: 15, kind: "private", what: "a private (benchmarking) address" },
  { net: "192.0.2.0", prefix: 24, kind: "private", what: "a documentation address" },
  { net: "198.51.100.0", prefix: 24, kind: "private", what: "a documentation address" },
  { net: "203.0.113.0", prefix: 24, kind: "private", what: "a documentation address" },
  { net: "::", prefix: 128, kind: "never", what: "the unspecified address (::)" },
  { net: "::1", prefix: 128, kind: "loopback", what: "a loopback address" },
  { net: "fe80::", prefix: 10, kind: "never", what: "a link-local address" },
  { net: "ff00::", prefix: 8, kind: "never", what: "a multicast address" },
  { net: "100::", prefix: 64, kind: "never", what: "a discard-only address" },
  { net: "::", prefix: 96, kind: "never", what: "an IPv4-compatible (deprecated) address" },
  { net: "fc00::", prefix: 7, kind: "private", what: "a private (unique local) address" },
  { net: "fec0::", prefix: 10, kind: "private", what: "a private (site-local) address" },
  { net: "2001:db8::", prefix: 32, kind: "private", what: "a documentation address" },
];
const RANGE_LISTS = RANGES.map((r) => {
  const list = new net.BlockList();
  list.addSubnet(r.net, r.prefix, net.isIPv6(r.net) ? "ipv6" : "ipv4");
  return { ...r, list };
});

/**
 * An IPv6 address that carries an IPv4 one (IPv4-mapped ::ffff:a.b.c.d in either spelling,
 * NAT64 64:ff9b::/96, 6to4 2002::/16) stands for that IPv4 address: the packets go there.
 */
export function embeddedIPv4(address: string): string | null {
  if (!net.isIPv6(address)) return null;
  const words = expandIPv6(address);
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  if (zeros(0, 5) && words[5] === 0xffff) return v4(words[6]!, words[7]!);
  if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6)) return v4(words[6]!, words[7]!);
  if (words[0] === 0x2002) return v4(words[1]!, words[2]!);
  return null;
}

function expandIPv6(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split(".").map(Number) as [number, number, number, number];
    text = text.slice(0, -dotted[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? (text.split("::") as [string, string]) : [text, null];
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const middle = tail === null ? [] : Array<string>(8 - h.length - t.length).fill("0");
  return [...h, ...middle, ...t].map((w) => parseInt(w, 16));
}

/** What a literal IP address is, for the policy. */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const v4 = embeddedIPv4(bare);
  const ip = v4 ?? bare;
  const family = net.isIPv4(ip) ? "ipv4" : "ipv6";
  for (const r of RANGE_LISTS) if (r.list.check(ip, family)) return { kind: r.kind, what: r.what };
  return { kind: "public", what: "a public address" };
}

/** Parses OUTBOUND_ALLOW (comma-separated host names, `*.suffix`, addresses, CIDRs); throws on a bad entry. */
export function parseAllowList(text: string): AllowList {
  const entries = text
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  if (entries.length > 256) throw new Error(`${ALLOW_VARIABLE}: at most 256 entries`);
  const hosts = new Set<string>();
  const suffixes: string[] = [];
  const ranges = new net.BlockList();
  for (const entry of entries) {
    const [addr, prefixText, extra] = entry.replace(/^\[|\](?=\/|$)/g, "").split("/");
    if (extra === undefined && net.isIP(addr!)) {
      const family = net.isIPv4(addr!) ? "ipv4" : "ipv6";
      const max = family === "ipv4" ? 32 : 128;
      const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
      if (!(prefix >= 0 && prefix <= max))
        throw new Error(`${ALLOW_VARIABLE}: "${entry}" has a bad prefix length (0–${max})`);
      if (prefix === max && classifyAddress(addr!).kind === "never") {
        throw new Error(`${ALLOW_VARIABLE}: "${entry}" is ${classifyAddress(addr!).what}, which is never allowed`);
      }
      ranges.addSubnet(addr!, prefix, family);
    } else if (/^(\*\.)?[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*$/.test(entry)) {
      if (entry.startsWith("*.")) suffixes.push(entry.slice(1));
      else hosts.add(entry);
    } else {
      throw new Error(`${ALLOW_VARIABLE}: "${entry}" is not a host name, *.suffix, IP address or CIDR`);
    }
  }
  return { entries, hosts, suffixes, ranges };
}

export const EMPTY_ALLOW_LIST = parseAllowList("");

/** A URL's host as the policy compares it: lower case, no brackets, no trailing dot. */
export function normalizeHost(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.+$/, "");
}

function admittedByAllowList(allow: AllowList, host: string, address: string | null): boolean {
  if (allow.hosts.has(host) || allow.suffixes.some((s) => host.endsWith(s))) return true;
  if (address === null) return false;
  const ip = embeddedIPv4(address) ?? address;
  return allow.ranges.check(ip, net.isIPv4(ip) ? "ipv4" : "ipv6");
}

/**
 * The refusal (one line, starting "refused:") for connecting to `url` — at `address` when the host
 * name was resolved (connect time), or as written before resolution — or null when allowed. A
 * literal IP host is its own address. A host name not yet resolved passes the address rules here;
 * the connect-time lookup decides them.
 */
export function refuseOutbound(
  url: URL,
  target: OutboundTarget,
  policy: OutboundPolicy,
  address: string | null = null,
): string | null {
  if (url.protocol !== "https:" && url.protocol !== "http:") return `refused: ${url.protocol} is not an http(s) URL`;
  if (url.username || url.password) return "refused: a receiver URL must not carry credentials (user:password@)";
  const host = normalizeHost(url.hostname);
  const literal = net.isIP(host) ? host : null;
  const at = address ?? literal;
  const shown = at && at !== host ? `${host} (${at})` : host;
  if (METADATA_NAMES.has(host)) return `refused: ${host} is a cloud-metadata address; outbound requests never go there`;
  const cls: AddressClass | null = at
    ? classifyAddress(at)
    : isLoopbackHost(host)
      ? { kind: "loopback", what: "a loopback name" }
      : null;
  if (cls?.kind === "never")
    return `refused: ${shown} is ${cls.what}; outbound requests never go there, ${ALLOW_VARIABLE} or not`;
  const admitted = admittedByAllowList(policy.allow, host, at);
  if (cls?.kind === "loopback" && policy.mode === "shared" && !admitted) {
    return `refused: ${shown} is this workbench's own machine (loopback); a shared workbench reaches it only when ${ALLOW_VARIABLE} lists it`;
  }
  if (cls?.kind === "private" && !admitted)
    return `refused: ${shown} is ${cls.what}; only hosts or ranges listed in ${ALLOW_VARIABLE} may be reached`;
  const plain = refusePlainHttp(url, target);
  if (plain) return plain;
  // insecure-dev turns certificate checks off: only for the developer's own machine or what the operator admits.
  // A name not yet resolved (cls null) is decided at connect time, on its addresses.
  if (target.insecureDev && cls !== null && cls.kind !== "loopback" && !admitted) {
    return `refused: insecure-dev (plain http, any certificate) is allowed only for loopback or hosts in ${ALLOW_VARIABLE}; ${shown} is neither`;
  }
  return null;
}

/** The scheme rule alone: plain http only when insecure-dev. (The embedded receivers, on PUBLIC_URL, get only this one.) */
export function refusePlainHttp(url: URL, target: OutboundTarget): string | null {
  if (url.protocol === "http:" && !target.insecureDev) {
    return `refused: ${url.protocol}//${url.host} is plain http; HTTPS with a valid certificate is required unless the target is marked insecure-dev (loopback, or a host in ${ALLOW_VARIABLE})`;
  }
  return null;
}
