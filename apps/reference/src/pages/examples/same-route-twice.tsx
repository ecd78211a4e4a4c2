import Link from 'next/link';
import { PageHead } from '@web-foundation/foundation/components/PageHead';
import { ReferencePage } from '../../components/ReferencePage';

// Two links to one dynamic route: both prefetch /examples/[id], the case Next's route loader mishandles when the
// route's scripts stall (docs/navigation-reliability.md).
export default function SameRouteTwice() {
  return (
    <ReferencePage>
      <PageHead
        title="One dynamic route, two links"
        description="Reference page: two links to one dynamic route, which Next's route loader mishandles when the route's scripts stall."
      />
      <h1>One dynamic route, two links</h1>
      <p>
        <Link href="/examples/1">The dynamic segment with id 1</Link>
      </p>
      <p>
        <Link href="/examples/2">The dynamic segment with id 2</Link>
      </p>
    </ReferencePage>
  );
}
