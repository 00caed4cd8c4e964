export {
  LedgerRecon,
  sessionAccessToken,
  type LedgerReconOptions,
  type CallOptions,
  type ImportOptions,
  type TransactionPage,
  type WaitOptions,
  type Download,
  filenameOf,
} from './client.ts';
export { errorFromResponse, LedgerReconError, type ErrorDetail } from './errors.ts';
export { collect } from './paging.ts';
export {
  addDecimals,
  AMOUNT_DECIMAL_PLACES_MAX,
  AMOUNT_PATTERN,
  AMOUNT_WHOLE_DIGITS_MAX,
  amountProblem,
  compareDecimals,
  fromScaled,
  isAmount,
  negateDecimal,
  toScaled,
  unitsAt,
  withScale,
  type ScaledDecimal,
} from './money.ts';
export { CALENDAR_DATE_PATTERN, calendarDateProblem, calendarDateToEpochMs, isCalendarDate } from './dates.ts';
export { isReconciliationStatus, RECONCILIATION_STATUSES, SET_STATUSES } from './statuses.ts';
export { ACCOUNT_ID_LENGTH_MAX, accountForPeople, accountIdOf, accountIdProblem, IBAN_SHAPE, ibanChecksumHolds, isUuid, UUID_PATTERN } from './identifiers.ts';
export {
  describeTransaction,
  evidenceSentences,
  formatAmountForReading,
  formatDuration,
  type EvidenceContext,
  type EvidenceSentence,
  type EvidenceTransaction,
} from './evidence.ts';
export { DEFAULT_RETRY, type RetryOptions } from './retry.ts';
export { csvField, spreadsheetCell, type CellKind } from './spreadsheet.ts';
export type { FileInput, UploadProgress } from './uploads.ts';
export type * from './types.ts';
