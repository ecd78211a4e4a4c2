import { PageHead } from '@web-foundation/foundation/components/PageHead';

export default function About() {
  return (
    <main>
      <PageHead title="About us" description="Who we are." />
      <h1>About us</h1>
      <p>We sell books.</p>
    </main>
  );
}
