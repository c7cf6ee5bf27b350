import { describe, expect, it } from "vitest";
import {
  classifyAddress,
  embeddedIPv4,
  parseAllowList,
  refuseOutbound,
  type OutboundPolicy,
} from "./outbound-policy.ts";

const local: OutboundPolicy = { mode: "local", allow: parseAllowList("") };
const shared: OutboundPolicy = { mode: "shared", allow: parseAllowList("") };
const allowing = (mode: "local" | "shared", list: string): OutboundPolicy => ({ mode, allow: parseAllowList(list) });

describe("classifyAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"],
    ["100.127.255.255", "private"],
    ["198.18.0.1", "private"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["fec0::1", "private"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:c0a8:101", "private"],
    ["2001:db8::1", "private"],
    ["169.254.169.254", "never"],
    ["169.254.1.1", "never"],
    ["fe80::1", "never"],
    ["febf::1", "never"],
    ["fd00:ec2::254", "never"],
    ["100.100.100.200", "never"],
    ["0.0.0.0", "never"],
    ["0.1.2.3", "never"],
    ["::", "never"],
    ["224.0.0.1", "never"],
    ["239.255.255.250", "never"],
    ["ff02::1", "never"],
    ["255.255.255.255", "never"],
    ["240.0.0.1", "never"],
    ["::ffff:169.254.169.254", "never"],
    ["::ffff:a9fe:a9fe", "never"],
    ["64:ff9b::a9fe:a9fe", "never"],
    ["2002:a9fe:a9fe::1", "never"],
    ["::127.0.0.2", "never"],
    ["192.0.0.192", "never"],
    ["8.8.8.8", "public"],
    ["172.32.0.1", "public"],
    ["100.128.0.1", "public"],
    ["2606:4700::1111", "public"],
    ["::ffff:8.8.8.8", "public"],
  ])("%s is %s", (address, kind) => {
    expect(classifyAddress(address).kind).toBe(kind);
  });

  it("reads the IPv4 address inside mapped, NAT64 and 6to4 IPv6 addresses", () => {
    expect([
      embeddedIPv4("::ffff:7f00:1"),
      embeddedIPv4("::ffff:127.0.0.1"),
      embeddedIPv4("64:ff9b::a00:1"),
      embeddedIPv4("2002:c0a8:101::"),
      embeddedIPv4("2001:db8::1"),
      embeddedIPv4("1.2.3.4"),
    ]).toEqual(["127.0.0.1", "127.0.0.1", "10.0.0.1", "192.168.1.1", null, null]);
  });
});

describe("refuseOutbound (before connecting: the URL as written)", () => {
  const secure = { insecureDev: false };
  const dev = { insecureDev: true };
  it.each<[string, string, { insecureDev: boolean }, OutboundPolicy, string | null]>([
    // Default: HTTPS with a valid certificate to public hosts.
    ["public https", "https://cad.example.com/hooks", secure, local, null],
    ["public https, shared", "https://cad.example.com/hooks", secure, shared, null],
    [
      "plain http without insecure-dev",
      "http://cad.example.com/hooks",
      secure,
      local,
      "refused: http://cad.example.com is plain http; HTTPS with a valid certificate is required unless the target is marked insecure-dev (loopback, or a host in OUTBOUND_ALLOW)",
    ],
    ["other schemes", "ftp://cad.example.com/", secure, local, "refused: ftp: is not an http(s) URL"],
    [
      "credentials",
      "https://u:p@cad.example.com/",
      secure,
      local,
      "refused: a receiver URL must not carry credentials (user:password@)",
    ],
    // insecure-dev: loopback in local mode.
    ["loopback http, insecure-dev, local", "http://127.0.0.1:4000/r", dev, local, null],
    ["localhost http, insecure-dev, local", "http://localhost:4000/r", dev, local, null],
    ["[::1] http, insecure-dev, local", "http://[::1]:4000/r", dev, local, null],
    [
      "loopback http without insecure-dev",
      "http://127.0.0.1:4000/r",
      secure,
      local,
      "refused: http://127.0.0.1:4000 is plain http; HTTPS with a valid certificate is required unless the target is marked insecure-dev (loopback, or a host in OUTBOUND_ALLOW)",
    ],
    ["decimal loopback (URL normalizes it)", "http://2130706433:4000/", dev, local, null],
    [
      "insecure-dev to a public address",
      "http://8.8.8.8/",
      dev,
      local,
      "refused: insecure-dev (plain http, any certificate) is allowed only for loopback or hosts in OUTBOUND_ALLOW; 8.8.8.8 is neither",
    ],
    [
      "insecure-dev https to a public address",
      "https://8.8.8.8/",
      dev,
      local,
      "refused: insecure-dev (plain http, any certificate) is allowed only for loopback or hosts in OUTBOUND_ALLOW; 8.8.8.8 is neither",
    ],
    ["insecure-dev to a public name: decided at connect time", "http://cad.example.com/", dev, local, null],
    ["insecure-dev to an allow-listed name", "http://cad.lab/", dev, allowing("local", "cad.lab"), null],
    ["insecure-dev to an allow-listed address", "http://203.0.113.7/", dev, allowing("local", "203.0.113.0/24"), null],
    // Shared mode: loopback is the workbench machine.
    [
      "loopback, shared",
      "http://127.0.0.1:5432/",
      dev,
      shared,
      "refused: 127.0.0.1 is this workbench's own machine (loopback); a shared workbench reaches it only when OUTBOUND_ALLOW lists it",
    ],
    [
      "localhost, shared",
      "https://localhost/",
      secure,
      shared,
      "refused: localhost is this workbench's own machine (loopback); a shared workbench reaches it only when OUTBOUND_ALLOW lists it",
    ],
    [
      "localhost. (trailing dot), shared",
      "https://localhost./",
      secure,
      shared,
      "refused: localhost is this workbench's own machine (loopback); a shared workbench reaches it only when OUTBOUND_ALLOW lists it",
    ],
    [
      "octal loopback, shared",
      "http://0177.0.0.1/",
      dev,
      shared,
      "refused: 127.0.0.1 is this workbench's own machine (loopback); a shared workbench reaches it only when OUTBOUND_ALLOW lists it",
    ],
    [
      "mapped loopback, shared",
      "http://[::ffff:127.0.0.1]/",
      dev,
      shared,
      "refused: ::ffff:7f00:1 is this workbench's own machine (loopback); a shared workbench reaches it only when OUTBOUND_ALLOW lists it",
    ],
    ["loopback allow-listed, shared", "http://127.0.0.1:4000/", dev, allowing("shared", "127.0.0.1"), null],
    // Private ranges: only through the allow-list, even over HTTPS.
    [
      "private https",
      "https://10.0.0.5/",
      secure,
      local,
      "refused: 10.0.0.5 is a private address; only hosts or ranges listed in OUTBOUND_ALLOW may be reached",
    ],
    [
      "private mapped",
      "https://[::ffff:192.168.1.1]/",
      secure,
      local,
      "refused: ::ffff:c0a8:101 is a private address; only hosts or ranges listed in OUTBOUND_ALLOW may be reached",
    ],
    [
      "ULA",
      "https://[fd12::1]/",
      secure,
      local,
      "refused: fd12::1 is a private (unique local) address; only hosts or ranges listed in OUTBOUND_ALLOW may be reached",
    ],
    [
      "CGNAT",
      "https://100.64.1.1/",
      secure,
      local,
      "refused: 100.64.1.1 is a shared (carrier-grade NAT) address; only hosts or ranges listed in OUTBOUND_ALLOW may be reached",
    ],
    ["private allow-listed by CIDR", "https://10.0.0.5/", secure, allowing("local", "10.0.0.0/8"), null],
    [
      "private allow-listed (mapped form matches the IPv4 range)",
      "https://[::ffff:10.0.0.5]/",
      secure,
      allowing("local", "10.0.0.0/8"),
      null,
    ],
    [
      "private outside the listed range",
      "https://10.1.0.5/",
      secure,
      allowing("local", "10.0.0.0/16"),
      "refused: 10.1.0.5 is a private address; only hosts or ranges listed in OUTBOUND_ALLOW may be reached",
    ],
    [
      "private, plain http, allow-listed, not insecure-dev",
      "http://10.0.0.5/",
      secure,
      allowing("local", "10.0.0.5"),
      "refused: http://10.0.0.5 is plain http; HTTPS with a valid certificate is required unless the target is marked insecure-dev (loopback, or a host in OUTBOUND_ALLOW)",
    ],
    // Never, allow-list or not.
    [
      "metadata IPv4",
      "http://169.254.169.254/latest/meta-data",
      dev,
      allowing("local", "0.0.0.0/0"),
      "refused: 169.254.169.254 is a cloud-metadata address; outbound requests never go there, OUTBOUND_ALLOW or not",
    ],
    [
      "metadata decimal",
      "http://2852039166/",
      dev,
      local,
      "refused: 169.254.169.254 is a cloud-metadata address; outbound requests never go there, OUTBOUND_ALLOW or not",
    ],
    [
      "metadata mapped",
      "http://[::ffff:169.254.169.254]/",
      dev,
      local,
      "refused: ::ffff:a9fe:a9fe is a cloud-metadata address; outbound requests never go there, OUTBOUND_ALLOW or not",
    ],
    [
      "metadata IPv6",
      "http://[fd00:ec2::254]/",
      dev,
      allowing("local", "fc00::/7"),
      "refused: fd00:ec2::254 is a cloud-metadata address; outbound requests never go there, OUTBOUND_ALLOW or not",
    ],
    [
      "metadata name",
      "http://metadata.google.internal/computeMetadata/v1/",
      dev,
      allowing("local", "metadata.google.internal"),
      "refused: metadata.google.internal is a cloud-metadata address; outbound requests never go there",
    ],
    [
      "link-local",
      "https://169.254.10.10/",
      secure,
      allowing("local", "169.254.0.0/16"),
      "refused: 169.254.10.10 is a link-local address; outbound requests never go there, OUTBOUND_ALLOW or not",
    ],
    [
      "link-local IPv6",
      "https://[fe80::1]/",
      secure,
      local,
      "refused: fe80::1 is a link-local address; outbound requests never go there, OUTBOUND_ALLOW or not",
    ],
    [
      "unspecified",
      "http://0.0.0.0:3000/",
      dev,
      local,
      "refused: 0.0.0.0 is an unspecified (0.0.0.0/8) address; outbound requests never go there, OUTBOUND_ALLOW or not",
    ],
    [
      "unspecified IPv6",
      "http://[::]:3000/",
      dev,
      local,
      "refused: :: is the unspecified address (::); outbound requests never go there, OUTBOUND_ALLOW or not",
    ],
    [
      "multicast",
      "https://224.0.0.251/",
      secure,
      local,
      "refused: 224.0.0.251 is a multicast address; outbound requests never go there, OUTBOUND_ALLOW or not",
    ],
    [
      "broadcast",
      "https://255.255.255.255/",
      secure,
      local,
      "refused: 255.255.255.255 is the broadcast address; outbound requests never go there, OUTBOUND_ALLOW or not",
    ],
  ])("%s", (_name, url, target, policy, expected) => {
    expect(refuseOutbound(new URL(url), target, policy)).toBe(expected);
  });
});

describe("refuseOutbound at connect time (a resolved address of a host name)", () => {
  const url = new URL("https://receiver.example.com/hooks");
  const dev = new URL("http://receiver.example.com/hooks");
  it.each<[string, URL, boolean, OutboundPolicy, string, string | null]>([
    ["public", url, false, shared, "93.184.216.34", null],
    [
      "rebound to loopback, shared",
      url,
      false,
      shared,
      "127.0.0.1",
      "refused: receiver.example.com (127.0.0.1) is this workbench's own machine (loopback); a shared workbench reaches it only when OUTBOUND_ALLOW lists it",
    ],
    ["rebound to loopback, local, https", url, false, local, "127.0.0.1", null],
    [
      "rebound to metadata",
      url,
      false,
      local,
      "169.254.169.254",
      "refused: receiver.example.com (169.254.169.254) is a cloud-metadata address; outbound requests never go there, OUTBOUND_ALLOW or not",
    ],
    [
      "rebound to a private address",
      url,
      false,
      local,
      "192.168.0.10",
      "refused: receiver.example.com (192.168.0.10) is a private address; only hosts or ranges listed in OUTBOUND_ALLOW may be reached",
    ],
    [
      "the name is allow-listed: its private address is admitted",
      url,
      false,
      allowing("local", "receiver.example.com"),
      "192.168.0.10",
      null,
    ],
    ["a *.suffix entry admits the name", url, false, allowing("local", "*.example.com"), "10.9.9.9", null],
    [
      "the name is allow-listed, but link-local never",
      url,
      false,
      allowing("local", "receiver.example.com"),
      "169.254.0.1",
      "refused: receiver.example.com (169.254.0.1) is a link-local address; outbound requests never go there, OUTBOUND_ALLOW or not",
    ],
    ["insecure-dev name resolving to loopback, local", dev, true, local, "127.0.0.1", null],
    [
      "insecure-dev name resolving to a public address",
      dev,
      true,
      local,
      "93.184.216.34",
      "refused: insecure-dev (plain http, any certificate) is allowed only for loopback or hosts in OUTBOUND_ALLOW; receiver.example.com (93.184.216.34) is neither",
    ],
    [
      "insecure-dev name resolving into an allow-listed range",
      dev,
      true,
      allowing("local", "10.0.0.0/8"),
      "10.0.0.7",
      null,
    ],
  ])("%s", (_name, u, insecureDev, policy, address, expected) => {
    expect(refuseOutbound(u, { insecureDev }, policy, address)).toBe(expected);
  });
});

describe("parseAllowList", () => {
  it("takes host names, *.suffix names, addresses and CIDRs, case-insensitive", () => {
    const allow = parseAllowList(" CAD.Lab , *.corp.example,10.0.0.0/8, 192.168.1.7, fd00:1::/32, [::1] ");
    expect(allow.entries).toEqual(["cad.lab", "*.corp.example", "10.0.0.0/8", "192.168.1.7", "fd00:1::/32", "[::1]"]);
    expect([...allow.hosts]).toEqual(["cad.lab"]);
    expect(allow.suffixes).toEqual([".corp.example"]);
    expect([
      allow.ranges.check("10.255.0.1", "ipv4"),
      allow.ranges.check("192.168.1.7", "ipv4"),
      allow.ranges.check("192.168.1.8", "ipv4"),
      allow.ranges.check("::1", "ipv6"),
    ]).toEqual([true, true, false, true]);
  });

  it.each([
    ["10.0.0.0/33", 'OUTBOUND_ALLOW: "10.0.0.0/33" has a bad prefix length (0–32)'],
    ["10.0.0.0/x", 'OUTBOUND_ALLOW: "10.0.0.0/x" has a bad prefix length (0–32)'],
    ["http://cad.lab", 'OUTBOUND_ALLOW: "http://cad.lab" is not a host name, *.suffix, IP address or CIDR'],
    ["169.254.169.254", 'OUTBOUND_ALLOW: "169.254.169.254" is a cloud-metadata address, which is never allowed'],
    ["fe80::1", 'OUTBOUND_ALLOW: "fe80::1" is a link-local address, which is never allowed'],
  ])("refuses %s", (entry, message) => {
    expect(() => parseAllowList(entry)).toThrow(message);
  });
});
