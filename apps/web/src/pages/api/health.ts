export { default } from '@web-foundation/foundation/pages/api/health';
