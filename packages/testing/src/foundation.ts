// The foundation's own values the reference app's specs hold it to, from the package's private files: the specs import
// them from here by name, so that no app reaches into the foundation's files (tests/unit/foundation-package.test.ts).
export { fullNavigationAfterMs } from '../../foundation/src/client/navigationGuard';
export { maxRequestBodyBytes } from '../../foundation/src/config/requestBody';
export { errorPageDescription } from '../../foundation/src/config/site';
export { routeLoadTimeoutMs } from '../../foundation/src/config/specification.mts';
export { networkArrivingBytesLimit, maxBodyPieces } from '../../foundation/src/server/preload/bodies.mts';
export { listenBacklog, wholeHeadersMs } from '../../foundation/src/server/preload/connections.mts';
export { connectionShare } from '../../foundation/src/server/preload/networks.mts';
