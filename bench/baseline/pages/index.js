// The app's home page itself (hero image, links, stylesheet), so that Lighthouse compares the same page with and
// without observability: issue 15's goals (LCP within 10%, TBT within 50 ms) are against this.
export { default } from '../../../src/pages/index';
