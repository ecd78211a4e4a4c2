import { PageHead } from '@web-foundation/foundation/components/PageHead';
import { ReferencePage } from '../../../components/ReferencePage';

export default function Heading() {
  return (
    <ReferencePage>
      {/* No title, on purpose: the page shows the announcer's fallback to the first heading. */}
      <PageHead description="Reference page without a title: the route announcer reads its first heading instead." />
      <h1>Announcer: first heading</h1>
      <p>This page has no title, so the announcer reads this heading.</p>
    </ReferencePage>
  );
}
