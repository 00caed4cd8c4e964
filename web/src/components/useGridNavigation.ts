import { useLayoutEffect, useRef, useState, type FocusEvent, type KeyboardEvent, type RefObject } from 'react';
import type { WindowRow } from './useRowWindow.ts';

/**
 * The keyboard of a virtualized grid, after the WAI-ARIA grid pattern: the grid is one tab stop
 * (a roving tabindex), Up and Down move a row, Page Up and Page Down a screen of rows, Home and End
 * to the first and the last row, Left and Right from the row into its cells and back, Enter opens
 * the row. A move scrolls the row into view, and the table then reads the rows it does not have.
 *
 * Why not React Aria's grid (its `useGrid` and `useTable` hooks, or its `Table` and `GridList`):
 * they move the focus through a collection that holds every row as an item, and their
 * virtualizer places each row at its own height down a scroll space as tall as all the rows. The
 * explorer has neither. It holds only the pages of rows near the view, as a million rows cannot be
 * a collection, and past about 400,000 rows its scroll space is scaled (see useRowWindow.ts), so
 * that a row's place on the screen is not its index times its height. The pattern is therefore
 * implemented here, on the row window's own numbers.
 */

/** A row's own place in a position: the focus is on the row rather than on one of its cells. */
export const WHOLE_ROW = -1;

export interface GridPosition {
  row: number;
  /** A cell's index in the row, or WHOLE_ROW. */
  column: number;
}

const START: GridPosition = { row: 0, column: WHOLE_ROW };

function clamp(value: number, lowest: number, highest: number): number {
  return Math.min(Math.max(value, lowest), highest);
}

export function useGridNavigation({
  rowGroup,
  rowCount,
  columnCount,
  rowHeightPixels,
  scrollRowIntoView,
  onOpen,
}: {
  /** The element that scrolls the rows; the rows carry data-row-index, their cells data-column-index. */
  rowGroup: RefObject<HTMLElement | null>;
  rowCount: number;
  columnCount: number;
  rowHeightPixels: number;
  scrollRowIntoView: (row: number) => void;
  onOpen: (row: number) => void;
}) {
  const [chosen, setChosen] = useState<GridPosition>(START);
  // A shorter table (other filters) keeps the active row inside it.
  const active: GridPosition = { row: clamp(chosen.row, 0, Math.max(0, rowCount - 1)), column: clamp(chosen.column, WHOLE_ROW, columnCount - 1) };
  // Set by a key that moves, so that the render that draws the new place gives it the focus;
  // a render for any other reason (a page of rows arriving) leaves the focus where it is.
  const focusPending = useRef(false);

  useLayoutEffect(() => {
    if (!focusPending.current) return;
    const row = rowGroup.current?.querySelector<HTMLElement>(`[data-row-index="${active.row}"]`);
    if (row === null || row === undefined) return;
    focusPending.current = false;
    // A row whose data is still on its way has no cells yet: the row itself takes the focus.
    const cell = active.column === WHOLE_ROW ? null : row.querySelector<HTMLElement>(`[data-column-index="${active.column}"]`);
    (cell ?? row).focus();
  });

  const moveTo = (row: number, column: number) => {
    if (rowCount === 0) return;
    const next = { row: clamp(row, 0, rowCount - 1), column: clamp(column, WHOLE_ROW, columnCount - 1) };
    focusPending.current = true;
    setChosen(next);
    scrollRowIntoView(next.row);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.altKey || event.shiftKey) return;
    const { row, column } = active;
    // One row less than a screen, so that the row moved from stays in view as a landmark.
    const pageRows = Math.max(1, Math.floor((rowGroup.current?.clientHeight ?? 0) / rowHeightPixels) - 1);
    // In a cell, Home and End go to the row's first and last cells, and with Ctrl (or Cmd) to the
    // first and last rows, as in a spreadsheet; on a row they go to the first and last rows.
    const alongRow = column !== WHOLE_ROW && !event.ctrlKey && !event.metaKey;
    if (event.key === 'ArrowDown') moveTo(row + 1, column);
    else if (event.key === 'ArrowUp') moveTo(row - 1, column);
    else if (event.key === 'PageDown') moveTo(row + pageRows, column);
    else if (event.key === 'PageUp') moveTo(row - pageRows, column);
    else if (event.key === 'ArrowRight') moveTo(row, column + 1);
    else if (event.key === 'ArrowLeft') moveTo(row, column - 1);
    else if (event.key === 'Home') moveTo(alongRow ? row : 0, alongRow ? 0 : column);
    else if (event.key === 'End') moveTo(alongRow ? row : rowCount - 1, alongRow ? columnCount - 1 : column);
    else if (event.key === 'Enter') onOpen(row);
    else return;
    event.preventDefault();
  };

  /** A click or a Tab into the grid makes the row (or cell) it lands on the active one. */
  const onFocus = (event: FocusEvent<HTMLElement>) => {
    const target = event.target;
    const row = target.closest<HTMLElement>('[data-row-index]');
    if (row === null) return;
    const cell = target.closest<HTMLElement>('[data-column-index]');
    const landed = { row: Number(row.dataset.rowIndex), column: cell === null ? WHOLE_ROW : Number(cell.dataset.columnIndex) };
    if (landed.row !== chosen.row || landed.column !== chosen.column) setChosen(landed);
    // The active row is kept in the page while it is scrolled away (see `withActiveRow`), above
    // the scroll space where it cannot be seen: a Tab back into the grid brings it into view.
    scrollRowIntoView(landed.row);
  };

  return {
    active,
    onKeyDown,
    onFocus,
    /** Back to the first row, for a table of other rows. */
    reset: () => setChosen(START),
    /** The grid's one tab stop is the active row or cell; the other rows take the focus on a click. */
    rowTabIndex: (row: number) => (row === active.row && active.column === WHOLE_ROW ? 0 : -1),
    /** Only the active cell can take the focus, so that a click on a cell focuses its row. */
    cellTabIndex: (row: number, column: number) => (row === active.row && column === active.column ? 0 : undefined),
    /**
     * The rows to draw: those of the window, and the active row when it is scrolled out of it,
     * so that the focus it may have is not lost. It is drawn above the scroll space, out of sight.
     */
    withActiveRow: (rows: WindowRow[]): WindowRow[] => {
      if (rowCount === 0 || rows.some((item) => item.index === active.row)) return rows;
      const kept = { index: active.row, topPixels: -2 * rowHeightPixels };
      // Before or after the window, in the order of the rows, so that the element is not moved
      // (a moved element loses the focus).
      return rows.length > 0 && active.row < rows[0]!.index ? [kept, ...rows] : [...rows, kept];
    },
  };
}
