import Head from 'next/head';

interface PageHeadProps {
  /**
   * The document title, which the route announcer reads after a navigation; only the announcer's fallback pages lack
   * one.
   */
  title?: string;
  /** One or two sentences saying what the page is: search engines show it under the title. */
  description: string;
}

/** Every page's title and meta description, in one place. */
export function PageHead({ title, description }: PageHeadProps) {
  return (
    <Head>
      {title !== undefined && <title>{title}</title>}
      <meta name="description" content={description} key="description" />
    </Head>
  );
}
