export { default, getServerSideProps } from '@web-foundation/foundation/pages/diagnostics/ssr-error';
