import { useCallback, useEffect, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';

/**
 * The tallest scroll space a table makes. Browsers lay out no element taller than a limit
 * (Chromium about 33.5 million pixels, Firefox about 17.9 million): a million rows of 36 pixels
 * would be cut off there, and their end could not be scrolled to. Below this height a pixel
 * scrolled is a pixel of rows; above it the scroll space is this tall and maps onto all the rows.
 */
export const MAXIMUM_SCROLL_HEIGHT_PIXELS = 15_000_000;

export interface WindowRow {
  index: number;
  /** Where the row goes in the scroll space. */
  topPixels: number;
}

export interface RowWindow {
  /** The height of the element that gives the scroll space its size. */
  scrollHeightPixels: number;
  /** The rows in view and a few around them, first to last. */
  rows: WindowRow[];
  firstIndex: number;
  lastIndex: number;
  /**
   * Scrolls the least distance that shows a row whole (none when it is in view already), in the
   * scaled scroll space as in the plain one: how the keyboard brings a row it moves to into view.
   */
  scrollRowIntoView: (index: number) => void;
}

/**
 * The content's scale in the scroll space: how many pixels of rows one pixel scrolled moves. It
 * is 1 until the rows are taller than the scroll space may be; above that, the whole scroll range
 * maps onto the whole range of the rows.
 */
function scaleOf(contentHeightPixels: number, scrollHeightPixels: number, viewHeightPixels: number): number {
  const scrollRangePixels = Math.max(0, scrollHeightPixels - viewHeightPixels);
  if (scrollHeightPixels === contentHeightPixels || scrollRangePixels === 0) return 1;
  return (contentHeightPixels - viewHeightPixels) / scrollRangePixels;
}

/**
 * The rows of a fixed-height table that are in view in a scrolling element: computed from the
 * scroll position alone, so its cost does not grow with the number of rows (a table of a million
 * rows costs what a table of a hundred does).
 *
 * When the rows would be taller than `maximumScrollHeightPixels`, the scroll space is that tall and
 * its position maps proportionally onto the rows: the top of the scroll space is the first row, its
 * end the last row, its middle the middle row. The rows are then placed relative to the scroll
 * position, as only the rows in view exist.
 */
export function useRowWindow(
  scroller: RefObject<HTMLElement | null>,
  {
    count,
    rowHeightPixels,
    overscanRows,
    maximumScrollHeightPixels = MAXIMUM_SCROLL_HEIGHT_PIXELS,
  }: { count: number; rowHeightPixels: number; overscanRows: number; maximumScrollHeightPixels?: number },
): RowWindow {
  const [view, setView] = useState({ scrollTopPixels: 0, heightPixels: 0 });
  const read = useCallback(() => {
    const element = scroller.current;
    if (element === null) return;
    setView((previous) =>
      previous.scrollTopPixels === element.scrollTop && previous.heightPixels === element.clientHeight
        ? previous
        : { scrollTopPixels: element.scrollTop, heightPixels: element.clientHeight },
    );
  }, [scroller]);
  useEffect(() => {
    const element = scroller.current;
    if (element === null) return;
    // The rows follow the scrolling in the same frame, so that a fast scroll shows no empty space.
    const onScroll = () => flushSync(read);
    read();
    element.addEventListener('scroll', onScroll, { passive: true });
    const observer = new ResizeObserver(read);
    observer.observe(element);
    return () => {
      element.removeEventListener('scroll', onScroll);
      observer.disconnect();
    };
  }, [scroller, read]);

  const contentHeightPixels = count * rowHeightPixels;
  const scrollHeightPixels = Math.min(contentHeightPixels, maximumScrollHeightPixels);
  const scrollRangePixels = Math.max(0, scrollHeightPixels - view.heightPixels);
  const scrollTopPixels = Math.min(Math.max(0, view.scrollTopPixels), scrollRangePixels);
  // How far into the rows the top of the view is: the scroll position itself, or scaled.
  const contentTopPixels = scrollTopPixels * scaleOf(contentHeightPixels, scrollHeightPixels, view.heightPixels);
  const shiftPixels = contentTopPixels - scrollTopPixels;
  const scrollRowIntoView = (index: number) => {
    const element = scroller.current;
    if (element === null) return;
    // Read from the element rather than from the last render: keys pressed faster than the
    // browser draws each move from where the previous one scrolled to.
    const viewHeightPixels = element.clientHeight;
    const scale = scaleOf(contentHeightPixels, scrollHeightPixels, viewHeightPixels);
    const viewTopPixels = element.scrollTop * scale;
    const rowTopPixels = index * rowHeightPixels;
    // Rounded towards the row, so that a scroll position in whole pixels never cuts it off.
    if (rowTopPixels < viewTopPixels) element.scrollTop = Math.floor(rowTopPixels / scale);
    else if (rowTopPixels + rowHeightPixels > viewTopPixels + viewHeightPixels)
      element.scrollTop = Math.ceil((rowTopPixels + rowHeightPixels - viewHeightPixels) / scale);
    else return;
    // The rows follow in the render of the move itself rather than at the scroll event: a row the
    // keyboard moves to is then drawn where it is on the screen when it takes the focus.
    read();
  };
  if (count === 0) return { scrollHeightPixels: 0, rows: [], firstIndex: 0, lastIndex: 0, scrollRowIntoView };
  const firstIndex = Math.max(0, Math.floor(contentTopPixels / rowHeightPixels) - overscanRows);
  const lastIndex = Math.min(count - 1, Math.ceil((contentTopPixels + view.heightPixels) / rowHeightPixels) - 1 + overscanRows);
  const rows: WindowRow[] = [];
  for (let index = firstIndex; index <= lastIndex; index += 1) rows.push({ index, topPixels: index * rowHeightPixels - shiftPixels });
  return { scrollHeightPixels, rows, firstIndex, lastIndex: Math.max(firstIndex, lastIndex), scrollRowIntoView };
}
