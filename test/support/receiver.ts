export * from '../../support/receiver.ts';
export { waitFor as eventually } from '../../support/wait.ts';
