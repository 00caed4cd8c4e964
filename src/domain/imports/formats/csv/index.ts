/**
 * CSV files read with a mapping: the mapping (SPEC §7) says how the text is cut into fields and
 * which field is which column. The file is read as a stream by csv-parse, one record at a time,
 * so a file of any size passes with one row in memory. The whole file is one statement: CSV
 * exports carry no balances the parser could check, and no statement boundaries.
 *
 * The parts, each in its own module: the mapping's shape (mapping.ts) and its checks
 * (check-mapping.ts), amounts (amounts.ts), dates and time zones (dates.ts), recognising CSV and
 * cutting a sample (sniffing.ts), the mapping a header of the dataset's own column names gives
 * (header-mapping.ts), reading records (records.ts), parsing records into entries (parse.ts), and
 * the preview that proposes a mapping (preview.ts, from the header, propose-header.ts, and the
 * values, propose-values.ts). The settlement reports of payment providers are read without a
 * mapping by their presets (presets.ts), recognised by their header.
 */

export { compileAmountReader, type AmountFormat, type AmountReader, type ReadAmount } from './amounts.ts';
export { checkCsvMapping } from './check-mapping.ts';
export { compileDateFormat, zonedTimeToEpochMs, type CompiledDateFormat, type ReadDate } from './dates.ts';
export { isTimeZone } from '../../../time-zones.ts';
export { mappingFromHeader } from './header-mapping.ts';
export {
  CSV_BANK_TARGETS,
  CSV_LIMITS,
  CSV_MAPPING_DEFAULTS,
  CSV_STANDARD_TARGETS,
  MappingError,
  type CsvColumnReference,
  type CsvColumnSource,
  type CsvColumnType,
  type CsvCustomColumn,
  type CsvIndicatorAmount,
  type CsvMapping,
  type CsvSkipRule,
  type CsvSplitAmount,
} from './mapping.ts';
export { namedHeaderWidth, parseCsv, type CsvParseOptions } from './parse.ts';
export { CSV_PREVIEW_LIMITS, previewCsv, type CsvPreview, type CsvPreviewOptions } from './preview.ts';
export { sniffCsv, splitSample, type SampleRecord } from './sniffing.ts';
