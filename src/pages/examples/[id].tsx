import type { GetServerSideProps } from 'next';
import Head from 'next/head';
import { ReferencePage } from '../../components/ReferencePage';

interface Props {
  id: string;
}

export const getServerSideProps: GetServerSideProps<Props, { id: string }> = async ({ params }) => ({
  props: { id: params?.id ?? '' },
});

export default function Example({ id }: Props) {
  return (
    <ReferencePage>
      <Head>
        <title>{`Example ${id}`}</title>
      </Head>
      <h1>Dynamic segment</h1>
      <p>
        The <code>id</code> segment is <strong data-testid="segment">{id}</strong>.
      </p>
    </ReferencePage>
  );
}
