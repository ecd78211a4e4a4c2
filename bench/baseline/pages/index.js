// The app's start page, so that the baseline has the app's routes. The page the benchmarks measure is /examples.
export { default } from '../../../src/pages/index';
