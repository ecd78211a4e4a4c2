import type { Event } from '@sentry/core';
import { appHost, appOrigin, appPort } from '@web-foundation/testing/env';
import { rawRequest } from '@web-foundation/testing/raw-http';
import { expect, test } from '@web-foundation/testing';

// Issue 36, point 4: the proxy sees a path with its dot segments collapsed, Next routes it as it is. A slug of `..`
// got past the slug rule and Next answered 500 with an error event, for the page, its data and an image of it.

const dots = ['..', '%2e%2e', '.%2e', '%2E.', '%2E%2E'];

test('dot segments for a slug, in a page, its data or an image source, answer 400 and send no error event', async ({
  ingest,
}) => {
  const { buildId } = (await (await fetch(`${appOrigin}/api/health`)).json()) as { buildId: string };
  const targets = dots.flatMap((dot) => {
    const data = `/_next/data/${buildId}/examples/on-demand/${dot}.json`;
    return [
      `/examples/on-demand/${dot}`,
      data,
      `/_next/image?url=${encodeURIComponent(data)}&w=64&q=75`,
      `/_next/image?url=${encodeURIComponent(`/examples/on-demand/${dot}`)}&w=64&q=75`,
    ];
  });
  const statuses: Record<string, number> = {};
  for (const target of targets) {
    // Raw: fetch, like a browser, collapses dot segments before it sends.
    const answer = await rawRequest(
      appPort,
      appHost,
      `GET ${target} HTTP/1.1\r\nHost: ${appHost}:${appPort}\r\nConnection: close\r\n\r\n`,
    );
    statuses[target] = answer.status;
  }
  expect(statuses).toEqual(Object.fromEntries(targets.map((target) => [target, 400])));
  // Next's error was "Requested and resolved page mismatch: /examples/on-demand/.. /examples".
  const aboutOnDemand = (event: Event) => /on-demand|mismatch/.test(JSON.stringify(event));
  await ingest.expectNone<Event>('event', aboutOnDemand, { withinMs: 2000 });
});
