import pg from 'pg';
import { product } from '../product';

export interface Book {
  id: number;
  title: string;
}

/** Every book, read once per call: the catalog reads them at build time and when it regenerates. */
export async function books(): Promise<Book[]> {
  const client = new pg.Client({ connectionString: product.settings().databaseUrl });
  await client.connect();
  try {
    return (await client.query<Book>('SELECT id, title FROM books ORDER BY id')).rows;
  } finally {
    await client.end();
  }
}
