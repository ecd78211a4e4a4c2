import Link from 'next/link';
import type { ReactNode } from 'react';
import { buildId } from '@web-foundation/foundation/settings';

/** Frame of the reference pages, which the end-to-end build adds to the app to prove the spec's behaviours. */
export function ReferencePage({ children }: { children: ReactNode }) {
  return (
    <main>
      <p className="notice">Reference page: it exercises a behaviour of the specification for the tests.</p>
      {children}
      <nav aria-label="Reference pages">
        <Link href="/examples">Back to the reference pages</Link>
      </nav>
      {/* Which build rendered the page: after a deploy, a page still running the old build shows it here. */}
      <footer className="build">
        Build <code data-testid="build-id">{buildId()}</code>
      </footer>
    </main>
  );
}
