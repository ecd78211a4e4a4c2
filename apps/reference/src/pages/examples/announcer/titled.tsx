import { PageHead } from '@web-foundation/foundation/components/PageHead';
import { ReferencePage } from '../../../components/ReferencePage';

export default function Titled() {
  return (
    <ReferencePage>
      <PageHead
        title="Announcer: titled page"
        description="Reference page: the route announcer reads this page's title after a navigation."
      />
      <h1>A heading the announcer does not read</h1>
    </ReferencePage>
  );
}
