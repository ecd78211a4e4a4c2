import type { GetStaticProps } from 'next';
import { PageHead } from '@web-foundation/foundation/components/PageHead';
import { ReferencePage } from '../../components/ReferencePage';

interface Props {
  generatedAt: string;
}

/** Page data generated at build time and revalidated every minute (incremental static regeneration). */
export const getStaticProps: GetStaticProps<Props> = async () => ({
  props: { generatedAt: new Date().toISOString() },
  revalidate: 60,
});

export default function Generated({ generatedAt }: Props) {
  return (
    <ReferencePage>
      <PageHead
        title="Generated page"
        description="Reference page: page data generated at build time with getStaticProps and revalidated every minute."
      />
      <h1>Static page data</h1>
      <p>
        Generated at <time data-testid="generated-at">{generatedAt}</time>; after a client-side navigation here the
        router checks for a newer version with a HEAD request to the data path.
      </p>
    </ReferencePage>
  );
}
