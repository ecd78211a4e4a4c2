import { copyOfBuild, startInstance } from '@web-foundation/testing/cluster';
import { e2eDistDir } from '@web-foundation/testing/env';
import { expect, test } from '@web-foundation/testing';

// Issue 6: the standalone output runs on its own once copied elsewhere (what a container image holds).

test('the standalone directory serves pages, assets, images, API routes and the proxy from another place', async ({
  request,
}) => {
  const copy = copyOfBuild(e2eDistDir);
  const server = await startInstance(e2eDistDir, copy.dir);
  const { origin } = server;
  try {
    const expected = (await (await request.get('/api/health')).json()) as { buildId: string };
    expect(((await (await fetch(`${origin}/api/health`)).json()) as { buildId: string }).buildId).toBe(
      expected.buildId,
    );

    const home = await fetch(`${origin}/`);
    expect(home.status).toBe(200);
    const html = await home.text();
    const asset = /src="(\/_next\/static\/[^"?]+\.js)(?:\?[^"]*)?"/.exec(html)?.[1];
    expect((await fetch(`${origin}${asset}`)).status).toBe(200);
    expect((await fetch(`${origin}/_next/image?url=%2Fhero.png&w=640&q=75`)).headers.get('content-type')).toMatch(
      /^image\//,
    );
    expect((await fetch(`${origin}/robots.txt`)).status).toBe(200);
    expect((await fetch(`${origin}/examples/42`)).status).toBe(200);
    expect((await fetch(`${origin}/%`)).status).toBe(400);
    expect((await fetch(`${origin}/api/nope`)).headers.get('x-request-id')).toBeTruthy();
    // Everything the server's SDK loads at start-up was copied: it registered its instrumentation hooks.
    expect(server.output()).not.toContain('Failed to register');
  } finally {
    expect(await server.stop('SIGTERM')).toBe(0);
    copy.remove();
  }
});
