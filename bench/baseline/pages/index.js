import Head from 'next/head';
import Link from 'next/link';

export default function Home() {
  return (
    <main>
      <Head>
        <title>Home</title>
      </Head>
      <h1>Home</h1>
      <ul>
        <li>
          <Link href="/examples/42">A dynamic segment</Link>
        </li>
        <li>
          <Link href="/examples/new">A static route</Link>
        </li>
      </ul>
    </main>
  );
}
