import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Text, Tooltip, XAxis, YAxis } from 'recharts';
import { DatasetSelect, useDatasets, useSources } from '../components/DatasetSelect.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { percentOf, sum, wholeUnits } from '../decimal.ts';
import { formatAmount, formatCalendarMonth, formatCount } from '../format.ts';
import { useSession } from '../session.tsx';

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

export function DashboardPage() {
  const { recon } = useSession();
  const sources = useSources();
  const datasets = useDatasets();
  const [chosen, setChosen] = useState('');
  const datasetId = chosen || datasets[0]?.id || '';
  const summary = useQuery({ queryKey: ['summary', datasetId], enabled: datasetId !== '', queryFn: () => recon.datasets.summary(datasetId) });

  const shares = (summary.data?.months ?? []).map((month) => ({
    month: formatCalendarMonth(month.month),
    'by count': percentOf(String(month.reconciledCount), String(month.count - month.excludedCount)),
    'by amount': percentOf(month.reconciledAmount, month.amount),
  }));
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
      <section className="card">
        <h1>Dashboard</h1>
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
              <strong>{formatAmount(sum((summary.data?.openByAge ?? []).map((bucket) => bucket.amount)))}</strong> open in{' '}
              {formatCount((summary.data?.openByAge ?? []).reduce((total, bucket) => total + bucket.count, 0))} transactions
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
                <Line type="monotone" dataKey="by count" stroke="#1d5fbf" strokeWidth={2} isAnimationActive={false} />
                <Line type="monotone" dataKey="by amount" stroke="#147a3d" strokeWidth={2} isAnimationActive={false} />
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
