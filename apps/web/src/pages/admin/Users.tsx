/** manageUser (search, filters, top up, flags, plan, days, roles, detail) and block (the blacklist). */
import { useState } from 'react';
import { Modal, ModalButtons } from '../../components/Modal.tsx';
import { Pager } from '../../components/Pager.tsx';
import { type AdminKey, roleTitle, ta } from '../../i18n/admin.ts';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/messages.ts';
import { useSession } from '../../lib/session.tsx';
import {
  AdminPage,
  type Column,
  ExportButton,
  Field,
  fmtDate,
  fmtTime,
  forgetMyPages,
  Table,
  useLoad,
  yuan,
} from './Console.tsx';

export interface AdminUser {
  id: number;
  email: string;
  username: string;
  type: number;
  roles: string[];
  surplus: number;
  cvCoin: number;
  level: 'free' | 'monthly' | 'yearly';
  vexpiredAt: number | null;
  testFlag: boolean;
  blackFlag: boolean;
  extensionStaff: boolean;
  beta: boolean;
  referralCount: number;
  uploadCount: number;
  lastLoginAt: number | null;
  createdAt: number;
  ip: string | null;
}

interface PageOf<T> {
  list: T[];
  total: number;
  page: number;
  size: number;
}

const SIZE = 15;
const CONSOLE_ROLES_HIDDEN = new Set(['user', 'company']);

function Flags({ u }: { u: AdminUser }) {
  const f: [boolean, AdminKey, string][] = [
    [u.blackFlag, 'user.flag.black', 'danger'],
    [u.testFlag, 'user.flag.test', ''],
    [u.beta, 'user.flag.beta', ''],
    [u.extensionStaff, 'user.flag.staff', 'accent'],
  ];
  return (
    <span className="admin-flags">
      {f
        .filter(([on]) => on)
        .map(([, k, cls]) => (
          <span key={k} className={`admin-pill ${cls}`}>
            {ta(k)}
          </span>
        ))}
      {u.roles
        .filter((r) => !CONSOLE_ROLES_HIDDEN.has(r))
        .map((r) => (
          <span key={r} className="admin-pill role">
            {r}
          </span>
        ))}
    </span>
  );
}

type Dialog =
  | { kind: 'topUp'; u: AdminUser }
  | { kind: 'level'; u: AdminUser }
  | { kind: 'days'; u: AdminUser }
  | { kind: 'roles'; u: AdminUser }
  | { kind: 'detail'; u: AdminUser }
  | { kind: 'black'; u: AdminUser };

export function ManageUserPage() {
  const { user: me } = useSession();
  const [keyword, setKeyword] = useState('');
  const [applied, setApplied] = useState<{ keyword: string; level: string; black: boolean }>({
    keyword: '',
    level: '',
    black: false,
  });
  const [level, setLevel] = useState('');
  const [black, setBlack] = useState(false);
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [data, reload, busy] = useLoad(
    () =>
      api.post<PageOf<AdminUser>>('/user/search', {
        page,
        size: SIZE,
        type: 1,
        ...(applied.keyword ? { keyword: applied.keyword } : {}),
        ...(applied.level ? { level: applied.level } : {}),
        ...(applied.black ? { blackFlag: true } : {}),
      }),
    [page, applied],
  );
  const [count] = useLoad(async () => {
    const midnight = new Date();
    midnight.setHours(0, 0, 0, 0);
    const [all, today] = await Promise.all([
      api.post<{ total: number }>('/user/countUser', { type: 1 }),
      api.post<{ total: number }>('/user/countUser', { type: 1, since: midnight.getTime() }),
    ]);
    return { all: all.total, today: today.total };
  }, []);

  const act = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
      toast.success(ta('admin.done'));
      await reload();
    } catch {
      /* shown */
    }
  };

  const columns: Column<AdminUser>[] = [
    { key: 'id', title: ta('user.id'), render: (u) => u.id, width: 60 },
    {
      key: 'email',
      title: ta('user.email'),
      render: (u) => (
        <button type="button" className="link-btn" onClick={() => setDialog({ kind: 'detail', u })}>
          {u.email}
        </button>
      ),
      csv: (u) => u.email,
    },
    { key: 'name', title: ta('user.name'), render: (u) => u.username },
    { key: 'level', title: ta('user.level'), render: (u) => ta(`level.${u.level}` as AdminKey) },
    {
      key: 'exp',
      title: ta('user.expires'),
      render: (u) => (u.level === 'free' ? '—' : fmtDate(u.vexpiredAt)),
    },
    { key: 'coins', title: ta('user.coins'), render: (u) => u.surplus, align: 'right' },
    {
      key: 'flags',
      title: ta('user.flags'),
      render: (u) => <Flags u={u} />,
      csv: (u) =>
        [u.blackFlag && 'black', u.testFlag && 'test', u.beta && 'beta', u.extensionStaff && 'staff']
          .filter(Boolean)
          .join(' '),
    },
    { key: 'created', title: ta('admin.created'), render: (u) => fmtDate(u.createdAt) },
    { key: 'login', title: ta('user.lastLogin'), render: (u) => fmtTime(u.lastLoginAt) },
  ];

  return (
    <AdminPage
      path="manageUser"
      tools={
        count && (
          <span className="admin-muted" data-testid="user-count">
            {ta('user.count', { n: count.all, today: count.today })}
          </span>
        )
      }
    >
      {(canWrite) => {
        const cols: Column<AdminUser>[] = canWrite
          ? [
              ...columns,
              {
                key: 'actions',
                title: ta('admin.actions'),
                csv: () => null,
                // Only a super-administrator changes a super-administrator's account (the server refuses others).
                render: (u) =>
                  u.roles.includes('admin') && !me?.roles.includes('admin') ? (
                    <span className="admin-muted">—</span>
                  ) : (
                    <span className="admin-actions">
                      <button
                        type="button"
                        className="btn btn-sm"
                        data-action="topUp"
                        onClick={() => setDialog({ kind: 'topUp', u })}
                      >
                        {ta('user.topUp')}
                      </button>
                      <button
                        type="button"
                        className="btn btn-sm"
                        data-action="level"
                        onClick={() => setDialog({ kind: 'level', u })}
                      >
                        {ta('user.setLevel')}
                      </button>
                      <button
                        type="button"
                        className="btn btn-sm"
                        data-action="days"
                        onClick={() => setDialog({ kind: 'days', u })}
                      >
                        {ta('user.addDays')}
                      </button>
                      <button
                        type="button"
                        className={`btn btn-sm${u.testFlag ? ' on' : ''}`}
                        data-action="test"
                        onClick={() => act(() => api.post(`/user/test/${u.id}`, { flag: !u.testFlag }))}
                      >
                        {ta('user.flag.test')}
                      </button>
                      <button
                        type="button"
                        className={`btn btn-sm${u.beta ? ' on' : ''}`}
                        data-action="beta"
                        onClick={() => act(() => api.put(`/user/beta/${u.id}`, { flag: !u.beta }))}
                      >
                        {ta('user.flag.beta')}
                      </button>
                      <button
                        type="button"
                        className={`btn btn-sm${u.extensionStaff ? ' on' : ''}`}
                        data-action="staff"
                        onClick={() =>
                          act(() =>
                            api.post('/user/setExtensionStaff', { id: u.id, flag: !u.extensionStaff }),
                          )
                        }
                      >
                        {ta('user.flag.staff')}
                      </button>
                      {String(u.id) === String(me?.id) ? null : u.blackFlag ? (
                        <button
                          type="button"
                          className="btn btn-sm"
                          data-action="unblack"
                          onClick={() => act(() => api.post(`/user/blackFlag/${u.id}`, { flag: false }))}
                        >
                          {ta('user.unblack')}
                        </button>
                      ) : (
                        <button
                          type="button"
                          className="btn btn-sm btn-danger"
                          data-action="black"
                          onClick={() => setDialog({ kind: 'black', u })}
                        >
                          {ta('user.black')}
                        </button>
                      )}
                      <RolesButton onOpen={() => setDialog({ kind: 'roles', u })} />
                    </span>
                  ),
              },
            ]
          : columns;
        return (
          <>
            <form
              className="admin-filters"
              onSubmit={(e) => {
                e.preventDefault();
                setPage(1);
                setApplied({ keyword: keyword.trim(), level, black });
              }}
            >
              <input
                className="input"
                placeholder={ta('admin.keyword')}
                value={keyword}
                data-testid="user-keyword"
                onChange={(e) => setKeyword(e.target.value)}
              />
              <select
                className="input"
                value={level}
                onChange={(e) => setLevel(e.target.value)}
                aria-label={ta('user.level')}
              >
                <option value="">{`${ta('user.level')}: ${ta('admin.all')}`}</option>
                <option value="free">{ta('level.free')}</option>
                <option value="monthly">{ta('level.monthly')}</option>
                <option value="yearly">{ta('level.yearly')}</option>
              </select>
              <label className="admin-check">
                <input type="checkbox" checked={black} onChange={(e) => setBlack(e.target.checked)} />
                {ta('user.filterBlack')}
              </label>
              <button type="submit" className="btn btn-primary btn-sm" data-testid="user-search">
                {ta('admin.search')}
              </button>
              <span className="admin-grow" />
              <ExportButton name="users.csv" columns={columns} rows={data?.list ?? []} />
            </form>
            <Table
              columns={cols}
              rows={data?.list ?? []}
              rowKey={(u) => u.id}
              loading={busy}
              testId="user-table"
            />
            <div className="admin-foot">
              <span className="admin-muted">{ta('admin.total', { n: data?.total ?? 0 })}</span>
              <Pager page={page} pages={Math.ceil((data?.total ?? 0) / SIZE)} go={setPage} />
            </div>
            {dialog?.kind === 'topUp' && (
              <TopUpDialog u={dialog.u} onClose={() => setDialog(null)} onDone={reload} />
            )}
            {dialog?.kind === 'level' && (
              <LevelDialog u={dialog.u} onClose={() => setDialog(null)} onDone={reload} />
            )}
            {dialog?.kind === 'days' && (
              <DaysDialog u={dialog.u} onClose={() => setDialog(null)} onDone={reload} />
            )}
            {dialog?.kind === 'roles' && (
              <RolesDialog u={dialog.u} onClose={() => setDialog(null)} onDone={reload} />
            )}
            {dialog?.kind === 'detail' && <UserDetail u={dialog.u} onClose={() => setDialog(null)} />}
            {dialog?.kind === 'black' && (
              <Modal
                open
                title={ta('user.black')}
                onClose={() => setDialog(null)}
                width={460}
                footer={
                  <ModalButtons
                    danger
                    okText={ta('user.black')}
                    onCancel={() => setDialog(null)}
                    onOk={() => {
                      const u = dialog.u;
                      setDialog(null);
                      void act(() => api.post(`/user/blackFlag/${u.id}`, { flag: true }));
                    }}
                  />
                }
              >
                <p className="confirm-text">{ta('user.blackConfirm', { email: dialog.u.email })}</p>
              </Modal>
            )}
          </>
        );
      }}
    </AdminPage>
  );
}

/** Only the super-administrator (role page write) gives roles; others do not see the button. */
function RolesButton({ onOpen }: { onOpen: () => void }) {
  const { user } = useSession();
  if (!user?.roles.includes('admin')) return null;
  return (
    <button type="button" className="btn btn-sm" data-action="roles" onClick={onOpen}>
      {ta('user.roles')}
    </button>
  );
}

function TopUpDialog({ u, onClose, onDone }: { u: AdminUser; onClose: () => void; onDone: () => void }) {
  const [amount, setAmount] = useState('100');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const n = Number(amount);
  const valid = Number.isInteger(n) && n !== 0 && Math.abs(n) <= 1_000_000;
  const ok = async () => {
    if (!valid) return;
    setBusy(true);
    try {
      const r = await api.put<{ balance: number }>(
        `/user/surplus/${u.id}/${n}`,
        note.trim() ? { note: note.trim() } : {},
      );
      toast.success(ta('user.topUpDone', { email: u.email, balance: r.balance }));
      onClose();
      onDone();
    } catch {
      /* shown */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={ta('user.topUpTitle', { email: u.email })}
      onClose={onClose}
      width={460}
      footer={<ModalButtons onCancel={onClose} onOk={ok} busy={busy || !valid} okText={ta('user.topUp')} />}
    >
      <p className="admin-muted">
        {ta('user.balance')}: {u.surplus} V
      </p>
      <Field label="user.amount">
        <input
          className="input"
          type="number"
          step={1}
          value={amount}
          data-testid="topup-amount"
          onChange={(e) => setAmount(e.target.value)}
        />
      </Field>
      <Field label="user.note">
        <input className="input" maxLength={255} value={note} onChange={(e) => setNote(e.target.value)} />
      </Field>
    </Modal>
  );
}

function LevelDialog({ u, onClose, onDone }: { u: AdminUser; onClose: () => void; onDone: () => void }) {
  const [level, setLevel] = useState<AdminUser['level']>(u.level === 'free' ? 'monthly' : u.level);
  const [days, setDays] = useState(level === 'yearly' ? '360' : '30');
  const [busy, setBusy] = useState(false);
  const d = Number(days);
  const valid = level === 'free' || (Number.isInteger(d) && d >= 1 && d <= 3650);
  const ok = async () => {
    setBusy(true);
    try {
      await api.post(`/user/updateLevel/${u.id}/${level}/${level === 'free' ? 0 : d}`);
      toast.success(ta('admin.done'));
      onClose();
      onDone();
    } catch {
      /* shown */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={ta('user.levelTitle', { email: u.email })}
      onClose={onClose}
      width={460}
      footer={<ModalButtons onCancel={onClose} onOk={ok} busy={busy || !valid} okText={ta('admin.save')} />}
    >
      <Field label="user.level">
        <select
          className="input"
          value={level}
          onChange={(e) => {
            const v = e.target.value as AdminUser['level'];
            setLevel(v);
            setDays(v === 'yearly' ? '360' : '30');
          }}
        >
          <option value="free">{ta('level.free')}</option>
          <option value="monthly">{ta('level.monthly')}</option>
          <option value="yearly">{ta('level.yearly')}</option>
        </select>
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
    </Modal>
  );
}

function DaysDialog({ u, onClose, onDone }: { u: AdminUser; onClose: () => void; onDone: () => void }) {
  const [days, setDays] = useState('30');
  const [busy, setBusy] = useState(false);
  const d = Number(days);
  const valid = Number.isInteger(d) && d !== 0 && Math.abs(d) <= 3650;
  const ok = async () => {
    setBusy(true);
    try {
      await api.post(`/user/addTime/${u.id}/${d}`);
      toast.success(ta('admin.done'));
      onClose();
      onDone();
    } catch {
      /* shown */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={ta('user.addDaysTitle', { email: u.email })}
      onClose={onClose}
      width={460}
      footer={<ModalButtons onCancel={onClose} onOk={ok} busy={busy || !valid} okText={ta('user.addDays')} />}
    >
      <p className="admin-muted">
        {ta(`level.${u.level}` as AdminKey)} · {ta('user.expires')} {fmtDate(u.vexpiredAt)}
      </p>
      <Field label="user.days" hint={ta('user.addDaysHint')}>
        <input className="input" type="number" value={days} onChange={(e) => setDays(e.target.value)} />
      </Field>
    </Modal>
  );
}

interface RoleRow {
  id: number;
  key: string;
  title: string;
  state: boolean;
}

function RolesDialog({ u, onClose, onDone }: { u: AdminUser; onClose: () => void; onDone: () => void }) {
  const [roles] = useLoad(() => api.post<RoleRow[]>('/role/list'), []);
  const [picked, setPicked] = useState<Set<string>>(() => new Set(u.roles));
  const [busy, setBusy] = useState(false);
  const ok = async () => {
    if (!roles) return;
    setBusy(true);
    try {
      const keys = roles.map((r) => r.key).filter((k) => picked.has(k));
      await api.post('/role/assign', { userId: u.id, roles: keys });
      forgetMyPages();
      toast.success(ta('admin.done'));
      onClose();
      onDone();
    } catch {
      /* shown */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={ta('user.rolesTitle', { email: u.email })}
      onClose={onClose}
      width={460}
      footer={<ModalButtons onCancel={onClose} onOk={ok} busy={busy || !roles} okText={ta('admin.save')} />}
    >
      <div className="admin-checklist">
        {(roles ?? []).map((r) => (
          <label key={r.key} className="admin-check">
            <input
              type="checkbox"
              data-role={r.key}
              checked={picked.has(r.key)}
              onChange={(e) => {
                const next = new Set(picked);
                if (e.target.checked) next.add(r.key);
                else next.delete(r.key);
                setPicked(next);
              }}
            />
            {roleTitle(r)} <span className="admin-muted">({r.key})</span>
            {!r.state && <span className="admin-pill">{ta('role.disabled')}</span>}
          </label>
        ))}
      </div>
    </Modal>
  );
}

interface Detail {
  user: AdminUser;
  ledger: {
    list: {
      id: number;
      amount: number;
      balanceAfter: number;
      reason: string;
      note: string | null;
      createdAt: number;
    }[];
    total: number;
  };
  orders: {
    list: {
      orderNo: string;
      title: string;
      amount: number;
      method: string;
      status: string;
      createAt: number;
      paidAt: number | null;
    }[];
    total: number;
  };
  videos: {
    list: {
      id: number;
      name: string;
      status: number;
      duration: number;
      createAt: number;
      inSquare: boolean;
    }[];
    total: number;
  };
  referrals: { list: { id: number; email: string; createdAt: number }[]; total: number };
  invitedBy: { id: number; email: string } | null;
}

export function UserDetail({
  u,
  onClose,
  company,
}: {
  u: AdminUser;
  onClose: () => void;
  company?: boolean;
}) {
  const [tab, setTab] = useState<'ledger' | 'orders' | 'videos' | 'referrals'>('ledger');
  const [d] = useLoad(
    () => api.get<Detail>(`/admin/${company ? 'company' : 'user'}/${u.id}`),
    [u.id, company],
  );
  const tabs = ['ledger', 'orders', 'videos', 'referrals'] as const;
  return (
    <Modal open title={ta('user.detailTitle', { email: u.email })} onClose={onClose} width={880}>
      {!d ? (
        <div className="page-loading">
          <div className="spinner" />
        </div>
      ) : (
        <div className="admin-detail" data-testid="user-detail">
          <dl className="admin-dl">
            <dt>{ta('user.id')}</dt>
            <dd>{d.user.id}</dd>
            <dt>{ta('user.level')}</dt>
            <dd>
              {ta(`level.${d.user.level}` as AdminKey)}{' '}
              {d.user.level !== 'free' && `· ${fmtDate(d.user.vexpiredAt)}`}
            </dd>
            <dt>{ta(company ? 'company.cv' : 'user.coins')}</dt>
            <dd data-testid="detail-coins">{company ? d.user.cvCoin : d.user.surplus}</dd>
            <dt>{ta('user.flags')}</dt>
            <dd>
              <Flags u={d.user} />
            </dd>
            <dt>{ta('user.invitedBy')}</dt>
            <dd>{d.invitedBy?.email ?? '—'}</dd>
            <dt>IP</dt>
            <dd>{d.user.ip ?? '—'}</dd>
          </dl>
          <div className="admin-tabs">
            {tabs.map((k) => (
              <button
                key={k}
                type="button"
                className={`chip${tab === k ? ' chip-on' : ''}`}
                onClick={() => setTab(k)}
              >
                {ta(`user.${k}` as AdminKey)} ({d[k].total})
              </button>
            ))}
          </div>
          {tab === 'ledger' && (
            <Table
              rowKey={(r) => r.id}
              rows={d.ledger.list}
              columns={[
                { key: 't', title: ta('user.time'), render: (r) => fmtTime(r.createdAt) },
                {
                  key: 'r',
                  title: ta('user.reason'),
                  render: (r) => (r.note ? `${r.reason} · ${r.note}` : r.reason),
                },
                {
                  key: 'a',
                  title: ta('user.change'),
                  render: (r) => (r.amount > 0 ? `+${r.amount}` : r.amount),
                  align: 'right',
                },
                { key: 'b', title: ta('user.balance'), render: (r) => r.balanceAfter, align: 'right' },
              ]}
            />
          )}
          {tab === 'orders' && (
            <Table
              rowKey={(r) => r.orderNo}
              rows={d.orders.list}
              columns={[
                { key: 'n', title: 'No.', render: (r) => r.orderNo },
                { key: 't', title: ta('notice.title'), render: (r) => r.title },
                { key: 'a', title: '¥', render: (r) => yuan(r.amount), align: 'right' },
                { key: 'm', title: '', render: (r) => r.method },
                { key: 's', title: ta('role.state'), render: (r) => r.status },
                { key: 'c', title: ta('admin.created'), render: (r) => fmtTime(r.createAt) },
              ]}
            />
          )}
          {tab === 'videos' && (
            <Table
              rowKey={(r) => r.id}
              rows={d.videos.list}
              columns={[
                { key: 'i', title: 'ID', render: (r) => r.id },
                { key: 'n', title: ta('notice.title'), render: (r) => r.name },
                { key: 's', title: ta('role.state'), render: (r) => r.status },
                { key: 'd', title: 's', render: (r) => Math.round(r.duration * 10) / 10, align: 'right' },
                { key: 'c', title: ta('admin.created'), render: (r) => fmtTime(r.createAt) },
              ]}
            />
          )}
          {tab === 'referrals' && (
            <Table
              rowKey={(r) => r.id}
              rows={d.referrals.list}
              columns={[
                { key: 'i', title: 'ID', render: (r) => r.id },
                { key: 'e', title: ta('user.email'), render: (r) => r.email },
                { key: 'c', title: ta('admin.created'), render: (r) => fmtTime(r.createdAt) },
              ]}
            />
          )}
        </div>
      )}
    </Modal>
  );
}

/** block: the blacklisted accounts; add by e-mail, remove. */
export function BlockPage() {
  const [email, setEmail] = useState('');
  const [page, setPage] = useState(1);
  const [data, reload, busy] = useLoad(
    () => api.post<PageOf<AdminUser>>('/sysConfig/blackListInfo', { page, size: SIZE }),
    [page],
  );
  const add = async () => {
    if (!email.trim()) return;
    try {
      await api.post('/sysConfig/blackListInfo/insert', { email: email.trim() });
      setEmail('');
      toast.success(ta('admin.done'));
      await reload();
    } catch {
      /* shown */
    }
  };
  return (
    <AdminPage path="block">
      {(canWrite) => (
        <>
          <BlockRules canWrite={canWrite} />
          <h2 className="admin-h2">{ta('block.accounts')}</h2>
          <p className="admin-muted">{ta('block.hint')}</p>
          {canWrite && (
            <form
              className="admin-filters"
              onSubmit={(e) => {
                e.preventDefault();
                void add();
              }}
            >
              <input
                className="input"
                type="email"
                placeholder={ta('block.email')}
                value={email}
                data-testid="block-email"
                onChange={(e) => setEmail(e.target.value)}
              />
              <button type="submit" className="btn btn-danger btn-sm" data-testid="block-add">
                {ta('block.add')}
              </button>
            </form>
          )}
          <Table
            rowKey={(u) => u.id}
            rows={data?.list ?? []}
            loading={busy}
            testId="block-table"
            columns={[
              { key: 'id', title: ta('user.id'), render: (u) => u.id, width: 60 },
              { key: 'email', title: ta('user.email'), render: (u) => u.email },
              {
                key: 'type',
                title: ta('user.type'),
                render: (u) => ta(u.type === 2 ? 'user.typeCompany' : 'user.typePerson'),
              },
              { key: 'ip', title: 'IP', render: (u) => u.ip ?? '—' },
              { key: 'login', title: ta('user.lastLogin'), render: (u) => fmtTime(u.lastLoginAt) },
              ...(canWrite
                ? [
                    {
                      key: 'a',
                      title: ta('admin.actions'),
                      render: (u: AdminUser) => (
                        <button
                          type="button"
                          className="btn btn-sm"
                          onClick={async () => {
                            try {
                              await api.post('/sysConfig/blackListInfo/update', { id: u.id, flag: false });
                              toast.success(ta('admin.done'));
                              await reload();
                            } catch {
                              /* shown */
                            }
                          }}
                        >
                          {ta('block.remove')}
                        </button>
                      ),
                    },
                  ]
                : []),
            ]}
          />
          <div className="admin-foot">
            <span className="admin-muted">{ta('admin.total', { n: data?.total ?? 0 })}</span>
            <Pager page={page} pages={Math.ceil((data?.total ?? 0) / SIZE)} go={setPage} />
          </div>
        </>
      )}
    </AdminPage>
  );
}

interface BlockRule {
  id: number;
  kind: 'domain' | 'ip';
  value: string;
  note: string;
  createdAt: number;
}

/** The blacklisted e-mail domains and IPs of the block page. */
function BlockRules({ canWrite }: { canWrite: boolean }) {
  const [rules, reload, busy] = useLoad(() => api.post<BlockRule[]>('/sysConfig/blackListInfo/rules'), []);
  const [kind, setKind] = useState<'domain' | 'ip'>('domain');
  const [value, setValue] = useState('');
  const [note, setNote] = useState('');
  const add = async () => {
    if (!value.trim()) return;
    try {
      await api.post('/sysConfig/blackListInfo/rules/insert', {
        kind,
        value: value.trim(),
        note: note.trim(),
      });
      setValue('');
      setNote('');
      toast.success(ta('admin.done'));
      await reload();
    } catch {
      /* shown */
    }
  };
  return (
    <section className="admin-card">
      <h2>{ta('block.rules')}</h2>
      <p className="admin-muted">{ta('block.rulesHint')}</p>
      {canWrite && (
        <form
          className="admin-filters"
          onSubmit={(e) => {
            e.preventDefault();
            void add();
          }}
        >
          <select
            className="input"
            value={kind}
            onChange={(e) => setKind(e.target.value as 'domain' | 'ip')}
            aria-label={ta('block.kind')}
          >
            <option value="domain">{ta('block.kindDomain')}</option>
            <option value="ip">{ta('block.kindIp')}</option>
          </select>
          <input
            className="input admin-wide"
            placeholder={ta('block.value')}
            value={value}
            data-testid="rule-value"
            onChange={(e) => setValue(e.target.value)}
          />
          <input
            className="input"
            placeholder={ta('block.note')}
            value={note}
            maxLength={255}
            onChange={(e) => setNote(e.target.value)}
          />
          <button type="submit" className="btn btn-danger btn-sm" data-testid="rule-add">
            {ta('block.addRule')}
          </button>
        </form>
      )}
      <Table
        rowKey={(r) => r.id}
        rows={rules ?? []}
        loading={busy}
        testId="rule-table"
        columns={[
          {
            key: 'k',
            title: ta('block.kind'),
            render: (r) => ta(r.kind === 'ip' ? 'block.kindIp' : 'block.kindDomain'),
            width: 140,
          },
          { key: 'v', title: ta('block.valueCol'), render: (r) => <code>{r.value}</code> },
          { key: 'n', title: ta('user.reason'), render: (r) => r.note || '—' },
          { key: 'c', title: ta('admin.created'), render: (r) => fmtTime(r.createdAt), width: 160 },
          ...(canWrite
            ? [
                {
                  key: 'a',
                  title: ta('admin.actions'),
                  width: 100,
                  render: (r: BlockRule) => (
                    <button
                      type="button"
                      className="btn btn-sm"
                      onClick={async () => {
                        try {
                          await api.del(`/sysConfig/blackListInfo/rules/${r.id}`);
                          toast.success(ta('admin.done'));
                          await reload();
                        } catch {
                          /* shown */
                        }
                      }}
                    >
                      {ta('block.remove')}
                    </button>
                  ),
                },
              ]
            : []),
        ]}
      />
    </section>
  );
}
