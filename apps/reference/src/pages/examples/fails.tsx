import type { GetServerSideProps } from 'next';
import { PageHead } from '@web-foundation/foundation/components/PageHead';
import { ReferencePage } from '../../components/ReferencePage';

// The app's own code failing on request, so that the tests prove a frame in an app's file resolves to its line
// through the uploaded source maps, as the foundation's do (tests/source-maps.spec.ts). Without `?fail=server` it is a
// plain page, as the sweep sees it.
export const getServerSideProps: GetServerSideProps = async ({ query }) => {
  if (query.fail === 'server') throw new Error("Reference: an exception thrown in the app's getServerSideProps");
  return { props: {} };
};

export default function Fails() {
  return (
    <ReferencePage>
      <PageHead
        title="The app's own errors"
        description="Reference page: errors thrown in the app's own code, on request, for the source-map tests."
      />
      <h1>The app&apos;s own errors</h1>
      <button
        type="button"
        onClick={() => {
          throw new Error("Reference: an exception thrown in the app's event handler");
        }}
      >
        Throw in the browser
      </button>
    </ReferencePage>
  );
}
