// A target of the home page's links: the app's page, so that prefetching on both sides does the same work.
export { default, getStaticPaths, getStaticProps } from '../../../../../src/pages/examples/on-demand/[slug]';
