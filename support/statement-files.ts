/**
 * Bank statement files made for a test: a camt.053 of one account with its opening and closing
 * balances (the closing one the opening plus the entries), booked entries given signed.
 */
export interface StatementEntry {
  reference: string;
  /** Signed decimal: money in positive, money out negative. */
  amount: string;
  /** YYYY-MM-DD, the booking date. */
  date: string;
  text: string;
}

function cents(amount: string): number {
  const negative = amount.startsWith('-');
  const [units = '0', fraction = ''] = amount.replace('-', '').split('.');
  const value = Number(units) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
  return negative ? -value : value;
}

function balanceXml(code: 'OPBD' | 'CLBD', valueCents: number, currency: string, date: string): string {
  const amount = (Math.abs(valueCents) / 100).toFixed(2);
  return `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="${currency}">${amount}</Amt><CdtDbtInd>${valueCents < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd><Dt><Dt>${date}</Dt></Dt></Bal>`;
}

export function camt053Statement(statement: {
  id: string;
  iban: string;
  currency: string;
  opening: { amount: string; date: string };
  closingDate: string;
  entries: StatementEntry[];
}): string {
  const openingCents = cents(statement.opening.amount);
  const closingCents = statement.entries.reduce((total, entry) => total + cents(entry.amount), openingCents);
  const entries = statement.entries
    .map(
      (
        entry,
      ) => `<Ntry><Amt Ccy="${statement.currency}">${entry.amount.replace('-', '')}</Amt><CdtDbtInd>${entry.amount.startsWith('-') ? 'DBIT' : 'CRDT'}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>${entry.date}</Dt></BookgDt><ValDt><Dt>${entry.date}</Dt></ValDt><AcctSvcrRef>${entry.reference}</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls><TxDtls><RmtInf><Ustrd>${entry.text}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><GrpHdr><MsgId>M-${statement.id}</MsgId><CreDtTm>${statement.closingDate}T18:00:00+01:00</CreDtTm></GrpHdr>
<Stmt><Id>${statement.id}</Id><Acct><Id><IBAN>${statement.iban}</IBAN></Id><Ccy>${statement.currency}</Ccy></Acct>
${balanceXml('OPBD', openingCents, statement.currency, statement.opening.date)}
${balanceXml('CLBD', closingCents, statement.currency, statement.closingDate)}
${entries}
</Stmt></BkToCstmrStmt></Document>`;
}

/**
 * Two bank accounts of known figures, in two currencies. Euro: 350.00 in and 25.50 out left open
 * (net 324.50), "Invoice 7" (100.00) to be matched, nothing in February, closing 1,424.50 on
 * 31 March 2026. Dollar: 80.00 out and 20.00 in, all in March, closing −50.00 on 30 March 2026.
 */
export const EURO_STATEMENT = camt053Statement({
  id: 'EUR-Q1',
  iban: 'DE89370400440532013000',
  currency: 'EUR',
  opening: { amount: '1000.00', date: '2026-01-01' },
  closingDate: '2026-03-31',
  entries: [
    { reference: 'E1', amount: '350.00', date: '2026-01-12', text: 'Customer payment' },
    { reference: 'E2', amount: '100.00', date: '2026-01-20', text: 'Invoice 7' },
    { reference: 'E3', amount: '-25.50', date: '2026-03-03', text: 'Bank fee' },
  ],
});

export const DOLLAR_STATEMENT = camt053Statement({
  id: 'USD-03',
  iban: 'GB33BUKB20201555555555',
  currency: 'USD',
  opening: { amount: '10.00', date: '2026-03-01' },
  closingDate: '2026-03-30',
  entries: [
    { reference: 'U1', amount: '-80.00', date: '2026-03-10', text: 'Hosting' },
    { reference: 'U2', amount: '20.00', date: '2026-03-11', text: 'Refund' },
  ],
});
