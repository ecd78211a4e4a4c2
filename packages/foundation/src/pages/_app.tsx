import type { AppProps } from 'next/app';
import { useFocusAfterNavigation } from '../components/focusAfterNavigation';

export default function App({ Component, pageProps }: AppProps) {
  useFocusAfterNavigation();
  return <Component {...pageProps} />;
}
