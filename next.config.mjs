/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Server-only packages loaded from node_modules at run time, not bundled.
  serverExternalPackages: ["pg", "pino", "@prisma/adapter-pg", "@prisma/client", "jose"],
  // `npm run build` runs tsc over the whole project first (a type error fails the build), so
  // Next need not check its part of it again.
  typescript: { ignoreBuildErrors: true },
};
export default nextConfig;
