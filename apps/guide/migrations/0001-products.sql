-- The products the /hello-backend page lists (src/pages/hello-backend.tsx).
CREATE TABLE products (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL UNIQUE
);
