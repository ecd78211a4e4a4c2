import Link from 'next/link';
import type { ReactNode } from 'react';
import { buildId } from '../config/build';

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
      {/* Which build rendered the page: after a deploy, a page still running the old build shows it here. */}
      <footer className="build">
        Build <code data-testid="build-id">{buildId}</code>
      </footer>
    </main>
  );
}
