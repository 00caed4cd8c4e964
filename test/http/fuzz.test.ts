import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { documentedOperations, FUZZ_TARGETS, judge, send, startFuzzContext, type FuzzContext } from '../../support/fuzz/api-fuzz.ts';
import { storeKinds } from '../../support/harness.ts';

/**
 * Generated requests against the real server, seeded so that a failure can be replayed
 * (FUZZ_SEED, FUZZ_RUNS per hand-written target and store; a target derived from the API
 * document gets its share of that). `npm run fuzz` runs the same properties for hundreds of
 * thousands of requests.
 */
const seed = Number(process.env.FUZZ_SEED ?? 20_261_123);
const numRuns = Number(process.env.FUZZ_RUNS ?? 250);

describe('fuzzed operations', () => {
  it('cover every operation of docs/openapi.json, each once', () => {
    const fuzzed = FUZZ_TARGETS.flatMap((target) => target.operations).sort();
    assert.deepEqual(
      fuzzed,
      documentedOperations()
        .map((operation) => operation.operationId)
        .sort(),
    );
  });
});

for (const kind of storeKinds()) {
  describe(`fuzzed requests (${kind})`, () => {
    let context: FuzzContext;
    before(async () => {
      context = await startFuzzContext(kind);
    });
    after(async () => context.server.close());

    for (const target of FUZZ_TARGETS) {
      it(`${target.name}: never a 5xx, errors in their format, no echo, no 2xx for a broken rule`, async () => {
        const result = await fc.check(
          fc.asyncProperty(target.cases(context), async (request) => {
            const problem = judge(target, request, await send(context, request));
            if (problem !== null) throw new Error(`${request.method} ${request.path.slice(0, 120)}: ${problem}`);
          }),
          { seed, numRuns: Math.max(1, Math.round(numRuns * (target.share ?? 1))), endOnFailure: true },
        );
        if (result.failed) {
          // The request itself can be megabytes long; the failure and a short form of it are enough.
          const request = JSON.stringify(result.counterexample?.[0] ?? null).slice(0, 600);
          throw new Error(
            `${String((result.errorInstance as Error | undefined)?.message ?? result.errorInstance)}\nrequest: ${request}\nreplay with FUZZ_SEED=${result.seed}`,
          );
        }
      });
    }
  });
}
