import type { GetServerSideProps } from 'next';
import Link from 'next/link';
import { useState } from 'react';
import { PageHead } from '../../components/PageHead';
import { serverSettings } from '../../config/settings.mts';

export const getServerSideProps: GetServerSideProps = async () =>
  serverSettings().enableDiagnostics ? { props: {} } : { notFound: true };

function RenderError(): never {
  throw new Error('Diagnostics: an exception thrown while rendering in the browser');
}

/** Operators check a deployment's error reporting here (ENABLE_DIAGNOSTICS=1). */
export default function Diagnostics() {
  const [renderError, setRenderError] = useState(false);
  const [apiResult, setApiResult] = useState<string>();

  return (
    <main>
      <PageHead
        title="Diagnostics"
        description="Operators' page: raise errors on purpose to check that this deployment reports them."
      />
      <h1>Diagnostics</h1>
      <p>Each button raises an error on purpose, so that you can see it arrive at the error reporter.</p>
      <p>
        <button
          type="button"
          onClick={() => {
            throw new Error('Diagnostics: an exception thrown in a browser event handler');
          }}
        >
          Throw in the browser
        </button>{' '}
        <button type="button" onClick={() => setRenderError(true)}>
          Throw while rendering
        </button>{' '}
        <button
          type="button"
          onClick={async () => {
            const response = await fetch('/api/diagnostics/server-error');
            setApiResult(`The API route answered ${response.status}.`);
          }}
        >
          Call an API route that throws
        </button>
      </p>
      {apiResult && <p role="status">{apiResult}</p>}
      <ul>
        <li>
          <Link href="/diagnostics/ssr-error">Open a page whose getServerSideProps throws</Link>
        </li>
        <li>
          <Link href="/diagnostics/render-error">Open a page that throws while the server renders it</Link>
        </li>
        <li>
          <a href="/diagnostics/proxy-error">Open a path where the proxy throws</a>
        </li>
      </ul>
      {renderError && <RenderError />}
    </main>
  );
}
