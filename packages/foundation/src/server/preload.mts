// Preloaded into the production server (`node --import ./src/server/preload.mts server.js`, see
// packages/foundation/scripts/start.mjs): the things `next start` does not do as the app needs. It refuses requests
// Next 16 mishandles (TRACE, several Host headers, odd request targets and image sources), upgrades and bodies too
// large to hold in memory, holds every body a route reads until it is whole (and drops any other), bounds what each
// connection and all of them hold, serves the build's brotli copies of its scripts, and owns graceful shutdown. First
// of all it starts the server's logger, so that everything the process prints, Next's own lines included, is one JSON
// line. Node runs this file and what it imports as they are, outside Next's bundle
// (packages/foundation/scripts/standalone.mjs copies them).
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { distDirOf, preloadSettings, tellNext } from '../config/settings.mts';
import { serverLogger } from '../observability/server/log.mts';
import { draining, flushReports, processGlobals } from '../processGlobals.mts';
import { logRefusedUpgrade, logWhenAnswered } from './preload/accessLog.mts';
import { bodyRefusal, hasBody, holdBodiesUntilWhole, refuseBody, routeReadsBody } from './preload/bodies.mts';
import {
  boundConnections,
  dropAfterRefusal,
  followsRefusal,
  heardFrom,
  refuseUpgrade,
  sendRefusal,
} from './preload/connections.mts';
import { drain } from './preload/drain.mts';
import { listenWhereAsked } from './preload/listenAddress.mts';
import { preferPrecompressed } from './preload/precompressed.mts';
import { assetRefusal, requestRefusal } from './preload/requests.mts';
import { hideFromSdk } from './preload/sdkMark.mts';
import { keepSentStatus } from './preload/sentStatus.mts';
import { builtConfigFile, builtValues, maxBodyBytesOf, readBuiltConfig } from './preload/settings.mts';
import { runShutdownHooks } from './shutdown.mts';

const configFile = builtConfigFile(distDirOf());
const built = readBuiltConfig(configFile);

/** The settings, or the process stops with one line that says what to set. */
function settingsOrExit() {
  try {
    return { ...preloadSettings(builtValues(built)), maxBodyBytes: maxBodyBytesOf(built, configFile) };
  } catch (error) {
    serverLogger().fatal(`Configuration error: ${(error as Error).message}`);
    process.exit(1);
  }
}
const settings = settingsOrExit();
const log = serverLogger(settings);
const { maxBodyBytes, logRequests, collectPersonalData } = settings;
const bodies = holdBodiesUntilWhole(maxBodyBytes, settings.trustedProxies);
// A request a client pipelined behind a refused one is neither run, nor answered, nor traced.
hideFromSdk(followsRefusal);

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function emitUnlessRefused(this: http.Server, event: string, ...args: unknown[]) {
  if (event === 'upgrade' || event === 'request') {
    heardFrom(args[0] as IncomingMessage);
    if (followsRefusal(args[0] as IncomingMessage)) return dropAfterRefusal(args[0] as IncomingMessage);
  }
  if (event === 'upgrade') {
    const [req, socket] = args as [IncomingMessage, Duplex];
    if (logRequests) logRefusedUpgrade(log, collectPersonalData, req);
    return refuseUpgrade(socket);
  }
  const [req, res] = args as [IncomingMessage, ServerResponse];
  if (event === 'request' && !bodies.isWhole(req)) {
    if (logRequests) logWhenAnswered(log, collectPersonalData, req, res);
    const line = requestRefusal(req.method ?? '', req.url ?? '', req.headersDistinct.host?.length ?? 0);
    if ('refusal' in line) return sendRefusal(res, line.refusal);
    req.url = line.target;
    const tooLarge = bodyRefusal(req.headers, maxBodyBytes);
    if (tooLarge) return refuseBody(req, res, tooLarge);
    const asset = assetRefusal(req.method ?? '', line.target);
    if (asset) return sendRefusal(res, asset);
    if (hasBody(req.headers)) return bodies.hold(this, req, res, routeReadsBody(req.method ?? '', line.target));
    preferPrecompressed(req, res, line.target);
  }
  return emit.call(this, event, ...args);
} as typeof emit;

keepSentStatus();

// The servers Next opens, so that shutdown can stop them accepting connections.
const servers = new Set<http.Server>();
listenWhereAsked(settings.hostname, log, (server) => {
  servers.add(server);
  boundConnections(server);
});

// Next would close the server and exit 143 at once; the app drains instead.
tellNext({ NEXT_MANUAL_SIG_HANDLE: 'true' });

let shuttingDown = false;
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  await drain(signal, {
    servers,
    drainMs: settings.drainMs,
    timeoutMs: settings.timeoutMs,
    wait: (ms) => new Promise((done) => setTimeout(done, ms)),
    markDraining: () => void (processGlobals[draining] = true),
    runHooks: () => runShutdownHooks({ timeoutMs: settings.hookTimeoutMs, log }),
    flushReports: async () => processGlobals[flushReports]?.(2000),
    log,
  });
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
