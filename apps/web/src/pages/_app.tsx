// Next takes global CSS only from the app's own _app.
import '@web-foundation/foundation/styles/global.css';

export { default } from '@web-foundation/foundation/pages/_app';
