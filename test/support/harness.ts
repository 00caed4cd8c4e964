// The suites' server and store helpers live in the top-level support/ folder, which the bench and
// the scripts share; this keeps the suites' imports short.
export * from '../../support/test-server.ts';
