// The bench's ingest over HTTPS as well, as production's is (bench/lib.mjs startIngest's, with a certificate).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startIngest } from './lib.mjs';
import { selfSigned } from '@web-foundation/testing/services';

/**
 * startIngest's ingest, also taking envelopes over HTTPS on `tlsPort`, as production's ingest does, with a self-signed
 * certificate made now (packages/testing/src/front.ts). Besides startIngest's: `httpsDsn`; `serverEnv`, what a server sending
 * to it needs (that DSN, and NODE_EXTRA_CA_CERTS to trust the certificate); `tlsConnections()`, how many TLS
 * connections it has accepted so far.
 * @param {number} port
 * @param {number} tlsPort
 */
export function startHttpsIngest(port, tlsPort) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-ingest-tls-'));
  const { key, cert } = selfSigned();
  const [keyFile, certFile] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  writeFileSync(keyFile, key);
  writeFileSync(certFile, cert);
  const ingest = startIngest(port, {
    INGEST_TLS_PORT: String(tlsPort),
    INGEST_TLS_KEY: keyFile,
    INGEST_TLS_CERT: certFile,
  });
  const httpsDsn = `https://public@127.0.0.1:${tlsPort}/1`;
  const { stop } = ingest;
  return Object.assign(ingest, {
    httpsDsn,
    serverEnv: { SENTRY_DSN: httpsDsn, NODE_EXTRA_CA_CERTS: certFile },
    tlsConnections: async () =>
      /** @type {number} */ ((await (await fetch(`http://127.0.0.1:${port}/__ingest/health`)).json()).tlsConnections),
    stop: () => {
      stop();
      rmSync(dir, { recursive: true, force: true });
    },
  });
}
