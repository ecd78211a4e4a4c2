export { default } from '@web-foundation/foundation/pages/api/diagnostics/slow';
