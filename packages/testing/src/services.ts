// The services an app's pages call in the tests, each started on loopback and stopped by its own stop(): a backend
// that answers fixed JSON, Postgres, Redis (alone, TLS, Sentinel, cluster), nginx in front of the app (./cluster.ts
// starts it over built instances) and a proxy of the site that can fail, hold or count requests. Node runs it as it
// is (an app's tests/services.ts), so its imports name their .ts files.
export { startBackend, type Backend, type BackendRequest } from './backend.ts';
export { front, selfSigned, type Front } from './front.ts';
export { migrate, postgresBinDir, startPostgres, type Postgres } from './postgres.ts';
export {
  makeCertificates,
  redisBinary,
  redisServer,
  startCluster,
  startForwarder,
  startRedis,
  startSentinels,
  type Certificates,
  type Cluster,
  type Forwarder,
  type Redis,
  type SentinelSet,
} from './redis.ts';
export { startSiteProxy, type Fault, type ProxiedRequest, type SiteProxy } from './site-proxy.ts';
