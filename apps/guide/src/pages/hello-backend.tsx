import { startSpan } from '@sentry/nextjs';
import type { GetServerSideProps } from 'next';
import { PageHead } from '@web-foundation/foundation/components/PageHead';
import { backendUrl, database } from '../server/backend';

interface HelloBackendProps {
  greeting: string;
  products: string[];
}

// Traced as `GET /hello-backend`: the fetch is an http.client span, the query db spans, both under getServerSideProps.
export const getServerSideProps: GetServerSideProps<HelloBackendProps> = async () => {
  const answer = await fetch(backendUrl('/greeting'));
  if (!answer.ok) throw new Error(`The backend answered ${answer.status} to GET /greeting`);
  const { greeting } = (await answer.json()) as { greeting: string };
  const { rows } = await database().query<{ name: string }>('SELECT name FROM products ORDER BY name');
  // Work no call of which the SDK sees: a span of its own, `function` `format products`.
  const products = startSpan({ name: 'format products', op: 'function' }, () => rows.map((row) => row.name.trim()));
  return { props: { greeting, products } };
};

export default function HelloBackend({ greeting, products }: HelloBackendProps) {
  return (
    <main>
      <PageHead title="Hello, backend" description="A page that calls the backend and the database." />
      <h1>{greeting}</h1>
      <ul>
        {products.map((product) => (
          <li key={product}>{product}</li>
        ))}
      </ul>
    </main>
  );
}
