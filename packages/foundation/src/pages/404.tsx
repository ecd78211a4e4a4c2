import { ErrorScreen } from '../components/ErrorScreen';

/** Not-found answers are the same page for every path, so Next prerenders it once. */
export default function NotFound() {
  return <ErrorScreen statusCode={404} />;
}
