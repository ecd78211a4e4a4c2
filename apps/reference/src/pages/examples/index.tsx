import Image from 'next/image';
import Link from 'next/link';
import { PageHead } from '@web-foundation/foundation/components/PageHead';

const examples = [
  { href: '/examples/42', label: 'A dynamic segment (/examples/[id], page data from getServerSideProps)' },
  { href: '/examples/new', label: 'A static route that beats the dynamic segment (/examples/new)' },
  { href: '/examples/generated', label: 'Page data generated at build time (getStaticProps)' },
  { href: '/examples/on-demand/first-visit', label: 'Page data generated on first request (getStaticPaths fallback)' },
  { href: '/examples/docs/guides/routing/intro', label: 'A catch-all route (/examples/docs/[...path])' },
  { href: '/examples/announcer/titled', label: 'Route announcer: a page with a title' },
  { href: '/examples/announcer/heading', label: 'Route announcer: a page with a heading and no title' },
  { href: '/examples/announcer/bare', label: 'Route announcer: a page with neither' },
  { href: '/examples/unavailable', label: 'The error page for another status (503)' },
  { href: '/examples/same-route-twice', label: 'Two links to one dynamic route' },
] as const;

/** The tests' home: a link to every reference page, and an image through the optimiser as the largest paint. */
export default function ReferencePages() {
  return (
    <main>
      <PageHead
        title="Reference pages"
        description="Reference pages for the app's routing: dynamic and catch-all routes, page data, the route announcer and the error pages."
      />
      <h1>Reference pages</h1>
      <Image
        // A public file by its path: it is served from the app's public/.
        src="/hero.png"
        width={1200}
        height={600}
        alt="A blue gradient"
        // The page's largest paint: fetched first, from the HTML itself (Next 16's advice over `preload`/`priority`).
        fetchPriority="high"
        loading="eager"
        sizes="(max-width: 48rem) 100vw, 48rem"
        style={{ width: '100%', height: 'auto' }}
      />
      <p className="notice">
        These pages belong to the tests: each exercises a behaviour of the specification, and the end-to-end build adds
        them to the app (apps/reference).
      </p>
      <ul>
        {examples.map(({ href, label }) => (
          <li key={href}>
            {/* Prefetched when pointed at or touched, not all ten on every view: each prefetch loads and runs a
                route's code, 300 ms and more of a phone's main thread for the list (docs/performance.md). */}
            <Link href={href} prefetch={false}>
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </main>
  );
}
