export default function NewExample() {
  return (
    <main>
      <h1>Static route</h1>
    </main>
  );
}
