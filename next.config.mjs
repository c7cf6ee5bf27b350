/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Server-only packages loaded from node_modules at run time, not bundled.
  serverExternalPackages: ["pg", "pino", "@prisma/adapter-pg", "@prisma/client", "jose"],
  // `npm run build` runs tsc over the whole project first (a type error fails the build), so
  // Next need not check its part of it again.
  typescript: { ignoreBuildErrors: true },
  // A page's modules load on its first request instead of all of them at start-up: the server is
  // ready sooner and idles smaller (most workbench processes serve the API, not every page).
  experimental: { preloadEntriesOnStart: false },
};
export default nextConfig;
