// A target of /examples' links: the app's page, so that prefetching on both sides does the same work.
export { default } from '../../../../../apps/reference/src/pages/examples/announcer/titled';
