import type { GetServerSideProps } from 'next';
import Head from 'next/head';
import { ReferencePage } from '../../../components/ReferencePage';

interface Props {
  path: string[];
}

export const getServerSideProps: GetServerSideProps<Props, { path: string[] }> = async ({ params }) => ({
  props: { path: params?.path ?? [] },
});

export default function Docs({ path }: Props) {
  return (
    <ReferencePage>
      <Head>
        <title>{`Docs: ${path.join('/')}`}</title>
      </Head>
      <h1>Catch-all route</h1>
      <ol data-testid="segments">
        {path.map((segment, index) => (
          <li key={index}>{segment}</li>
        ))}
      </ol>
    </ReferencePage>
  );
}
