export * from '../../support/event-workspace.ts';
