/**
 * The administrator console (issue 21) under /capture/index/*: shared pieces (page frame, table, toolbar, CSV
 * export, my pages from the server's role data) and the route list. The server enforces every permission; the
 * sidebar only shows the pages the account's roles open.
 */
import type { MyPage } from '@mocap/contracts';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { type AdminKey, adminPageTitle, ta } from '../../i18n/admin.ts';
import { api } from '../../lib/api.ts';
import { getLang } from '../../lib/i18n.ts';
import { useSession } from '../../lib/session.tsx';
import '../../styles/admin.css';

let pagesCache: { userId: string; p: Promise<MyPage[]> } | null = null;

/** The console pages my roles open (cached per account for the page load). */
export function useMyPages(): MyPage[] | null {
  const { user } = useSession();
  const [pages, setPages] = useState<MyPage[] | null>(null);
  useEffect(() => {
    if (!user || user.company) {
      setPages([]);
      return;
    }
    const id = String(user.id);
    if (pagesCache?.userId !== id)
      pagesCache = { userId: id, p: api.get<MyPage[]>('/role/myPages', { silent: true }).catch(() => []) };
    let live = true;
    void pagesCache.p.then((p) => live && setPages(p));
    return () => {
      live = false;
    };
  }, [user]);
  return pages;
}

/** Forget the cached pages (after roles change). */
export const forgetMyPages = () => {
  pagesCache = null;
};

export function usePageAccess(path: string): 'read' | 'write' | null | undefined {
  const pages = useMyPages();
  if (pages === null) return undefined;
  return pages.find((p) => p.path === path)?.access ?? null;
}

/** Frame of a console page: title, read-only badge, toolbar; refuses pages the roles do not open. */
export function AdminPage({
  path,
  tools,
  children,
}: {
  path: string;
  tools?: ReactNode;
  children: (canWrite: boolean) => ReactNode;
}) {
  const access = usePageAccess(path);
  if (access === undefined)
    return (
      <div className="page-loading">
        <div className="spinner" />
      </div>
    );
  if (access === null) return <Navigate to="/404" replace />;
  return (
    <div className="admin-page" data-admin-page={path}>
      <div className="admin-head">
        <h1>{adminPageTitle(path)}</h1>
        {access === 'read' && <span className="admin-badge">{ta('admin.readOnly')}</span>}
        <div className="admin-tools">{tools}</div>
      </div>
      {children(access === 'write')}
    </div>
  );
}

export interface Column<T> {
  key: string;
  title: ReactNode;
  render: (row: T) => ReactNode;
  /** Plain value for CSV export (default: the rendered text when it is a string or number). */
  csv?: (row: T) => string | number | null;
  width?: number | string;
  align?: 'right' | 'center';
}

/** How a table's rows are told apart: by `rowKey`, or by their `id` (rows without one name their `rowKey`). */
export type RowKey<T> = { rowKey?: (row: T) => string | number };

/** A row's id: the key of a row that has one. */
export const idOf = <T,>(row: T): string | number => (row as { id: string | number }).id;

export function Table<T>({
  columns,
  rows,
  rowKey = idOf,
  loading,
  onRowClick,
  testId,
}: {
  columns: Column<T>[];
  rows: T[];
  loading?: boolean;
  onRowClick?: (row: T) => void;
  testId?: string;
} & RowKey<T>) {
  return (
    <div className="admin-table-wrap">
      <table className="admin-table" data-testid={testId}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} style={{ width: c.width, textAlign: c.align }}>
                {c.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr
              key={rowKey(r)}
              data-row={rowKey(r)}
              className={onRowClick ? 'clickable' : undefined}
              onClick={onRowClick ? () => onRowClick(r) : undefined}
            >
              {columns.map((c) => (
                <td key={c.key} style={{ textAlign: c.align }}>
                  {c.render(r)}
                </td>
              ))}
            </tr>
          ))}
          {rows.length === 0 && (
            <tr>
              <td colSpan={columns.length} className="admin-empty">
                {loading ? ta('admin.loading') : ta('admin.none')}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** CSV of the rows as the columns show them (UTF-8 with BOM so spreadsheet programs read Chinese). */
export function toCsv<T>(columns: Column<T>[], rows: T[]): string {
  const cell = (v: unknown) => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const head = columns.map((c) => cell(typeof c.title === 'string' ? c.title : c.key)).join(',');
  const body = rows.map((r) =>
    columns
      .map((c) => {
        if (c.csv) return cell(c.csv(r));
        const v = c.render(r);
        return cell(typeof v === 'string' || typeof v === 'number' ? v : '');
      })
      .join(','),
  );
  return `\uFEFF${[head, ...body].join('\r\n')}\r\n`;
}

export function downloadCsv(name: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function ExportButton<T>({ name, columns, rows }: { name: string; columns: Column<T>[]; rows: T[] }) {
  return (
    <button
      type="button"
      className="btn btn-sm"
      data-testid="export-csv"
      disabled={rows.length === 0}
      onClick={() => downloadCsv(name, toCsv(columns, rows))}
    >
      {ta('admin.exportCsv')}
    </button>
  );
}

/** Loads with `load()` again whenever `deps` change (compared as JSON); errors are shown by the API client. */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: unknown[],
): [T | null, () => Promise<void>, boolean] {
  const [data, setData] = useState<T | null>(null);
  const [busy, setBusy] = useState(true);
  const loader = useRef(load);
  loader.current = load;
  const key = JSON.stringify(deps);
  const run = useCallback(async () => {
    setBusy(true);
    try {
      setData(await loader.current());
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the caller's dependencies.
  useEffect(() => {
    void run();
  }, [run, key]);
  return [data, run, busy];
}

export const fmtTime = (ms: number | null | undefined): string => {
  if (!ms) return '—';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
};

export const fmtDate = (ms: number | null | undefined): string => (ms ? fmtTime(ms).slice(0, 10) : '—');

export const yuan = (fen: number): string =>
  (fen / 100).toLocaleString(getLang() === 'zh' ? 'zh-CN' : 'en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });

export function Switch({
  checked,
  onChange,
  disabled,
  label,
  testId,
}: {
  checked: boolean;
  onChange: (v: boolean) => void;
  disabled?: boolean;
  label?: ReactNode;
  testId?: string;
}) {
  return (
    <label className={`admin-switch${disabled ? ' disabled' : ''}`}>
      <input
        type="checkbox"
        checked={checked}
        disabled={disabled}
        data-testid={testId}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span className="admin-switch-track" />
      {label && <span>{label}</span>}
    </label>
  );
}

/** Field of a console form. */
export function Field({
  label,
  children,
  hint,
}: {
  label: AdminKey | string;
  children: ReactNode;
  hint?: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is the child passed in (an input, select or textarea).
    <label className="admin-field">
      <span className="admin-field-label">{label.includes('.') ? ta(label as AdminKey) : label}</span>
      {children}
      {hint && <span className="admin-field-hint">{hint}</span>}
    </label>
  );
}

/** The console page of the current path (for the top bar's title). */
export function useAdminTitle(): string | null {
  const { pathname } = useLocation();
  const m = /^\/index\/(\w+)\/?$/.exec(pathname);
  return m ? adminPageTitle(m[1]!) : null;
}
