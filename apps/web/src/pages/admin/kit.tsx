/**
 * The console pages' shared controls: an action that toasts and reloads, a dialog's OK, small buttons, the
 * filter bar, the table foot with its pager, the actions column, a confirmation that runs an action, and the
 * paged search every list page makes, and the list page they make up. One place, so every page behaves and looks the same.
 */
import { type ReactNode, useState } from 'react';
import { ActionDialog, Confirm } from '../../components/Modal.tsx';
import { Pager } from '../../components/Pager.tsx';
import { type AdminKey, ta } from '../../i18n/admin.ts';
import { useBusy } from '../../lib/busy.ts';
import { toast } from '../../lib/messages.ts';
import {
  AdminPage,
  type Column,
  ExportButton,
  Field,
  idOf,
  type RowKey,
  Table,
  useLoad,
} from './Console.tsx';

/** Runs an action: the API client has shown any error; on success a toast, then `after` (a reload). */
export async function act(
  fn: () => Promise<unknown>,
  after?: () => unknown,
  done: AdminKey = 'admin.done',
): Promise<void> {
  try {
    await fn();
    toast.success(ta(done));
    await after?.();
  } catch {
    /* shown by the client */
  }
}

/** A dialog's OK: busy while `fn` runs; on success a toast (unless `done` is null), close, then `onDone`. */
export function useOk(
  fn: () => Promise<unknown>,
  onClose: () => void,
  onDone: () => unknown,
  done: AdminKey | null = 'admin.done',
): [boolean, () => Promise<void>] {
  const [busy, whileBusy] = useBusy();
  const ok = async () => {
    await whileBusy(async () => {
      await fn();
      if (done) toast.success(ta(done));
      onClose();
      onDone();
    });
  };
  return [busy, ok];
}

/** A console form dialog: title, the fields, cancel and OK (disabled while `busy`). */
export function FormDialog({
  okText,
  width = 460,
  ...dialog
}: {
  title: string;
  onClose: () => void;
  onOk: () => void;
  busy?: boolean;
  okText?: string;
  width?: number;
  children: ReactNode;
}) {
  return <ActionDialog {...dialog} width={width} okText={okText ?? ta('admin.save')} />;
}

/** A small button of a table row or card head. */
export function Btn({
  label,
  onClick,
  action,
  testId,
  danger,
  primary,
  on,
}: {
  label: ReactNode;
  onClick: () => unknown;
  action?: string;
  testId?: string;
  danger?: boolean;
  primary?: boolean;
  on?: boolean;
}) {
  const cls = `btn btn-sm${primary ? ' btn-primary' : ''}${danger ? ' btn-danger' : ''}${on ? ' on' : ''}`;
  return (
    <button
      type="button"
      className={cls}
      data-action={action}
      data-testid={testId}
      onClick={() => void onClick()}
    >
      {label}
    </button>
  );
}

/** A pill of a table cell: green (`ok`) or red. */
export function OkPill({ ok, children }: { ok: boolean; children: ReactNode }) {
  return <span className={`admin-pill ${ok ? 'ok' : 'danger'}`}>{children}</span>;
}

/** The edit and delete buttons of a row (delete left out when `onDelete` is). */
export function EditDelete({ onEdit, onDelete }: { onEdit: () => void; onDelete?: () => void }) {
  return (
    <span className="admin-actions">
      <Btn label={ta('admin.edit')} onClick={onEdit} />
      {onDelete && <Btn label={ta('admin.delete')} danger onClick={onDelete} />}
    </span>
  );
}

/** The actions column, only for an account that may write. */
export function actionsColumn<T>(
  canWrite: boolean,
  render: (row: T) => ReactNode,
  width?: number,
): Column<T>[] {
  return canWrite ? [{ key: 'actions', title: ta('admin.actions'), csv: () => null, render, width }] : [];
}

/** A filter (or add) bar: its fields, the submit button, then an export button at the far end. */
export function Filters({
  onSubmit,
  children,
  submit = ta('admin.search'),
  submitTestId,
  danger,
  end,
}: {
  onSubmit: () => void;
  children: ReactNode;
  submit?: string;
  submitTestId?: string;
  danger?: boolean;
  end?: ReactNode;
}) {
  return (
    <form
      className="admin-filters"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <button
        type="submit"
        className={`btn ${danger ? 'btn-danger' : 'btn-primary'} btn-sm`}
        data-testid={submitTestId}
      >
        {submit}
      </button>
      {end && <span className="admin-grow" />}
      {end}
    </form>
  );
}

/** A checkbox with its label, bound to a boolean state (a filter bar's "only …"). */
export function Check({ value, set, label }: { value: boolean; set: (v: boolean) => void; label: string }) {
  return (
    <label className="admin-check">
      <input type="checkbox" checked={value} onChange={(e) => set(e.target.checked)} />
      {label}
    </label>
  );
}

/** A text input bound to a string state. */
export function TextInput({
  value,
  set,
  placeholder,
  testId,
  wide,
  type,
  maxLength,
}: {
  value: string;
  set: (v: string) => void;
  placeholder?: string;
  testId?: string;
  wide?: boolean;
  type?: string;
  maxLength?: number;
}) {
  return (
    <input
      className={wide ? 'input admin-wide' : 'input'}
      type={type}
      placeholder={placeholder}
      maxLength={maxLength}
      value={value}
      data-testid={testId}
      onChange={(e) => set(e.target.value)}
    />
  );
}

/** A select of labelled options; `all` adds the empty option first ("everything"; `true`: "<label>: All"). */
export function Choice<V extends string>({
  value,
  set,
  label,
  options,
  all,
}: {
  value: V;
  set: (v: V) => void;
  label: string;
  options: readonly (readonly [V, string])[];
  all?: string | true;
}) {
  return (
    <select className="input" value={value} aria-label={label} onChange={(e) => set(e.target.value as V)}>
      {all !== undefined && <option value="">{all === true ? allOf(label) : all}</option>}
      {options.map(([v, text]) => (
        <option key={v} value={v}>
          {text}
        </option>
      ))}
    </select>
  );
}

/** "<label>: All", the empty option of a filter select. */
export const allOf = (label: string): string => `${label}: ${ta('admin.all')}`;

export type Level = 'free' | 'monthly' | 'yearly';
export const LEVELS = ['free', 'monthly', 'yearly'] as const;
export const levelOptions = (): [Level, string][] => LEVELS.map((l) => [l, ta(`level.${l}` as AdminKey)]);

/** The plan and its days of a plan dialog (days only for a paid plan). */
export function LevelFields({
  level,
  setLevel,
  days,
  setDays,
}: {
  level: Level;
  setLevel: (l: Level) => void;
  days: string;
  setDays: (d: string) => void;
}) {
  return (
    <>
      <Field label="user.level">
        <Choice value={level} set={setLevel} label={ta('user.level')} options={levelOptions()} />
      </Field>
      {level !== 'free' && (
        <Field label="user.days">
          <input
            className="input"
            type="number"
            min={1}
            max={3650}
            value={days}
            onChange={(e) => setDays(e.target.value)}
          />
        </Field>
      )}
    </>
  );
}

/** Days of a paid plan: a whole number from 1 to 3650. */
export const validDays = (level: Level, d: number): boolean =>
  level === 'free' || (Number.isInteger(d) && d >= 1 && d <= 3650);

/** Under a paged table: the total (or `children`) and the pager. */
export function Foot({
  total,
  page,
  size,
  go,
  children,
}: {
  total: number;
  page: number;
  size: number;
  go: (page: number) => void;
  children?: ReactNode;
}) {
  return (
    <div className="admin-foot">
      {children ?? <span className="admin-muted">{ta('admin.total', { n: total })}</span>}
      <Pager page={page} pages={Math.ceil(total / size)} go={go} />
    </div>
  );
}

/** A confirmation of an action on `item` (open while it is set); OK closes it, runs `run` and then `after`. */
export function ConfirmAct<T>({
  item,
  text,
  close,
  run,
  after,
  title = ta('admin.delete'),
  okText,
  danger = true,
}: {
  item: T | null;
  okText?: string;
  text: (item: T) => ReactNode;
  close: () => void;
  run: (item: T) => Promise<unknown>;
  after?: () => unknown;
  title?: string;
  danger?: boolean;
}) {
  return (
    <Confirm
      open={item !== null}
      danger={danger}
      title={title}
      okText={okText}
      text={item === null ? '' : text(item)}
      onCancel={close}
      onOk={() => {
        const x = item as T;
        close();
        void act(() => run(x), after);
      }}
    />
  );
}

/** Rows a page of the console's lists. */
export const PAGE_SIZE = 15;

/** The request body of a search: page and size (PAGE_SIZE unless given), and only the filters that are set. */
export function searchBody(
  page: number,
  filters: Record<string, unknown>,
  size = PAGE_SIZE,
): Record<string, unknown> {
  const set = Object.entries(filters).filter(
    ([, v]) => v !== '' && v !== false && v !== undefined && v !== null,
  );
  return { page, size, ...Object.fromEntries(set) };
}

/** A paged search: the page, the applied filters (applying goes back to page 1) and what `load` answered. */
export function usePaged<F, R>(initial: F, load: (page: number, filters: F) => Promise<R>) {
  const [page, setPage] = useState(1);
  const [applied, setApplied] = useState(initial);
  const [data, reload, busy] = useLoad(() => load(page, applied), [page, applied]);
  const apply = (f: F) => {
    setPage(1);
    setApplied(f);
  };
  return { page, setPage, applied, apply, data, reload, busy };
}

/**
 * A paged search behind a filter bar: the filters being edited (`field(k)` binds one to its input: value and
 * setter) and `search`, which applies them with their text trimmed.
 */
export function useFiltered<F extends Record<string, unknown>, R>(
  initial: F,
  load: (page: number, filters: F) => Promise<R>,
) {
  const paged = usePaged(initial, load);
  const [draft, setDraft] = useState(initial);
  const field = <K extends keyof F>(k: K) => ({
    value: draft[k],
    set: (v: F[K]) => setDraft((d) => ({ ...d, [k]: v })),
  });
  const search = () =>
    paged.apply(
      Object.fromEntries(
        Object.entries(draft).map(([k, v]) => [k, typeof v === 'string' ? v.trim() : v]),
      ) as F,
    );
  return { ...paged, field, search };
}

/** A page of a list as the console's search endpoints answer. */
export interface PageOf<T> {
  list: T[];
  total: number;
}

/** A page of rows and its foot: the table of `paged.data`, then the total and the pager. */
export function PagedTable<T>({
  paged,
  size = PAGE_SIZE,
  columns,
  rowKey = idOf,
  testId,
  foot,
}: {
  paged: { data: PageOf<T> | null; busy: boolean; page: number; setPage: (p: number) => void };
  /** Rows a page (PAGE_SIZE unless the search asks for another). */
  size?: number;
  columns: Column<T>[];
  testId: string;
  foot?: ReactNode;
} & RowKey<T>) {
  return (
    <>
      <Table
        columns={columns}
        rows={paged.data?.list ?? []}
        rowKey={rowKey}
        loading={paged.busy}
        testId={testId}
      />
      <Foot total={paged.data?.total ?? 0} page={paged.page} size={size} go={paged.setPage}>
        {foot}
      </Foot>
    </>
  );
}

/** The picture column of a list (an empty frame when the row has none); `tall` for portrait pictures. */
export function thumbColumn<T>(src: (row: T) => string | null, width: number, tall = false): Column<T> {
  const cls = tall ? 'admin-thumb admin-thumb-tall' : 'admin-thumb';
  return {
    key: 'thumb',
    title: '',
    width,
    csv: () => null,
    render: (row) => {
      const url = src(row);
      return url ? <img className={cls} src={url} alt="" /> : <span className={cls} />;
    },
  };
}

/**
 * A console list page: the filter bar (its fields, the search button, the CSV export of the shown rows at the far
 * end), the paged table with the actions column (for an account that may write, or for every account with
 * `actionsForAll`), then the page's dialogs.
 */
export function ListPage<T>({
  path,
  tools,
  paged,
  columns,
  actions,
  actionsForAll,
  csv,
  testId,
  onSearch,
  submitTestId,
  filters,
  size,
  foot,
  children,
}: {
  path: string;
  tools?: ReactNode;
  paged: { data: PageOf<T> | null; busy: boolean; page: number; setPage: (p: number) => void };
  /** The columns shown and exported. */
  columns: Column<T>[];
  actions?: (row: T, canWrite: boolean) => ReactNode;
  actionsForAll?: boolean;
  /** The export's file name. */
  csv: string;
  testId: string;
  onSearch: () => void;
  submitTestId?: string;
  filters: ReactNode;
  size?: number;
  foot?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <AdminPage path={path} tools={tools}>
      {(canWrite) => (
        <>
          <Filters
            onSubmit={onSearch}
            submitTestId={submitTestId}
            end={<ExportButton name={csv} columns={columns} rows={paged.data?.list ?? []} />}
          >
            {filters}
          </Filters>
          <PagedTable
            paged={paged}
            size={size}
            testId={testId}
            columns={
              actions
                ? [
                    ...columns,
                    ...actionsColumn(canWrite || actionsForAll === true, (r: T) => actions(r, canWrite)),
                  ]
                : columns
            }
            foot={foot}
          />
          {children}
        </>
      )}
    </AdminPage>
  );
}
