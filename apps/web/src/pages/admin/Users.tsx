/** manageUser (search, filters, top up, flags, plan, days, roles, detail) and block (the blacklist). */
import type { Count, UserDetail as Detail, Role, UserView } from '@mocap/contracts';
import { useState } from 'react';
import { Modal } from '../../components/Modal.tsx';
import { type AdminKey, roleTitle, ta } from '../../i18n/admin.ts';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/messages.ts';
import { useSession } from '../../lib/session.tsx';
import {
  AdminPage,
  type Column,
  Field,
  fmtDate,
  fmtTime,
  forgetMyPages,
  Table,
  useLoad,
  yuan,
} from './Console.tsx';
import {
  act,
  actionsColumn,
  Btn,
  Check,
  Choice,
  ConfirmAct,
  Filters,
  FormDialog,
  type Level,
  LevelFields,
  ListPage,
  levelOptions,
  PAGE_SIZE,
  PagedTable,
  type PageOf,
  searchBody,
  TextInput,
  useFiltered,
  useOk,
  usePaged,
  validDays,
} from './kit.tsx';

/** An account as the console lists it (the API's user view). */
export type AdminUser = UserView;

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
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const paged = useFiltered({ keyword: '', level: '' as Level | '', black: false }, (p, a) =>
    api.post<PageOf<AdminUser>>(
      '/user/search',
      searchBody(p, { type: 1, keyword: a.keyword, level: a.level, blackFlag: a.black }),
    ),
  );
  const { reload, field } = paged;
  const [count] = useLoad(async () => {
    const midnight = new Date();
    midnight.setHours(0, 0, 0, 0);
    const [all, today] = await Promise.all([
      api.post<Count>('/user/countUser', { type: 1 }),
      api.post<Count>('/user/countUser', { type: 1, since: midnight.getTime() }),
    ]);
    return { all: all.total, today: today.total };
  }, []);
  const close = () => setDialog(null);
  const open = (kind: Exclude<Dialog['kind'], 'detail'>, u: AdminUser) => () => setDialog({ kind, u });
  const flag = (on: boolean, key: 'test' | 'beta' | 'staff', run: () => Promise<unknown>) => (
    <Btn label={ta(`user.flag.${key}`)} action={key} on={on} onClick={() => act(run, reload)} />
  );

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
  // Only a super-administrator changes a super-administrator's account (the server refuses others).
  const actions = (u: AdminUser) =>
    u.roles.includes('admin') && !me?.roles.includes('admin') ? (
      <span className="admin-muted">—</span>
    ) : (
      <span className="admin-actions">
        <Btn label={ta('user.topUp')} action="topUp" onClick={open('topUp', u)} />
        <Btn label={ta('user.setLevel')} action="level" onClick={open('level', u)} />
        <Btn label={ta('user.addDays')} action="days" onClick={open('days', u)} />
        {flag(u.testFlag, 'test', () => api.post(`/user/test/${u.id}`, { flag: !u.testFlag }))}
        {flag(u.beta, 'beta', () => api.put(`/user/beta/${u.id}`, { flag: !u.beta }))}
        {flag(u.extensionStaff, 'staff', () =>
          api.post('/user/setExtensionStaff', { id: u.id, flag: !u.extensionStaff }),
        )}
        {String(u.id) === String(me?.id) ? null : u.blackFlag ? (
          <Btn
            label={ta('user.unblack')}
            action="unblack"
            onClick={() => act(() => api.post(`/user/blackFlag/${u.id}`, { flag: false }), reload)}
          />
        ) : (
          <Btn label={ta('user.black')} action="black" danger onClick={open('black', u)} />
        )}
        <RolesButton onOpen={open('roles', u)} />
      </span>
    );

  return (
    <ListPage
      path="manageUser"
      tools={
        count && (
          <span className="admin-muted" data-testid="user-count">
            {ta('user.count', { n: count.all, today: count.today })}
          </span>
        )
      }
      paged={paged}
      columns={columns}
      actions={actions}
      csv="users.csv"
      testId="user-table"
      onSearch={paged.search}
      submitTestId="user-search"
      filters={
        <>
          <TextInput {...field('keyword')} placeholder={ta('admin.keyword')} testId="user-keyword" />
          <Choice {...field('level')} label={ta('user.level')} all options={levelOptions()} />
          <Check {...field('black')} label={ta('user.filterBlack')} />
        </>
      }
    >
      {dialog?.kind === 'topUp' && <TopUpDialog u={dialog.u} onClose={close} onDone={reload} />}
      {dialog?.kind === 'level' && <LevelDialog u={dialog.u} onClose={close} onDone={reload} />}
      {dialog?.kind === 'days' && <DaysDialog u={dialog.u} onClose={close} onDone={reload} />}
      {dialog?.kind === 'roles' && <RolesDialog u={dialog.u} onClose={close} onDone={reload} />}
      {dialog?.kind === 'detail' && <UserDetail u={dialog.u} onClose={close} />}
      <ConfirmAct
        item={dialog?.kind === 'black' ? dialog.u : null}
        title={ta('user.black')}
        okText={ta('user.black')}
        text={(u) => ta('user.blackConfirm', { email: u.email })}
        close={close}
        run={(u) => api.post(`/user/blackFlag/${u.id}`, { flag: true })}
        after={reload}
      />
    </ListPage>
  );
}

/** Only the super-administrator (role page write) gives roles; others do not see the button. */
function RolesButton({ onOpen }: { onOpen: () => void }) {
  const { user } = useSession();
  if (!user?.roles.includes('admin')) return null;
  return <Btn label={ta('user.roles')} action="roles" onClick={onOpen} />;
}

interface DialogProps {
  u: AdminUser;
  onClose: () => void;
  onDone: () => unknown;
}

function TopUpDialog({ u, onClose, onDone }: DialogProps) {
  const [amount, setAmount] = useState('100');
  const [note, setNote] = useState('');
  const n = Number(amount);
  const valid = Number.isInteger(n) && n !== 0 && Math.abs(n) <= 1_000_000;
  const [busy, ok] = useOk(
    async () => {
      const r = await api.put<{ balance: number }>(
        `/user/surplus/${u.id}/${n}`,
        note.trim() ? { note: note.trim() } : {},
      );
      toast.success(ta('user.topUpDone', { email: u.email, balance: r.balance }));
    },
    onClose,
    onDone,
    null,
  );
  return (
    <FormDialog
      title={ta('user.topUpTitle', { email: u.email })}
      onClose={onClose}
      onOk={() => valid && ok()}
      busy={busy || !valid}
      okText={ta('user.topUp')}
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
        <TextInput value={note} set={setNote} maxLength={255} />
      </Field>
    </FormDialog>
  );
}

function LevelDialog({ u, onClose, onDone }: DialogProps) {
  const [level, setLevel] = useState<Level>(u.level === 'free' ? 'monthly' : u.level);
  const [days, setDays] = useState(level === 'yearly' ? '360' : '30');
  const d = Number(days);
  const [busy, ok] = useOk(
    () => api.post(`/user/updateLevel/${u.id}/${level}/${level === 'free' ? 0 : d}`),
    onClose,
    onDone,
  );
  return (
    <FormDialog
      title={ta('user.levelTitle', { email: u.email })}
      onClose={onClose}
      onOk={ok}
      busy={busy || !validDays(level, d)}
    >
      <LevelFields
        level={level}
        setLevel={(v) => {
          setLevel(v);
          setDays(v === 'yearly' ? '360' : '30');
        }}
        days={days}
        setDays={setDays}
      />
    </FormDialog>
  );
}

function DaysDialog({ u, onClose, onDone }: DialogProps) {
  const [days, setDays] = useState('30');
  const d = Number(days);
  const valid = Number.isInteger(d) && d !== 0 && Math.abs(d) <= 3650;
  const [busy, ok] = useOk(() => api.post(`/user/addTime/${u.id}/${d}`), onClose, onDone);
  return (
    <FormDialog
      title={ta('user.addDaysTitle', { email: u.email })}
      onClose={onClose}
      onOk={ok}
      busy={busy || !valid}
      okText={ta('user.addDays')}
    >
      <p className="admin-muted">
        {ta(`level.${u.level}` as AdminKey)} · {ta('user.expires')} {fmtDate(u.vexpiredAt)}
      </p>
      <Field label="user.days" hint={ta('user.addDaysHint')}>
        <TextInput type="number" value={days} set={setDays} />
      </Field>
    </FormDialog>
  );
}

function RolesDialog({ u, onClose, onDone }: DialogProps) {
  const [roles] = useLoad(() => api.post<Role[]>('/role/list'), []);
  const [picked, setPicked] = useState<Set<string>>(() => new Set(u.roles));
  const [busy, ok] = useOk(
    async () => {
      const keys = (roles ?? []).map((r) => r.key).filter((k) => picked.has(k));
      await api.post('/role/assign', { userId: u.id, roles: keys });
      forgetMyPages();
    },
    onClose,
    onDone,
  );
  return (
    <FormDialog
      title={ta('user.rolesTitle', { email: u.email })}
      onClose={onClose}
      onOk={() => roles && ok()}
      busy={busy || !roles}
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
    </FormDialog>
  );
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
  const paged = usePaged(null, (p) =>
    api.post<PageOf<AdminUser>>('/sysConfig/blackListInfo', { page: p, size: PAGE_SIZE }),
  );
  const { reload } = paged;
  const add = () => {
    if (!email.trim()) return;
    void act(async () => {
      await api.post('/sysConfig/blackListInfo/insert', { email: email.trim() });
      setEmail('');
    }, reload);
  };
  return (
    <AdminPage path="block">
      {(canWrite) => (
        <>
          <BlockRules canWrite={canWrite} />
          <h2 className="admin-h2">{ta('block.accounts')}</h2>
          <p className="admin-muted">{ta('block.hint')}</p>
          {canWrite && (
            <Filters onSubmit={add} submit={ta('block.add')} submitTestId="block-add" danger>
              <TextInput
                type="email"
                value={email}
                set={setEmail}
                placeholder={ta('block.email')}
                testId="block-email"
              />
            </Filters>
          )}
          <PagedTable
            paged={paged}
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
              ...actionsColumn(canWrite, (u: AdminUser) => (
                <Btn
                  label={ta('block.remove')}
                  onClick={() =>
                    act(() => api.post('/sysConfig/blackListInfo/update', { id: u.id, flag: false }), reload)
                  }
                />
              )),
            ]}
          />
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
  const add = () => {
    if (!value.trim()) return;
    void act(async () => {
      await api.post('/sysConfig/blackListInfo/rules/insert', {
        kind,
        value: value.trim(),
        note: note.trim(),
      });
      setValue('');
      setNote('');
    }, reload);
  };
  return (
    <section className="admin-card">
      <h2>{ta('block.rules')}</h2>
      <p className="admin-muted">{ta('block.rulesHint')}</p>
      {canWrite && (
        <Filters onSubmit={add} submit={ta('block.addRule')} submitTestId="rule-add" danger>
          <Choice
            value={kind}
            set={setKind}
            label={ta('block.kind')}
            options={[
              ['domain', ta('block.kindDomain')],
              ['ip', ta('block.kindIp')],
            ]}
          />
          <TextInput wide value={value} set={setValue} placeholder={ta('block.value')} testId="rule-value" />
          <TextInput value={note} set={setNote} placeholder={ta('block.note')} maxLength={255} />
        </Filters>
      )}
      <Table
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
          ...actionsColumn(
            canWrite,
            (r: BlockRule) => (
              <Btn
                label={ta('block.remove')}
                onClick={() => act(() => api.del(`/sysConfig/blackListInfo/rules/${r.id}`), reload)}
              />
            ),
            100,
          ),
        ]}
      />
    </section>
  );
}
