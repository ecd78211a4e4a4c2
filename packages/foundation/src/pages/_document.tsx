import { Head, Html, Main, NextScript } from 'next/document';
import { language } from '../config/site';

/** Next's own document plus `<html lang>`. It adds no script: the Content-Security-Policy allows no inline script. */
export default function Document() {
  return (
    <Html lang={language}>
      <Head />
      <body>
        <Main />
        <NextScript />
      </body>
    </Html>
  );
}
