export { default } from '@web-foundation/foundation/pages/_error';
