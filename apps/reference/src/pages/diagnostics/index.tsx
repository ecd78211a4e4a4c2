export { default, getServerSideProps } from '@web-foundation/foundation/pages/diagnostics';
