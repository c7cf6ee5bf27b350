/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Server-only packages loaded from node_modules at run time, not bundled.
  serverExternalPackages: ["pg", "pino", "@prisma/adapter-pg", "@prisma/client", "jose"],
  // `npm test` type-checks everything with tsc; the build need not do it twice.
  typescript: { ignoreBuildErrors: true },
};
export default nextConfig;
