import Link from 'next/link';
import { PageHead } from '@web-foundation/foundation/components/PageHead';

export default function Home() {
  return (
    <main>
      <PageHead title="Northwind" description="Books, delivered." />
      <h1>Northwind</h1>
      <p>
        <Link href="/catalog">The catalog</Link>
      </p>
    </main>
  );
}
