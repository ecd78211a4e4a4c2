import '@web-foundation/foundation/instrumentation-client';
