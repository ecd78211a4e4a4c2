// The bare baseline: the same Next.js, the same kinds of routes as the app, and no observability.
/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  generateBuildId: () => 'baseline',
  experimental: { proxyPrefetch: 'strict' },
};

export default nextConfig;
