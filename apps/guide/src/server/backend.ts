import { Pool } from 'pg';
import { product } from '../product';
import { onShutdown } from '@web-foundation/foundation/shutdown';

let pool: Pool | undefined;

/** One pool of database connections for the whole server: each request borrows one and gives it back. */
export function database(): Pool {
  if (!pool) {
    const opened = new Pool({ connectionString: product.settings().databaseUrl, max: 10 });
    // On SIGTERM, once in-flight requests have finished: their queries are done, so no one needs it.
    onShutdown('database pool', () => opened.end());
    pool = opened;
  }
  return pool;
}

/** The URL of a path on your backend (BACKEND_URL, checked when the server started). */
export function backendUrl(path: string): string {
  return new URL(path, product.settings().backendUrl).toString();
}
