import { PageHead } from '@web-foundation/foundation/components/PageHead';

export default function About() {
  return (
    <main>
      <PageHead title="About us" description="Who we are." />
      <h1>About us</h1>
      {/* eslint-disable-next-line @next/next/no-img-element, jsx-a11y/alt-text */}
      <img src="/hero.png" width={64} height={64} />
    </main>
  );
}
