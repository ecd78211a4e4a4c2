import type { GetStaticPaths, GetStaticProps } from 'next';
import { useRouter } from 'next/router';
import { PageHead } from '@web-foundation/foundation/components/PageHead';
import { ReferencePage } from '../../../components/ReferencePage';
import { product } from '../../../product';

interface Props {
  slug: string;
  generatedAt: string;
}

/** No page is built ahead: the first visit to a slug gets the fallback shell, whose data the browser then fetches. */
export const getStaticPaths: GetStaticPaths = async () => ({ paths: [], fallback: true });

/** A slug the product cannot have is not found, and nothing is cached for it (the proxy refuses its page too). */
export const getStaticProps: GetStaticProps<Props, { slug: string }> = async ({ params }) => {
  if (!params || !product.acceptsSlug('/examples/on-demand/[slug]', params.slug)) return { notFound: true };
  return { props: { slug: params.slug, generatedAt: new Date().toISOString() }, revalidate: 60 };
};

export default function OnDemand({ slug, generatedAt }: Props) {
  const { isFallback } = useRouter();
  return (
    <ReferencePage>
      <PageHead
        title={isFallback ? 'Loading…' : `On demand: ${slug}`}
        description="Reference page: page data generated on its first request (a getStaticPaths fallback), then served as a static page."
      />
      <h1>Page data generated on first request</h1>
      {isFallback ? (
        <p role="status">Loading the page data…</p>
      ) : (
        <p>
          <code data-testid="slug">{slug}</code> was generated at <time>{generatedAt}</time>. Its first visit showed a
          fallback while the browser fetched this data: the one page-data fetch of a server render, retried up to 3
          times on server errors.
        </p>
      )}
    </ReferencePage>
  );
}
