import { ReferencePage } from '../../../components/ReferencePage';

export default function Bare() {
  return (
    <ReferencePage>
      <p>This page has neither a title nor a heading, so the announcer reads its path.</p>
    </ReferencePage>
  );
}
