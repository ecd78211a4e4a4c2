import Head from 'next/head';
import { ReferencePage } from '../../../components/ReferencePage';

export default function Titled() {
  return (
    <ReferencePage>
      <Head>
        <title>Announcer: titled page</title>
      </Head>
      <h1>A heading the announcer does not read</h1>
    </ReferencePage>
  );
}
