import Image from 'next/image';
import { PageHead } from '@web-foundation/foundation/components/PageHead';
import { ReferencePage } from '../../components/ReferencePage';

// An image whose address holds secrets, as a signed link to private storage does, as the page's largest paint: the
// browser SDK puts that address on the page load (`lcp.url`). The test reads the secrets from the rendered address.
export default function SignedImage() {
  return (
    <ReferencePage>
      <PageHead
        title="A signed image"
        description="Reference page: the largest paint is an image whose address carries a signature and a token."
      />
      <h1>A signed image</h1>
      <Image
        // As it is, not through the optimiser: the browser fetches the address with its query, as from a storage link.
        src="/hero.png?X-Amz-Signature=lcpsignature7f3a9c&token=lcptoken5d2e8b"
        unoptimized
        width={1200}
        height={600}
        alt="A blue gradient"
        fetchPriority="high"
        loading="eager"
        style={{ width: '100%', height: 'auto' }}
      />
    </ReferencePage>
  );
}
