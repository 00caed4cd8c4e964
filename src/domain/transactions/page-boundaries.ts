import type { RowPosition } from '../../db/repositories/transaction-query.ts';

/**
 * Remembered page boundaries, so that paging by increasing `offset` stays cheap deep into a
 * dataset: after a page at offset O with n rows, the row at position O + n is known, and a
 * later request at offset X >= O + n starts right after that row (an index range scan) and
 * skips only X - (O + n) rows, instead of counting X rows from the start.
 *
 * A boundary is only valid while its dataset's revision is unchanged (every write that adds
 * rows or changes statuses bumps it). The page statement re-checks the revision itself, so this
 * cache is an optimization and never a source of truth: a stale boundary costs a plain OFFSET,
 * never a wrong page. It lives in process memory and is bounded in both dimensions; several
 * server processes each keep their own.
 */
export interface PageBoundary {
  /** Rows before the boundary row, that row included: the offset of the row after it. */
  offset: number;
  position: RowPosition;
  revision: number;
}

interface QueryBoundaries {
  revision: number;
  /** Sorted by offset. */
  boundaries: Array<{ offset: number; position: RowPosition; usedAt: number }>;
}

export class PageBoundaryCache {
  /** Insertion order is recency order: a hit moves the query to the end. */
  readonly #queries = new Map<string, QueryBoundaries>();
  #clock = 0;

  constructor(
    private readonly maximumQueries = 2000,
    private readonly maximumBoundariesPerQuery = 64,
  ) {}

  /** The nearest boundary at or before `offset` for the query, if one is remembered. */
  find(queryKey: string, offset: number): PageBoundary | undefined {
    const entry = this.#queries.get(queryKey);
    if (!entry) return undefined;
    this.#queries.delete(queryKey);
    this.#queries.set(queryKey, entry);
    const boundaries = entry.boundaries;
    let low = 0;
    let high = boundaries.length - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (boundaries[middle]!.offset <= offset) {
        found = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    if (found < 0) return undefined;
    const boundary = boundaries[found]!;
    boundary.usedAt = ++this.#clock;
    return { offset: boundary.offset, position: boundary.position, revision: entry.revision };
  }

  /** Remembers a boundary seen at `revision`; boundaries of an older revision are dropped. */
  remember(queryKey: string, revision: number, offset: number, position: RowPosition): void {
    let entry = this.#queries.get(queryKey);
    if (entry && revision < entry.revision) return;
    if (!entry || entry.revision !== revision) {
      entry = { revision, boundaries: [] };
    }
    this.#queries.delete(queryKey);
    this.#queries.set(queryKey, entry);
    if (this.#queries.size > this.maximumQueries) {
      const oldest = this.#queries.keys().next().value;
      if (oldest !== undefined) this.#queries.delete(oldest);
    }
    const boundaries = entry.boundaries;
    const usedAt = ++this.#clock;
    let index = boundaries.findIndex((boundary) => boundary.offset >= offset);
    if (index >= 0 && boundaries[index]!.offset === offset) {
      boundaries[index] = { offset, position, usedAt };
      return;
    }
    if (index < 0) index = boundaries.length;
    boundaries.splice(index, 0, { offset, position, usedAt });
    if (boundaries.length > this.maximumBoundariesPerQuery) {
      let leastRecent = 0;
      for (let candidate = 1; candidate < boundaries.length; candidate++) {
        if (boundaries[candidate]!.usedAt < boundaries[leastRecent]!.usedAt) leastRecent = candidate;
      }
      boundaries.splice(leastRecent, 1);
    }
  }

  /** Number of queries with remembered boundaries (for tests and diagnostics). */
  get size(): number {
    return this.#queries.size;
  }
}
