import type { GetStaticProps } from 'next';
import { PageHead } from '@web-foundation/foundation/components/PageHead';
import { product } from '../product';
import { books, type Book } from '../server/books';

interface Props {
  title: string;
  books: Book[];
}

export const getStaticProps: GetStaticProps<Props> = async () => ({
  props: { title: product.settings().catalogTitle, books: await books() },
  revalidate: 60,
});

export default function Catalog({ title, books }: Props) {
  return (
    <main>
      <PageHead title={title} description="Every book we sell." />
      <h1>{title}</h1>
      <ul>
        {books.map((book) => (
          <li key={book.id}>{book.title}</li>
        ))}
      </ul>
    </main>
  );
}
