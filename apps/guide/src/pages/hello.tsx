import type { GetServerSideProps } from 'next';
import { PageHead } from '@web-foundation/foundation/components/PageHead';
import { requestIdOf } from '@web-foundation/foundation/api';

interface HelloProps {
  greeting: string;
  requestId: string | null;
}

// Runs on the server for every request: traced as `GET /hello`, with a `getServerSideProps` span.
export const getServerSideProps: GetServerSideProps<HelloProps> = async ({ query, req }) => {
  if (query.fail === '1') throw new Error('Hello failed on purpose');
  return { props: { greeting: 'Hello from the server', requestId: requestIdOf(req) ?? null } };
};

export default function Hello({ greeting, requestId }: HelloProps) {
  return (
    <main>
      <PageHead title="Hello" description="The first page of the product." />
      <h1>{greeting}</h1>
      <p>
        Request <code>{requestId}</code>
      </p>
    </main>
  );
}
