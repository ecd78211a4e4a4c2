import Head from 'next/head';
import Image from 'next/image';
import Link from 'next/link';
// The app's hero image, so that both home pages have the same largest paint (issue 15: LCP within 10% of this).
import hero from '../../../public/hero.png';

export default function Home() {
  return (
    <main>
      <Head>
        <title>Home</title>
      </Head>
      <h1>Home</h1>
      <Image
        src={hero}
        alt="A blue gradient"
        fetchPriority="high"
        loading="eager"
        sizes="(max-width: 48rem) 100vw, 48rem"
        style={{ width: '100%', height: 'auto' }}
      />
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
