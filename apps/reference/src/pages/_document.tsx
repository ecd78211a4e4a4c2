export { default } from '@web-foundation/foundation/pages/_document';
