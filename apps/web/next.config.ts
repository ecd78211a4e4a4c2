import { nextConfig } from '@web-foundation/foundation/next-config';

export default nextConfig();
