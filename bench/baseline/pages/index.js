// The reference app's start page, so that the baseline has the app's routes. The page the benchmarks measure is
// /examples.
export { default } from '../../../apps/reference/src/pages/index';
