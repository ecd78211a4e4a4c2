// The tests' /examples page itself (hero image, links, stylesheet), so that Lighthouse compares the same page with and
// without observability: issue 15's goals (LCP within 10%, TBT within 50 ms) are against this. It was the app's home
// page until the reference pages moved to the tests.
export { default } from '../../../../apps/reference/src/pages/examples/index';
