export { onRequestError, register } from '@web-foundation/foundation/instrumentation';
