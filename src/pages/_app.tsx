import type { AppProps } from 'next/app';
import { useFocusAfterNavigation } from '../components/focusAfterNavigation';
import '../styles/global.css';

export default function App({ Component, pageProps }: AppProps) {
  useFocusAfterNavigation();
  return <Component {...pageProps} />;
}
