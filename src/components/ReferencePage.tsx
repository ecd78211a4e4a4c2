import Link from 'next/link';
import type { ReactNode } from 'react';

/** Frame of the reference pages: they exercise the spec's routing behaviour until product screens replace them. */
export function ReferencePage({ children }: { children: ReactNode }) {
  return (
    <main>
      <p className="notice">
        Reference page: it exercises a routing behaviour of the specification and will be replaced by product screens.
      </p>
      {children}
      <nav aria-label="Reference pages">
        <Link href="/">Back to the home page</Link>
      </nav>
    </main>
  );
}
