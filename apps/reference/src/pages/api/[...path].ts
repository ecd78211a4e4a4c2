export { default } from '@web-foundation/foundation/pages/api/[...path]';
