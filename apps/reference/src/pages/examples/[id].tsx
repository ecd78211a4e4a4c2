import type { GetServerSideProps } from 'next';
import { PageHead } from '@web-foundation/foundation/components/PageHead';
import { ReferencePage } from '../../components/ReferencePage';
import { requestIdOf } from '@web-foundation/foundation/api';

interface Props {
  id: string;
  requestId: string | null;
}

export const getServerSideProps: GetServerSideProps<Props, { id: string }> = async ({ params, req }) => ({
  props: { id: params?.id ?? '', requestId: requestIdOf(req) ?? null },
});

export default function Example({ id, requestId }: Props) {
  return (
    <ReferencePage>
      <PageHead
        title={`Example ${id}`}
        description={`Reference page: the dynamic segment /examples/[id] filled in with "${id}", with page data from getServerSideProps.`}
      />
      <h1>Dynamic segment</h1>
      <p>
        The <code>id</code> segment is <strong data-testid="segment">{id}</strong>.
      </p>
      <p>
        This request&apos;s id, given by the proxy: <code data-testid="request-id">{requestId}</code>
      </p>
    </ReferencePage>
  );
}
