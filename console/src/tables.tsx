import { useEffect, useState, type ReactNode } from 'react';
import { nextPageUrl } from '../../clients/typescript/index.ts';
import { asConsoleError, type ConsoleError } from './session.ts';

/** Where a page starts: the first page has neither; the others are the `page` and `cursor` of the Link that named them. */
export interface PagePosition {
  page?: string;
  cursor?: string;
}

/**
 * The next page's position, read from `Link: <url>; rel="next"`. Only its `page` and `cursor` are taken and sent
 * through the typed client to our own origin: the Link carries the same filters (docs/merchant-api.md).
 */
export function nextPosition(response: Response): PagePosition | undefined {
  const link = nextPageUrl(response);
  if (!link) return undefined;
  const query = new URL(link, window.location.origin).searchParams;
  return { page: query.get('page') ?? undefined, cursor: query.get('cursor') ?? undefined };
}

/** One page of a list the API pages with Link: its rows and where the next page starts (none on the last). */
export interface LinkPage<Row> {
  rows: Row[];
  next: PagePosition | undefined;
}

/**
 * The pages of one filter: next follows the Link; previous goes back through the pages seen (the API links forward only).
 * `fetchPage` should keep its identity while the filter stays the same (useCallback), as each new one fetches again.
 */
export function useLinkPages<Row>(fetchPage: (position: PagePosition) => Promise<LinkPage<Row>>) {
  const [position, setPosition] = useState<PagePosition>({});
  const [earlier, setEarlier] = useState<PagePosition[]>([]);
  // Each answer remembers the position it is for: while the next one loads, the caller shows its progress line instead.
  const [page, setPage] = useState<LinkPage<Row> & { position: PagePosition }>();
  const [error, setError] = useState<{ position: PagePosition; error: ConsoleError }>();

  useEffect(() => {
    let current = true;
    fetchPage(position)
      .then((loaded) => {
        if (current) setPage({ position, ...loaded });
      })
      .catch((failure: unknown) => {
        if (current) setError({ position, error: asConsoleError(failure) });
      });
    return () => {
      current = false;
    };
  }, [fetchPage, position]);

  const shown = page?.position === position ? page : undefined;
  const next = shown?.next;
  return {
    pageNumber: earlier.length + 1,
    error: error?.position === position ? error.error : undefined,
    page: shown,
    previous:
      earlier.length === 0
        ? undefined
        : () => {
            setPosition(earlier.at(-1) ?? {});
            setEarlier(earlier.slice(0, -1));
          },
    next: next
      ? () => {
          setEarlier([...earlier, position]);
          setPosition(next);
        }
      : undefined,
  };
}

/** Previous and next buttons for Link pages; a button without a page to go to is disabled. */
export function LinkPager({ label, previous, next }: { label: string; previous: (() => void) | undefined; next: (() => void) | undefined }) {
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" disabled={!previous} onClick={() => previous?.()}>
        Previous page
      </button>
      <button type="button" disabled={!next} onClick={() => next?.()}>
        Next page
      </button>
    </nav>
  );
}

/** A table that scrolls sideways on a narrow screen (reachable by keyboard to do so), named by its caption. */
export function ScrollingTable({
  captionId,
  caption,
  className,
  children,
}: {
  captionId: string;
  caption: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-labelledby={captionId}>
      <table className={className}>
        <caption id={captionId}>{caption}</caption>
        {children}
      </table>
    </div>
  );
}

/** A table's head row: one column heading each, a figure's (`{ figure: label }`) right-aligned as its cells. */
export function ColumnHeadings({ columns }: { columns: readonly (string | { figure: string })[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) =>
          typeof column === 'string' ? (
            <th scope="col" key={column}>
              {column}
            </th>
          ) : (
            <th scope="col" key={column.figure} className="number">
              {column.figure}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}

/** A row of figures: its header cell and one figure per column, already formatted. */
export interface FiguresRow {
  key: string;
  header: ReactNode;
  figures: readonly ReactNode[];
}

interface FiguresTableProps {
  /** The id of what names the table: the caption's own id when there is one, else a heading's. */
  labelledBy: string;
  caption?: ReactNode;
  className?: string;
  /** The first column's heading (what each row is: a day, a location). */
  rowHeading: string;
  columns: readonly { key: string; label: ReactNode }[];
  rows: readonly FiguresRow[];
  total?: FiguresRow;
}

/** A table of figures (right-aligned numbers) that scrolls sideways on a narrow screen and can be reached by keyboard to do so. */
export function FiguresTable({ labelledBy, caption, className, rowHeading, columns, rows, total }: FiguresTableProps) {
  const cells = (row: FiguresRow) => (
    <tr key={row.key}>
      <th scope="row">{row.header}</th>
      {row.figures.map((figure, index) => (
        <td key={columns[index]?.key ?? index} className="number">
          {figure}
        </td>
      ))}
    </tr>
  );
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-labelledby={labelledBy}>
      <table className={className}>
        {caption ? <caption id={labelledBy}>{caption}</caption> : null}
        <thead>
          <tr>
            <th scope="col">{rowHeading}</th>
            {columns.map((column) => (
              <th scope="col" key={column.key} className="number">
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{rows.map(cells)}</tbody>
        {total ? <tfoot>{cells(total)}</tfoot> : null}
      </table>
    </div>
  );
}
