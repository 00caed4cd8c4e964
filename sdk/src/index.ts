export { LedgerRecon, sessionAccessToken, type LedgerReconOptions, type CallOptions, type ImportOptions, type TransactionPage, type WaitOptions } from './client.ts';
export { errorFromResponse, LedgerReconError, type ErrorDetail } from './errors.ts';
export { collect } from './paging.ts';
export { DEFAULT_RETRY, type RetryOptions } from './retry.ts';
export { csvField, spreadsheetCell, type CellKind } from './spreadsheet.ts';
export type { FileInput, UploadProgress } from './uploads.ts';
export type * from './types.ts';
