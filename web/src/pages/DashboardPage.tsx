import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Text, Tooltip, XAxis, YAxis } from 'recharts';
import { DatasetSelect, useDatasets, useSources } from '../components/DatasetSelect.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { percentOf, sum, wholeUnits } from '../decimal.ts';
import { formatAmount, formatCalendarMonth, formatCount } from '../format.ts';
import { useSession } from '../session.tsx';
import { explorerLink } from '../explorer-address.ts';
import { CalendarDate, Moment } from '../components/When.tsx';
import { Amount } from '../components/Amount.tsx';
import { connectionAnchor, connectionProblemInWords, failingForADay, useConnections } from '../connections.ts';

type Overview = Awaited<ReturnType<ReturnType<typeof useSession>['recon']['datasets']['overview']>>;
type BankOverview = Overview['datasets'][number];

/** Every month (YYYY-MM) from first to last, both included; none without both. */
function monthsFromTo(first: string | undefined, last: string | undefined): string[] {
  if (first === undefined || last === undefined) return [];
  const index = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
  const months: string[] = [];
  for (let at = index(first); at <= index(last); at += 1) months.push(`${Math.floor(at / 12)}-${String((at % 12) + 1).padStart(2, '0')}`);
  return months;
}

/** The first and last day (YYYY-MM-DD) of a period of months. */
function periodDays(from: string, to: string): { dateFrom: string; dateTo: string } {
  const [year, month] = to.split('-').map(Number) as [number, number];
  const lastDay = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
  return { dateFrom: `${from}-01`, dateTo: lastDay };
}

/** The reconciled share of a count, as "67%", or a dash when nothing is expected to reconcile. */
function shareOf(reconciled: number, count: number, excluded: number): number | null {
  return percentOf(String(reconciled), String(count - excluded));
}

function BankCard({ bank, from, to }: { bank: BankOverview; from: string; to: string }) {
  const days = periodDays(from, to);
  const openCount = bank.open.reduce((total, row) => total + row.count, 0);
  const share = shareOf(bank.reconciledCount, bank.count, bank.excludedCount);
  return (
    <li className="bank-card">
      <h3>{bank.name}</h3>
      <p className="hint">
        {bank.sourceName}
        {bank.accountId ? ` · ${bank.accountId}` : ''}
      </p>
      <dl>
        <div>
          <dt>Reconciled</dt>
          <dd>
            {share === null ? '—' : `${share}%`}{' '}
            <span className="hint">
              ({formatCount(bank.reconciledCount)} of {formatCount(bank.count - bank.excludedCount)})
            </span>
          </dd>
        </div>
        <div>
          <dt>Open</dt>
          <dd>
            {openCount === 0 ? (
              'Nothing open'
            ) : (
              <Link to={explorerLink(bank.datasetId, { statuses: ['none', 'partial'], ...days })}>
                {formatCount(openCount)} open {openCount === 1 ? 'transaction' : 'transactions'}
              </Link>
            )}
          </dd>
        </div>
        {bank.open.flatMap((open) => {
          const inCurrency = bank.open.length > 1 ? ` (${open.currency ?? 'no currency'})` : '';
          return [
            ['Open money in', open.moneyIn],
            ['Open money out', open.moneyOut],
            ['Open net', open.net],
          ].map(([label, amount]) => (
            <div key={`${open.currency ?? ''} ${label}`}>
              <dt>
                {label}
                {inCurrency}
              </dt>
              <dd>
                <Amount amount={amount!} currency={open.currency} />
              </dd>
            </div>
          ));
        })}
        <div>
          <dt>Closing balance</dt>
          <dd>
            {bank.closingBalance === null ? (
              'No statement yet'
            ) : (
              <>
                <Amount amount={bank.closingBalance.amount} currency={bank.closingBalance.currency} /> on <CalendarDate value={bank.closingBalance.date} />
              </>
            )}
          </dd>
        </div>
      </dl>
      <p>
        <Link to={explorerLink(bank.datasetId, days)}>All {formatCount(bank.count)} transactions of the period</Link>
      </p>
    </li>
  );
}

/**
 * Every bank account at a glance over a period of months: its reconciled share, what is left open
 * (money in and money out apart, and net) and its latest closing balance, each with links to the
 * explorer on exactly those rows; then the share by month, every month of the period on the axis,
 * a month without transactions left as a gap.
 */
/** "1 transaction", "1,200 transactions". */
function transactionsInWords(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'transaction' : 'transactions'}`;
}

/** The most months the overview covers (the server refuses a longer period). */
const PERIOD_MONTHS_LIMIT = 24;
/** How many months the other end moves to when a choice would make the period run backwards or too long. */
const PERIOD_MONTHS_MOVED = 12;

function monthNumber(month: string): number {
  const [year, monthOfYear] = month.split('-').map(Number);
  return year! * 12 + monthOfYear! - 1;
}

function monthOfNumber(number: number): string {
  return `${String(Math.floor(number / 12)).padStart(4, '0')}-${String((number % 12) + 1).padStart(2, '0')}`;
}

/**
 * The period with one end chosen. When the other end would leave it running backwards or longer
 * than the overview covers, that end follows, to a year from the chosen one: going back years in
 * the From field shows that year at once, rather than a refusal.
 */
function periodWith(from: string, to: string, key: 'from' | 'to', value: string): { from: string; to: string } {
  const next = { from, to, [key]: value };
  const months = monthNumber(next.to) - monthNumber(next.from) + 1;
  if (months >= 1 && months <= PERIOD_MONTHS_LIMIT) return next;
  return key === 'from'
    ? { from: value, to: monthOfNumber(monthNumber(value) + PERIOD_MONTHS_MOVED - 1) }
    : { from: monthOfNumber(monthNumber(value) - PERIOD_MONTHS_MOVED + 1), to: value };
}

function AccountsOverview() {
  const { recon } = useSession();
  const [period, setPeriod] = useState<{ from?: string; to?: string }>({});
  // The last answer stays on screen while a new period loads, so the fields keep their months.
  const overview = useQuery({ queryKey: ['dataset-overview', period], queryFn: () => recon.datasets.overview(period), placeholderData: keepPreviousData });
  const data = overview.data;
  const banks = data?.datasets ?? [];
  const byMonth = (data?.months ?? []).map((month) => {
    const row: Record<string, string | number | null> = { month: formatCalendarMonth(month) };
    for (const bank of banks) {
      const found = bank.months.find((entry) => entry.month === month);
      row[bank.name] = found ? shareOf(found.reconciledCount, found.count, found.excludedCount) : null;
    }
    return row;
  });
  const shownFrom = period.from ?? data?.from;
  const shownTo = period.to ?? data?.to;
  // Until the first answer gives the period, the fields are disabled: a month typed then would have
  // no other end to keep the period valid with, and would be lost.
  const chooseMonth = (key: 'from' | 'to', value: string) => {
    if (/^\d{4}-\d{2}$/.test(value) && shownFrom !== undefined && shownTo !== undefined) setPeriod(periodWith(shownFrom, shownTo, key, value));
  };
  const colors = ['#1d5fbf', '#147a3d', '#b42318', '#7a4a00', '#5b3cc4'];
  return (
    <section className="card" aria-label="Bank accounts">
      <h2>Bank accounts</h2>
      <div className="period">
        <label>
          From month
          <input
            type="month"
            value={shownFrom ?? ''}
            max={shownTo}
            disabled={shownFrom === undefined}
            onChange={(event) => chooseMonth('from', event.target.value)}
          />
        </label>
        <label>
          To month
          <input
            type="month"
            value={shownTo ?? ''}
            min={shownFrom}
            disabled={shownTo === undefined}
            onChange={(event) => chooseMonth('to', event.target.value)}
          />
        </label>
      </div>
      <ErrorMessage error={overview.error} />
      {data && banks.length === 0 && <p className="hint">No bank account yet: import a bank statement into a dataset to see it here.</p>}
      {data && banks.length > 0 && (
        <>
          <ul className="bank-cards">
            {banks.map((bank) => (
              <BankCard key={bank.datasetId} bank={bank} from={data.from} to={data.to} />
            ))}
          </ul>
          <h3>Reconciled share by month, per account</h3>
          <ResponsiveContainer width="100%" height={240}>
            <LineChart data={byMonth} margin={{ left: 0, right: 16, top: 8, bottom: 8 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="month" />
              <YAxis unit="%" domain={[0, 100]} />
              <Tooltip formatter={(value) => (value === null || value === undefined ? 'no transactions' : `${value}%`)} />
              <Legend />
              {banks.map((bank, index) => (
                <Line
                  key={bank.datasetId}
                  type="linear"
                  dataKey={bank.name}
                  stroke={colors[index % colors.length]}
                  strokeWidth={2}
                  connectNulls={false}
                  isAnimationActive={false}
                />
              ))}
            </LineChart>
          </ResponsiveContainer>
          <div className="month-table">
            <table>
              <caption className="visually-hidden">Reconciled share by month, per account</caption>
              <TableHead columns={['Month', ...banks.map((bank) => `#${bank.name}`)]} />
              <tbody>
                {(data.months ?? []).map((month, index) => (
                  <tr key={month}>
                    <td>{formatCalendarMonth(month)}</td>
                    {banks.map((bank) => {
                      const share = byMonth[index]?.[bank.name];
                      const found = bank.months.find((entry) => entry.month === month);
                      return (
                        <td key={bank.datasetId} className={found ? 'number' : 'number month-gap'}>
                          {found
                            ? `${share === null || share === undefined ? '—' : `${share}%`} of ${formatCount(found.count - found.excludedCount)}`
                            : 'No transactions'}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

const AGE_LABELS: Record<string, string> = { '0-7': '0–7 days', '8-30': '8–30 days', '31-90': '31–90 days', '>90': 'over 90 days' };

/**
 * An age's label under its bar, broken onto two lines when it is wider than the bar (on a phone),
 * instead of running into its neighbours. Recharts gives a tick the axis's width and the number of ticks.
 */
function AgeTick({
  x,
  y,
  width,
  visibleTicksCount,
  payload,
}: {
  x?: number;
  y?: number;
  width?: number;
  visibleTicksCount?: number;
  payload?: { value: string };
}) {
  const bandWidthPixels = (width ?? 0) / Math.max(1, visibleTicksCount ?? 1);
  return (
    <Text x={x} y={y} width={Math.max(40, bandWidthPixels - 8)} textAnchor="middle" verticalAnchor="start" fill="#666">
      {payload?.value}
    </Text>
  );
}

/**
 * For Administrators: the connections whose every run has failed for more than a day, each with a
 * link to it, so that statements that stopped arriving are noticed. Nothing for others (the API
 * shows connections to Administrators only) and nothing when all work.
 */
function FailingConnections() {
  const connections = useConnections({ secondary: true });
  const failing = (connections.data ?? []).filter((connection) => failingForADay(connection));
  if (failing.length === 0) return null;
  return (
    <section className="card failing-connections" aria-label="Failing connections">
      <h2>{failing.length === 1 ? 'A connection is failing' : `${formatCount(failing.length)} connections are failing`}</h2>
      <p className="hint">
        Every run has failed for more than a day: no files have been picked up from {failing.length === 1 ? 'it' : 'them'} since, and statements may be missing.
      </p>
      <ul>
        {failing.map((connection) => (
          <li key={connection.id}>
            <Link to={`/connections#${connectionAnchor(connection.id)}`}>{connection.name}</Link>: failing since <Moment value={connection.failingSince} />,{' '}
            {formatCount(connection.consecutiveFailures)} {connection.consecutiveFailures === 1 ? 'run' : 'runs'} in a row.{' '}
            {connection.lastError !== null && connectionProblemInWords(connection.lastError)}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function DashboardPage() {
  const { recon } = useSession();
  const sources = useSources();
  const datasets = useDatasets();
  const [chosen, setChosen] = useState('');
  const datasetId = chosen || datasets[0]?.id || '';
  const summary = useQuery({ queryKey: ['summary', datasetId], enabled: datasetId !== '', queryFn: () => recon.datasets.summary(datasetId) });

  // Every month from the first to the last, so that a month without transactions is a gap in the lines, not skipped.
  const summaryMonths = summary.data?.months ?? [];
  const shares = monthsFromTo(summaryMonths[0]?.month, summaryMonths.at(-1)?.month).map((name) => {
    const month = summaryMonths.find((candidate) => candidate.month === name);
    return {
      month: formatCalendarMonth(name),
      'by count': month ? percentOf(String(month.reconciledCount), String(month.count - month.excludedCount)) : null,
      'by amount': month ? percentOf(month.reconciledAmount, month.amount) : null,
    };
  });
  const ages = (summary.data?.openByAge ?? []).map((bucket) => ({
    age: AGE_LABELS[bucket.bucket] ?? bucket.bucket,
    amount: wholeUnits(bucket.amount),
    exact: bucket.amount,
    count: bucket.count,
  }));
  const hits = (summary.data?.ruleHits ?? []).map((hit) => ({ rule: hit.name ?? hit.ruleId.slice(0, 8), matches: hit.matches }));
  const latest = summary.data?.months.at(-1);

  return (
    <>
      <h1 className="dashboard-title">Dashboard</h1>
      <FailingConnections />
      <AccountsOverview />
      <section className="card" aria-label="In detail">
        <h2>In detail</h2>
        <DatasetSelect label="Dataset" value={datasetId} onChange={setChosen} datasets={datasets} />
        <ErrorMessage error={summary.error ?? sources.error} />
        {latest && (
          <p className="kpis">
            <span>
              <strong>{percentOf(String(latest.reconciledCount), String(latest.count - latest.excludedCount)) ?? '—'}%</strong> reconciled in{' '}
              {formatCalendarMonth(latest.month)} by count
            </span>
            <span>
              <strong>{percentOf(latest.reconciledAmount, latest.amount) ?? '—'}%</strong> by amount
            </span>
            <span>
              <strong>
                {formatAmount(
                  sum((summary.data?.openByAge ?? []).map((bucket) => bucket.amount)),
                  datasets.find((dataset) => dataset.id === datasetId)?.currency,
                )}
              </strong>{' '}
              net open in {transactionsInWords((summary.data?.openByAge ?? []).reduce((total, bucket) => total + bucket.count, 0))}
            </span>
          </p>
        )}
      </section>
      <div className="charts">
        <section className="card" aria-label="Reconciled share by month">
          <h2>Reconciled share by month</h2>
          {shares.length === 0 ? (
            <p className="hint">No transactions yet.</p>
          ) : (
            <ResponsiveContainer width="100%" height={260}>
              <LineChart data={shares} margin={{ left: 0, right: 16, top: 8, bottom: 8 }}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="month" />
                <YAxis unit="%" domain={[0, 100]} />
                <Tooltip formatter={(value) => `${value}%`} />
                <Legend />
                <Line type="linear" dataKey="by count" stroke="#1d5fbf" strokeWidth={2} connectNulls={false} isAnimationActive={false} />
                <Line type="linear" dataKey="by amount" stroke="#147a3d" strokeWidth={2} connectNulls={false} isAnimationActive={false} />
              </LineChart>
            </ResponsiveContainer>
          )}
        </section>
        <section className="card" aria-label="Open amounts by age">
          <h2>Open amounts by age</h2>
          <ResponsiveContainer width="100%" height={260}>
            <BarChart data={ages} margin={{ left: 0, right: 16, top: 8, bottom: 8 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="age" interval={0} tick={<AgeTick />} height={56} />
              <YAxis />
              <Tooltip
                formatter={(_value, _name, item) =>
                  `${formatAmount((item.payload as { exact: string }).exact)} in ${formatCount((item.payload as { count: number }).count)} transactions`
                }
              />
              <Bar dataKey="amount" fill="#b42318" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
          <table>
            <caption className="visually-hidden">Open amounts by age</caption>
            <TableHead columns={['Age', '#Transactions', '#Open amount']} />
            <tbody>
              {ages.map((age) => (
                <tr key={age.age}>
                  <td>{age.age}</td>
                  <td className="number">{formatCount(age.count)}</td>
                  <td className="number">{formatAmount(age.exact)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <section className="card" aria-label="Rule hits">
          <h2>Matches made by each rule</h2>
          {hits.length === 0 ? (
            <p className="hint">No rule has matched transactions of this dataset yet.</p>
          ) : (
            <ResponsiveContainer width="100%" height={Math.max(120, hits.length * 40)}>
              <BarChart data={hits} layout="vertical" margin={{ left: 16, right: 16 }}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis type="number" allowDecimals={false} />
                <YAxis type="category" dataKey="rule" width={200} />
                <Tooltip />
                <Bar dataKey="matches" fill="#1d5fbf" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          )}
        </section>
      </div>
    </>
  );
}
