import Head from 'next/head';
import { ReferencePage } from '../../components/ReferencePage';

export default function NewExample() {
  return (
    <ReferencePage>
      <Head>
        <title>New example</title>
      </Head>
      <h1>Static route</h1>
      <p data-testid="route">/examples/new is a static route, so it wins over /examples/[id].</p>
    </ReferencePage>
  );
}
