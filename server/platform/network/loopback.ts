// Loopback names and addresses: the one definition the access mode, the Host
// check and the outbound-URL policy share.
import net from "node:net";

const LOOPBACK_NAMES = new Set(["localhost", "[::1]", "::1"]);

/** `local`: loopback only, no sign-in. `shared`: reachable beyond loopback, every dashboard call signed in. */
export type AccessMode = "local" | "shared";

/** A host name or literal address that can only mean this machine (localhost, 127.0.0.0/8, ::1). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (LOOPBACK_NAMES.has(host) || host.endsWith(".localhost")) return true;
  return isLoopbackAddress(host.replace(/^\[|\]$/g, ""));
}

/** A literal IP address in 127.0.0.0/8 or ::1 (also as an IPv4-mapped IPv6 address). */
export function isLoopbackAddress(address: string): boolean {
  const unmapped = address.toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
  if (net.isIPv4(unmapped)) return unmapped.startsWith("127.");
  return net.isIPv6(unmapped) && /^(0{0,4}:){7}0{0,3}1$|^::1$/.test(unmapped);
}
