import { ReferencePage } from '../../../components/ReferencePage';

export default function Heading() {
  return (
    <ReferencePage>
      <h1>Announcer: first heading</h1>
      <p>This page has no title, so the announcer reads this heading.</p>
    </ReferencePage>
  );
}
