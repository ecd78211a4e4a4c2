import type { GetStaticPaths, GetStaticProps } from 'next';
import { PageHead } from '@web-foundation/foundation/components/PageHead';
import { product } from '../../product';
import { findProduct, type Product } from '../../server/products';

// None is built ahead (the build needs no database): each product's page is made on its first request, then served
// from the page cache until its data changes and the route that changed it revalidates it (pages/api/products/[id].ts).
export const getStaticPaths: GetStaticPaths = async () => ({ paths: [], fallback: 'blocking' });

export const getStaticProps: GetStaticProps<Product, { id: string }> = async ({ params }) => {
  // Revalidation renders without the proxy, which refuses the slugs the product cannot have.
  if (!params || !product.acceptsSlug('/products/[id]', params.id)) return { notFound: true };
  const found = await findProduct(params.id);
  return found ? { props: found } : { notFound: true };
};

export default function ProductPage({ name }: Product) {
  return (
    <main>
      <PageHead title={name} description={`The product ${name}.`} />
      <h1>{name}</h1>
    </main>
  );
}
