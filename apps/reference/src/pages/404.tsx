export { default } from '@web-foundation/foundation/pages/404';
