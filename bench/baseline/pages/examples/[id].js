export async function getServerSideProps({ params }) {
  return { props: { id: params.id } };
}

export default function Example({ id }) {
  return (
    <main>
      <h1>Dynamic segment</h1>
      <p>{id}</p>
    </main>
  );
}
