import type { GetStaticProps } from 'next';
import { PageHead } from '@web-foundation/foundation/components/PageHead';
import { ReferencePage } from '../../components/ReferencePage';

interface Props {
  readAt: string;
}

/** How long a regeneration of a stale copy takes: long enough for a revalidation to arrive while it runs. */
const staleRegenerationMs = 3000;

/**
 * Stale after a second. A regeneration of the stale copy reads its data (here, the time) at once, then takes a while,
 * as a slow backend would: a revalidation that arrives meanwhile must not be answered with this render.
 */
export const getStaticProps: GetStaticProps<Props> = async ({ revalidateReason }) => {
  const readAt = new Date().toISOString();
  if (revalidateReason === 'stale') await new Promise((done) => setTimeout(done, staleRegenerationMs));
  return { props: { readAt }, revalidate: 1 };
};

export default function SlowRegeneration({ readAt }: Props) {
  return (
    <ReferencePage>
      <PageHead
        title="Slow regeneration"
        description="Reference page: revalidated every second, and each regeneration of its stale copy takes seconds."
      />
      <h1>A slow regeneration</h1>
      <p>
        Its data was read at <time data-testid="generated-at">{readAt}</time>.
      </p>
    </ReferencePage>
  );
}
