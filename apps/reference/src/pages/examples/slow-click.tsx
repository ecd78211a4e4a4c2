import { useState } from 'react';
import { PageHead } from '@web-foundation/foundation/components/PageHead';
import { ReferencePage } from '../../components/ReferencePage';

/** How long a click keeps the main thread: well past web-vitals' 40 ms, so the browser reports it as the page's INP. */
const busyMs = 200;

// A click that holds the main thread, so that the browser measures a slow interaction (INP) the SDK reports.
export default function SlowClick() {
  const [clicks, setClicks] = useState(0);
  const work = () => {
    const until = performance.now() + busyMs;
    while (performance.now() < until);
    setClicks((n) => n + 1);
  };
  return (
    <ReferencePage>
      <PageHead
        title="A slow click"
        description="Reference page: a button whose click keeps the main thread busy, for the interaction-to-next-paint span."
      />
      <h1>A slow click</h1>
      <button type="button" onClick={work}>
        Work for {busyMs} ms
      </button>
      <p data-testid="clicks">{clicks}</p>
    </ReferencePage>
  );
}
