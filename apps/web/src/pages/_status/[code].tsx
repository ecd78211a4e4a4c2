export { default, getServerSideProps } from '@web-foundation/foundation/pages/_status/[code]';
