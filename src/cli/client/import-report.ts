/**
 * The import report as text, for both import commands (the admin one that writes to the store and
 * the one that goes through the server): they print the same report the same way.
 */

interface StatementView {
  statementId: string | null;
  accountId: string | null;
  currency: string | null;
  entries: number;
  inserted?: number;
  duplicates?: number;
  sumOfEntries: string;
  balanced: boolean | null;
  openingBalance: { amount: string; date: string | null } | null;
  closingBalance: { amount: string; date: string | null } | null;
}

export interface ImportReportView {
  id: string;
  status: string;
  format: string | null;
  encoding: string | null;
  rowsRead: number;
  inserted: number;
  duplicates: number;
  statements: unknown[];
  warnings: unknown[];
}

/** The import report as a person reads it at a terminal. */
export function describeReport(report: ImportReportView): string {
  const lines = [
    `import ${report.id} ${report.status}: ${report.format ?? 'format not detected'} (${report.encoding ?? 'encoding not detected'}), ${report.rowsRead} entries read, ${report.inserted} new, ${report.duplicates} already known`,
  ];
  for (const statement of report.statements as StatementView[]) {
    const balance = (value: { amount: string; date: string | null } | null) =>
      value === null ? '-' : `${value.amount}${value.date ? ` on ${value.date}` : ''}`;
    const check = statement.balanced === null ? '' : statement.balanced ? ', balanced' : ', DOES NOT BALANCE (opening + entries differ from closing)';
    lines.push(
      `  statement ${statement.statementId ?? '-'} account ${statement.accountId ?? '-'} ${statement.currency ?? ''}: ` +
        `${statement.entries} entries${statement.inserted === undefined ? '' : ` (${statement.inserted} new, ${statement.duplicates ?? 0} already known)`} summing to ${statement.sumOfEntries}; opening ${balance(statement.openingBalance)}, closing ${balance(statement.closingBalance)}${check}`,
    );
  }
  for (const warning of report.warnings as Array<{ line: number | null; message: string }>)
    lines.push(`  warning${warning.line === null ? '' : ` (line ${warning.line})`}: ${warning.message}`);
  return lines.join('\n') + '\n';
}
