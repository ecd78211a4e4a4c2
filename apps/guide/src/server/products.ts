import { database } from './backend';

export interface Product {
  id: string;
  name: string;
}

/** The product with this id, or undefined. */
export async function findProduct(id: string): Promise<Product | undefined> {
  const { rows } = await database().query<Product>('SELECT id::text, name FROM products WHERE id = $1', [id]);
  return rows[0];
}

/** Renames a product: `missing` when no product has this id, `taken` when another has this name. */
export async function renameProduct(id: string, name: string): Promise<'renamed' | 'missing' | 'taken'> {
  try {
    const { rowCount } = await database().query('UPDATE products SET name = $1 WHERE id = $2', [name, id]);
    return rowCount === 1 ? 'renamed' : 'missing';
  } catch (error) {
    // unique_violation: names are unique (migrations/0001-products.sql).
    if ((error as { code?: string }).code === '23505') return 'taken';
    throw error;
  }
}
