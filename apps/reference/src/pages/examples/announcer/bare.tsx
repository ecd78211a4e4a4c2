import { PageHead } from '@web-foundation/foundation/components/PageHead';
import { ReferencePage } from '../../../components/ReferencePage';

export default function Bare() {
  return (
    <ReferencePage>
      {/* No title and no heading, on purpose: the page shows the announcer's fallback to the path. */}
      <PageHead description="Reference page with neither a title nor a heading: the route announcer reads its path." />
      <p>This page has neither a title nor a heading, so the announcer reads its path.</p>
    </ReferencePage>
  );
}
