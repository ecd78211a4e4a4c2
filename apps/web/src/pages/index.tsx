import Image from 'next/image';
import hero from '../../public/hero.png';
import { PageHead } from '@web-foundation/foundation/components/PageHead';

/** The start page: replace it with your product's (docs/build-your-product.md). */
export default function Home() {
  return (
    <main>
      <PageHead title="Home" description="The start page of a product built on this foundation." />
      <h1>Home</h1>
      <Image
        src={hero}
        alt="A blue gradient"
        // The page's largest paint: fetched first, from the HTML itself (Next 16's advice over `preload`/`priority`).
        fetchPriority="high"
        loading="eager"
        sizes="(max-width: 48rem) 100vw, 48rem"
        style={{ width: '100%', height: 'auto' }}
      />
      <p>
        This is where your product starts. Replace this page with your own, and add yours beside it: every page of the
        build is held to the foundation&apos;s promises by its tests.
      </p>
    </main>
  );
}
