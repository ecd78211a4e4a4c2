import pg from 'pg';
import { product } from '../product';

export interface Book {
  id: number;
  title: string;
}

/** Runs `query` on a connection of its own, closed after. */
async function withClient<T>(query: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: product.settings().databaseUrl });
  await client.connect();
  try {
    return await query(client);
  } finally {
    await client.end();
  }
}

/** Every book, read once per call: the catalog reads them at build time and when it regenerates. */
export const books = (): Promise<Book[]> =>
  withClient(async (client) => (await client.query<Book>('SELECT id, title FROM books ORDER BY id')).rows);

/** Adds a book; its id is the next one free. */
export const addBook = (title: string): Promise<Book> =>
  withClient(
    async (client) =>
      (
        await client.query<Book>(
          'INSERT INTO books (id, title) SELECT COALESCE(MAX(id), 0) + 1, $1 FROM books RETURNING id, title',
          [title],
        )
      ).rows[0]!,
  );
