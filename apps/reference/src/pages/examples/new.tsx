import { PageHead } from '@web-foundation/foundation/components/PageHead';
import { ReferencePage } from '../../components/ReferencePage';

export default function NewExample() {
  return (
    <ReferencePage>
      <PageHead
        title="New example"
        description="Reference page: the static route /examples/new, which wins over the dynamic segment /examples/[id]."
      />
      <h1>Static route</h1>
      <p data-testid="route">/examples/new is a static route, so it wins over /examples/[id].</p>
    </ReferencePage>
  );
}
