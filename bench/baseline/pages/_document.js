export { default } from '../../../src/pages/_document';
