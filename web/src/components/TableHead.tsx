/**
 * The header row of a table: a column header per label ("#" before a label right-aligns it, for
 * amounts and counts), and an unlabelled column for the row's buttons when `actions` is set.
 */
export function TableHead({ columns, actions = false }: { columns: string[]; actions?: boolean }) {
  return (
    <thead>
      <tr>
        {columns.map((column) =>
          column.startsWith('#') ? (
            <th scope="col" className="number" key={column}>
              {column.slice(1)}
            </th>
          ) : (
            <th scope="col" key={column}>
              {column}
            </th>
          ),
        )}
        {actions && (
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        )}
      </tr>
    </thead>
  );
}
