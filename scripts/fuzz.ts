// `npm run fuzz`: long runs of the generated requests of support/fuzz/api-fuzz.ts against the real
// server, on the embedded store and (with DATABASE_URL) on PostgreSQL. Prints the answers
// counted by status per operation and every property that failed; exits 1 on any failure.
//
// Every operation of docs/openapi.json is fuzzed (support/fuzz/api-fuzz.ts). Settings: FUZZ_BODIES
// per store (default 100000, spread over the operations by their targets' shares),
// FUZZ_SEED (default: the current time, printed so a run can be replayed), FUZZ_CONCURRENCY
// (default 8), FUZZ_LOG (a file that gets the servers' warnings and errors, to find the cause of
// a failure by its request id), FUZZ_ONLY (only the targets whose name contains it, e.g. "imports").
import { createWriteStream } from 'node:fs';
import fc from 'fast-check';
import { FUZZ_TARGETS, judge, requestsPerTarget, send, startFuzzContext, type FuzzRequest } from '../support/fuzz/api-fuzz.ts';
import { storeKinds } from '../support/harness.ts';

const bodiesPerStore = Number(process.env.FUZZ_BODIES ?? 100_000);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const concurrency = Number(process.env.FUZZ_CONCURRENCY ?? 8);
/** Cases generated at a time: enough to keep the connections busy, few enough to hold in memory. */
const BATCH = 500;

let failures = 0;
const perTarget = requestsPerTarget(bodiesPerStore);
const log = process.env.FUZZ_LOG ? createWriteStream(process.env.FUZZ_LOG) : undefined;
console.log(`fuzz: ${bodiesPerStore} requests per store over ${FUZZ_TARGETS.length} targets, seed ${seed}, ${concurrency} at a time`);
for (const kind of storeKinds()) {
  const context = await startFuzzContext(kind, { logStream: log });
  const started = Date.now();
  try {
    for (const target of FUZZ_TARGETS.filter((candidate) => candidate.name.includes(process.env.FUZZ_ONLY ?? ''))) {
      const counts = new Map<number, number>();
      const problems: string[] = [];
      const arbitrary = target.cases(context);
      const total = perTarget.get(target)!;
      for (let done = 0, batch = 0; done < total; batch++) {
        const requests: FuzzRequest[] = fc.sample(arbitrary, { numRuns: Math.min(BATCH, total - done), seed: seed + batch });
        let next = 0;
        await Promise.all(
          Array.from({ length: concurrency }, async () => {
            while (next < requests.length) {
              const request = requests[next++]!;
              const answer = await send(context, request);
              counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
              const problem = judge(target, request, answer);
              if (problem !== null && problems.length < 20) problems.push(`${request.method} ${request.path.slice(0, 100)}: ${problem.slice(0, 300)}`);
              if (problem !== null) failures += 1;
            }
          }),
        );
        done += requests.length;
      }
      const byStatus = [...counts.entries()]
        .sort(([left], [right]) => left - right)
        .map(([status, count]) => `${status}: ${count}`)
        .join(', ');
      const fiveHundreds = [...counts.entries()].filter(([status]) => status >= 500).reduce((sum, [, count]) => sum + count, 0);
      console.log(`${kind.padEnd(8)} ${target.name.padEnd(72)} ${String(total).padStart(7)} requests, ${fiveHundreds} >= 500 | ${byStatus}`);
      for (const problem of problems) console.log(`    FAILED ${problem}`);
    }
  } finally {
    await context.server.close();
  }
  console.log(`${kind}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
if (!process.env.DATABASE_URL) console.log('NOTE: DATABASE_URL is not set; only the embedded store was fuzzed.');
console.log(failures === 0 ? 'fuzz: every answer held every property' : `fuzz: ${failures} answers broke a property (seed ${seed})`);
process.exit(failures === 0 ? 0 : 1);
