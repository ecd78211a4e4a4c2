// A target of the home page's links: the app's page, so that prefetching on both sides does the same work.
export { default, getServerSideProps } from '../../../../src/pages/examples/unavailable';
