CREATE TABLE books (id integer PRIMARY KEY, title text NOT NULL);
