import type { GetStaticProps } from 'next';
import { PageHead } from '@web-foundation/foundation/components/PageHead';

interface BuiltProps {
  builtAt: string;
}

// Runs at build time, and again in the background at most once a minute (`revalidate`).
export const getStaticProps: GetStaticProps<BuiltProps> = async () => ({
  props: { builtAt: new Date().toISOString() },
  revalidate: 60,
});

export default function HelloStatic({ builtAt }: BuiltProps) {
  return (
    <main>
      <PageHead title="Hello, built ahead" description="A page generated at build time." />
      <h1>Built at {builtAt}</h1>
    </main>
  );
}
