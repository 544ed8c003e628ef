/** manageRole (roles and their page config, members), manageRouter (menus), auditLog (who did what). */
import type { Access, AuditEntry as AuditRow, Menu, Role } from '@mocap/contracts';
import { Fragment, useState } from 'react';
import { Modal } from '../../components/Modal.tsx';
import { type AdminKey, adminPageTitle, roleTitle, ta } from '../../i18n/admin.ts';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/messages.ts';
import { AdminPage, Field, fmtTime, forgetMyPages, Switch, Table, useLoad } from './Console.tsx';
import {
  act,
  actionsColumn,
  Btn,
  Check,
  Choice,
  ConfirmAct,
  EditDelete,
  Filters,
  Foot,
  FormDialog,
  OkPill,
  type PageOf,
  searchBody,
  TextInput,
  useFiltered,
  useOk,
} from './kit.tsx';
import type { AdminUser } from './Users.tsx';

const menuLabel = (m: Menu) => adminPageTitle(m.path) ?? m.title;

function RoleDialog({
  role,
  menus,
  onClose,
  onDone,
}: {
  role: Partial<Role>;
  menus: Menu[];
  onClose: () => void;
  onDone: () => void;
}) {
  const [key, setKey] = useState(role.key ?? '');
  const [title, setTitle] = useState(role.title ?? '');
  const [state, setState] = useState(role.state ?? true);
  const [grants, setGrants] = useState<Record<string, Access | ''>>(() =>
    Object.fromEntries((role.pages ?? []).map((p) => [p.path, p.access])),
  );
  const isSuper = role.key === 'admin';
  const [busy, ok] = useOk(
    async () => {
      const pages = Object.entries(grants)
        .filter(([, a]) => a)
        .map(([path, access]) => ({ path, access }));
      await api.post('/role/save', {
        ...(role.id ? { id: role.id } : { key }),
        title: title.trim(),
        ...(isSuper ? {} : { state, pages }),
      });
      forgetMyPages();
    },
    onClose,
    onDone,
    'admin.saved',
  );
  return (
    <FormDialog
      title={
        role.id
          ? ta('role.edit', { title: roleTitle({ key: role.key ?? '', title: role.title ?? '' }) })
          : ta('role.new')
      }
      onClose={onClose}
      width={640}
      onOk={ok}
      busy={busy || !title.trim() || (!role.id && !key)}
    >
      <div className="admin-form2">
        <Field label="role.key">
          <input
            className="input"
            value={key}
            disabled={!!role.id}
            data-testid="role-key"
            placeholder="e.g. auditor"
            onChange={(e) => setKey(e.target.value.toLowerCase())}
          />
        </Field>
        <Field label="role.title">
          <TextInput value={title} set={setTitle} maxLength={128} testId="role-title" />
        </Field>
      </div>
      {isSuper ? (
        <p className="admin-muted">{ta('role.super')}</p>
      ) : (
        <>
          <Switch checked={state} onChange={setState} label={ta('role.enabled')} />
          <div className="admin-grants">
            {menus.map((m) => (
              <Fragment key={m.path}>
                <span>{menuLabel(m)}</span>
                <span className="admin-muted">{m.module}</span>
                <select
                  className="input"
                  data-grant={m.path}
                  value={grants[m.path] ?? ''}
                  onChange={(e) => setGrants({ ...grants, [m.path]: e.target.value as Access | '' })}
                >
                  {(['', 'read', 'write'] as const).map((a) => (
                    <option key={a} value={a}>
                      {ta(a ? `role.${a}` : 'role.noAccess')}
                    </option>
                  ))}
                </select>
              </Fragment>
            ))}
          </div>
        </>
      )}
    </FormDialog>
  );
}

function Members({ role, onClose }: { role: Role; onClose: () => void }) {
  const [list, reload] = useLoad(() => api.post<AdminUser[]>('/role/members', { key: role.key }), [role.key]);
  const [email, setEmail] = useState('');
  const give = async (u: AdminUser, on: boolean) => {
    const roles = on ? [...u.roles, role.key] : u.roles.filter((r) => r !== role.key);
    const all = await api.post<Role[]>('/role/list');
    const keys = all.map((r) => r.key);
    await api.post('/role/assign', { userId: u.id, roles: roles.filter((r) => keys.includes(r)) });
  };
  const add = async () => {
    try {
      const found = await api.post<PageOf<AdminUser>>(
        '/user/search',
        searchBody(1, { keyword: email.trim() }, 5),
      );
      const u = found.list.find((x) => x.email.toLowerCase() === email.trim().toLowerCase());
      if (!u) {
        toast.error(`${email}: ${ta('admin.none')}`);
        return;
      }
      await act(async () => {
        await give(u, true);
        setEmail('');
        forgetMyPages();
      }, reload);
    } catch {
      /* shown */
    }
  };
  return (
    <Modal open title={ta('role.membersOf', { title: roleTitle(role) })} onClose={onClose} width={640}>
      <Filters onSubmit={() => void add()} submit={ta('admin.add')} submitTestId="member-add">
        <TextInput
          type="email"
          placeholder={ta('role.assignEmail')}
          value={email}
          set={setEmail}
          testId="member-email"
        />
      </Filters>
      <Table
        rows={list ?? []}
        columns={[
          { key: 'i', title: ta('user.id'), render: (u) => u.id },
          { key: 'e', title: ta('user.email'), render: (u) => u.email },
          { key: 'l', title: ta('user.lastLogin'), render: (u) => fmtTime(u.lastLoginAt) },
          {
            key: 'a',
            title: ta('admin.actions'),
            render: (u) => <Btn label={ta('role.take')} onClick={() => act(() => give(u, false), reload)} />,
          },
        ]}
      />
    </Modal>
  );
}

export function ManageRolePage() {
  const [roles, reload, busy] = useLoad(() => api.post<Role[]>('/role/list'), []);
  const [menus] = useLoad(() => api.post<Menu[]>('/menu/list'), []);
  const [edit, setEdit] = useState<Partial<Role> | null>(null);
  const [members, setMembers] = useState<Role | null>(null);
  const [del, setDel] = useState<Role | null>(null);
  const titleOf = (path: string) => {
    const m = menus?.find((x) => x.path === path);
    return m ? menuLabel(m) : path;
  };
  return (
    <AdminPage
      path="manageRole"
      tools={<Btn primary label={ta('role.new')} testId="role-new" onClick={() => setEdit({})} />}
    >
      {(canWrite) => (
        <>
          <Table
            rows={roles ?? []}
            loading={busy}
            testId="role-table"
            columns={[
              { key: 'k', title: ta('role.key'), render: (r) => <code>{r.key}</code>, width: 110 },
              {
                key: 't',
                title: ta('role.title'),
                render: (r) => (
                  <>
                    {roleTitle(r)} {r.builtin && <span className="admin-pill">{ta('role.builtin')}</span>}
                  </>
                ),
                width: 200,
              },
              {
                key: 's',
                title: ta('role.state'),
                render: (r) => <OkPill ok={r.state}>{ta(r.state ? 'role.enabled' : 'role.disabled')}</OkPill>,
                width: 90,
              },
              {
                key: 'p',
                title: ta('role.pages'),
                render: (r) =>
                  r.key === 'admin' ? (
                    <span className="admin-muted">{ta('role.super')}</span>
                  ) : (
                    <span className="admin-flags">
                      {r.pages.map((p) => (
                        <span
                          key={p.path}
                          className={`admin-pill ${p.access === 'write' ? 'accent' : ''}`}
                          title={ta(p.access === 'write' ? 'role.write' : 'role.read')}
                        >
                          {titleOf(p.path)}
                          {p.access === 'read' ? ` · ${ta('role.read')}` : ''}
                        </span>
                      ))}
                    </span>
                  ),
              },
              {
                key: 'm',
                title: ta('role.members'),
                render: (r) => (
                  <button
                    type="button"
                    className="link-btn"
                    data-members={r.key}
                    onClick={() => setMembers(r)}
                  >
                    {r.members}
                  </button>
                ),
                width: 80,
                align: 'center',
              },
              ...actionsColumn(
                canWrite,
                (r: Role) => (
                  <span data-edit-role={r.key}>
                    <EditDelete
                      onEdit={() => setEdit(r)}
                      onDelete={r.key === 'admin' ? undefined : () => setDel(r)}
                    />
                  </span>
                ),
                150,
              ),
            ]}
          />
          {edit && menus && (
            <RoleDialog role={edit} menus={menus} onClose={() => setEdit(null)} onDone={reload} />
          )}
          {members && (
            <Members
              role={members}
              onClose={() => {
                setMembers(null);
                void reload();
              }}
            />
          )}
          <ConfirmAct
            item={del}
            text={(r) => ta('role.deleteConfirm', { title: roleTitle(r) })}
            close={() => setDel(null)}
            run={(r) => api.del(`/role/${r.id}`)}
            after={reload}
          />
        </>
      )}
    </AdminPage>
  );
}

function MenuDialog({
  menu,
  onClose,
  onDone,
}: {
  menu: Partial<Menu>;
  onClose: () => void;
  onDone: () => void;
}) {
  const [f, setF] = useState<Partial<Menu>>({ show: true, sort: 0, ...menu });
  const set = (p: Partial<Menu>) => setF({ ...f, ...p });
  const [busy, ok] = useOk(
    async () => {
      const { id, title, module, icon, controller, action, show, path, alias, sort } = f;
      await api.post('/menu/save', {
        id,
        title,
        module,
        icon,
        controller,
        action,
        show,
        path,
        alias,
        sort: Number(sort) || 0,
      });
      forgetMyPages();
    },
    onClose,
    onDone,
    'admin.saved',
  );
  const text = (k: keyof Menu, label: AdminKey) => (
    <Field label={label}>
      <input
        className="input"
        value={String(f[k] ?? '')}
        data-menu-field={k}
        onChange={(e) => set({ [k]: e.target.value })}
      />
    </Field>
  );
  return (
    <FormDialog
      title={menu.id ? ta('menu.edit', { title: menu.title ?? '' }) : ta('menu.new')}
      onClose={onClose}
      width={640}
      onOk={ok}
      busy={busy || !f.title || !f.path || !f.module}
    >
      <div className="admin-form2">
        {text('title', 'menu.title')}
        {text('path', 'menu.path')}
        {text('module', 'menu.module')}
        {text('alias', 'menu.alias')}
        {text('controller', 'menu.controller')}
        {text('action', 'menu.action')}
        {text('icon', 'menu.icon')}
        <Field label="menu.sort">
          <input
            className="input"
            type="number"
            value={f.sort ?? 0}
            onChange={(e) => set({ sort: Number(e.target.value) })}
          />
        </Field>
      </div>
      <Switch checked={!!f.show} onChange={(v) => set({ show: v })} label={ta('menu.show')} />
    </FormDialog>
  );
}

export function ManageRouterPage() {
  const [menus, reload, busy] = useLoad(() => api.post<Menu[]>('/menu/list'), []);
  const [edit, setEdit] = useState<Partial<Menu> | null>(null);
  const [del, setDel] = useState<Menu | null>(null);
  return (
    <AdminPage
      path="manageRouter"
      tools={<Btn primary label={ta('menu.new')} testId="menu-new" onClick={() => setEdit({})} />}
    >
      {(canWrite) => (
        <>
          <p className="admin-muted">{ta('menu.hint')}</p>
          <Table
            rows={menus ?? []}
            loading={busy}
            testId="menu-table"
            columns={[
              { key: 'o', title: ta('menu.sort'), render: (m) => m.sort, width: 60 },
              { key: 't', title: ta('menu.title'), render: (m) => menuLabel(m) },
              { key: 'p', title: ta('menu.path'), render: (m) => <code>/index/{m.path}</code> },
              { key: 'm', title: ta('menu.module'), render: (m) => <code>{m.module}</code> },
              {
                key: 'c',
                title: `${ta('menu.controller')} / ${ta('menu.action')}`,
                render: (m) => `${m.controller} ${m.action}`,
              },
              { key: 'i', title: ta('menu.icon'), render: (m) => m.icon },
              { key: 'a', title: ta('menu.alias'), render: (m) => m.alias },
              {
                key: 's',
                title: ta('menu.show'),
                render: (m) => ta(m.show ? 'admin.yes' : 'admin.no'),
                width: 60,
              },
              ...actionsColumn(
                canWrite,
                (m: Menu) => <EditDelete onEdit={() => setEdit(m)} onDelete={() => setDel(m)} />,
                150,
              ),
            ]}
          />
          {edit && <MenuDialog menu={edit} onClose={() => setEdit(null)} onDone={reload} />}
          <ConfirmAct
            item={del}
            text={(m) => ta('menu.deleteConfirm', { title: menuLabel(m) })}
            close={() => setDel(null)}
            run={(m) => api.del(`/menu/${m.id}`)}
            after={reload}
          />
        </>
      )}
    </AdminPage>
  );
}

/** Fields that differ between before and after (top level). */
export function changedFields(before: unknown, after: unknown): string[] {
  if (!before || !after || typeof before !== 'object' || typeof after !== 'object') return [];
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  return [...new Set([...Object.keys(b), ...Object.keys(a)])].filter(
    (k) => k !== 'updatedAt' && JSON.stringify(b[k]) !== JSON.stringify(a[k]),
  );
}

const short = (v: unknown) => {
  if (v === '' || v === null || v === undefined) return '∅';
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s && s.length > 40 ? `${s.slice(0, 40)}…` : s;
};

export function AuditLogPage() {
  const [open, setOpen] = useState<AuditRow | null>(null);
  const paged = useFiltered({ actor: '', module: '', route: '', failedOnly: false }, (p, a) =>
    api.post<PageOf<AuditRow>>('/audit/search', searchBody(p, a, 20)),
  );
  const { field } = paged;
  const modules = [
    'user',
    'company',
    'block',
    'service',
    'video',
    'tag',
    'machine',
    'finance',
    'role',
    'menu',
  ];
  return (
    <AdminPage path="auditLog">
      {() => (
        <>
          <Filters onSubmit={paged.search} submitTestId="audit-search">
            <TextInput {...field('actor')} placeholder={ta('audit.actorFilter')} testId="audit-actor" />
            <Choice
              {...field('module')}
              label={ta('audit.module')}
              all
              options={modules.map((m) => [m, m] as const)}
            />
            <TextInput {...field('route')} placeholder={ta('audit.routeFilter')} testId="audit-route" />
            <Check {...field('failedOnly')} label={ta('audit.failedOnly')} />
          </Filters>
          <Table
            rows={paged.data?.list ?? []}
            loading={paged.busy}
            testId="audit-table"
            onRowClick={setOpen}
            columns={[
              { key: 't', title: ta('user.time'), render: (r) => fmtTime(r.createdAt), width: 140 },
              { key: 'w', title: ta('audit.actor'), render: (r) => r.actorEmail },
              { key: 'a', title: ta('audit.action'), render: (r) => <code>{`${r.method} ${r.route}`}</code> },
              {
                key: 'o',
                title: ta('audit.target'),
                render: (r) => (r.targetKind ? `${r.targetKind} ${r.targetId ?? ''}` : '—'),
              },
              {
                key: 'c',
                title: ta('audit.changed'),
                render: (r) =>
                  r.code !== 0
                    ? r.message
                    : !r.before && r.after
                      ? ta('audit.created')
                      : r.before && !r.after
                        ? ta('audit.removed')
                        : changedFields(r.before, r.after)
                            .map(
                              (k) =>
                                `${k}: ${short((r.before as Record<string, unknown>)[k])} → ${short((r.after as Record<string, unknown>)[k])}`,
                            )
                            .join('; ') || '—',
              },
              {
                key: 'r',
                title: ta('audit.outcome'),
                render: (r) => (
                  <OkPill ok={r.code === 0}>
                    {r.code === 0 ? ta('audit.ok') : ta('audit.failed', { code: r.code })}
                  </OkPill>
                ),
                width: 100,
              },
            ]}
          />
          <Foot total={paged.data?.total ?? 0} page={paged.page} size={20} go={paged.setPage} />
          {open && (
            <Modal open title={`${open.method} ${open.route}`} onClose={() => setOpen(null)} width={880}>
              <p className="admin-muted">
                {fmtTime(open.createdAt)} · {open.actorEmail} · {open.ip ?? ''} ·{' '}
                {open.code === 0 ? ta('audit.ok') : `${open.code} ${open.message}`}
              </p>
              <div className="admin-grid3">
                {(['request', 'before', 'after'] as const).map((k) => (
                  <div key={k}>
                    <h3>{ta(`audit.${k}` as AdminKey)}</h3>
                    <pre className="admin-json">{JSON.stringify(open[k], null, 2) ?? '—'}</pre>
                  </div>
                ))}
              </div>
            </Modal>
          )}
        </>
      )}
    </AdminPage>
  );
}
