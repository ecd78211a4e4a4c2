import type { GetServerSideProps } from 'next';
import { PageHead } from '@web-foundation/foundation/components/PageHead';
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
      <PageHead
        title={`Docs: ${path.join('/')}`}
        description="Reference page: the catch-all route /examples/docs/[...path], listing the path's segments."
      />
      <h1>Catch-all route</h1>
      <ol data-testid="segments">
        {path.map((segment, index) => (
          <li key={index}>{segment}</li>
        ))}
      </ol>
    </ReferencePage>
  );
}
