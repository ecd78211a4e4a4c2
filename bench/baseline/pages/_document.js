export { default } from '../../../apps/reference/src/pages/_document';
