/** manageRole (roles and their page config, members), manageRouter (menus), auditLog (who did what). */
import { Fragment, useState } from 'react';
import { Confirm, Modal, ModalButtons } from '../../components/Modal.tsx';
import { Pager } from '../../components/Pager.tsx';
import { type AdminKey, adminPageTitle, roleTitle, ta } from '../../i18n/admin.ts';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/messages.ts';
import { AdminPage, Field, fmtTime, forgetMyPages, Switch, Table, useLoad } from './Console.tsx';
import type { AdminUser } from './Users.tsx';

type Access = 'read' | 'write';
interface Role {
  id: number;
  key: string;
  title: string;
  state: boolean;
  pages: { path: string; access: Access }[];
  builtin: boolean;
  members: number;
}
interface Menu {
  id: number;
  title: string;
  module: string;
  icon: string;
  controller: string;
  action: string;
  show: boolean;
  path: string;
  alias: string;
  sort: number;
}

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
  const [busy, setBusy] = useState(false);
  const isSuper = role.key === 'admin';
  const ok = async () => {
    setBusy(true);
    try {
      const pages = Object.entries(grants)
        .filter(([, a]) => a)
        .map(([path, access]) => ({ path, access }));
      await api.post('/role/save', {
        ...(role.id ? { id: role.id } : { key }),
        title: title.trim(),
        ...(isSuper ? {} : { state, pages }),
      });
      forgetMyPages();
      toast.success(ta('admin.saved'));
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
      title={
        role.id
          ? ta('role.edit', { title: roleTitle({ key: role.key ?? '', title: role.title ?? '' }) })
          : ta('role.new')
      }
      onClose={onClose}
      width={640}
      footer={
        <ModalButtons
          onCancel={onClose}
          onOk={ok}
          busy={busy || !title.trim() || (!role.id && !key)}
          okText={ta('admin.save')}
        />
      }
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
          <input
            className="input"
            value={title}
            maxLength={128}
            data-testid="role-title"
            onChange={(e) => setTitle(e.target.value)}
          />
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
                  <option value="">{ta('role.noAccess')}</option>
                  <option value="read">{ta('role.read')}</option>
                  <option value="write">{ta('role.write')}</option>
                </select>
              </Fragment>
            ))}
          </div>
        </>
      )}
    </Modal>
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
      const found = await api.post<{ list: AdminUser[] }>('/user/search', {
        keyword: email.trim(),
        size: 5,
        page: 1,
      });
      const u = found.list.find((x) => x.email.toLowerCase() === email.trim().toLowerCase());
      if (!u) {
        toast.error(`${email}: ${ta('admin.none')}`);
        return;
      }
      await give(u, true);
      setEmail('');
      forgetMyPages();
      toast.success(ta('admin.done'));
      await reload();
    } catch {
      /* shown */
    }
  };
  return (
    <Modal open title={ta('role.membersOf', { title: roleTitle(role) })} onClose={onClose} width={640}>
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
          placeholder={ta('role.assignEmail')}
          value={email}
          data-testid="member-email"
          onChange={(e) => setEmail(e.target.value)}
        />
        <button type="submit" className="btn btn-primary btn-sm" data-testid="member-add">
          {ta('admin.add')}
        </button>
      </form>
      <Table
        rowKey={(u) => u.id}
        rows={list ?? []}
        columns={[
          { key: 'i', title: ta('user.id'), render: (u) => u.id },
          { key: 'e', title: ta('user.email'), render: (u) => u.email },
          { key: 'l', title: ta('user.lastLogin'), render: (u) => fmtTime(u.lastLoginAt) },
          {
            key: 'a',
            title: ta('admin.actions'),
            render: (u) => (
              <button
                type="button"
                className="btn btn-sm"
                onClick={async () => {
                  try {
                    await give(u, false);
                    toast.success(ta('admin.done'));
                    await reload();
                  } catch {
                    /* shown */
                  }
                }}
              >
                {ta('role.take')}
              </button>
            ),
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
      tools={
        <button
          type="button"
          className="btn btn-primary btn-sm"
          data-testid="role-new"
          onClick={() => setEdit({})}
        >
          {ta('role.new')}
        </button>
      }
    >
      {(canWrite) => (
        <>
          <Table
            rowKey={(r) => r.id}
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
                render: (r) => (
                  <span className={`admin-pill ${r.state ? 'ok' : 'danger'}`}>
                    {ta(r.state ? 'role.enabled' : 'role.disabled')}
                  </span>
                ),
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
              ...(canWrite
                ? [
                    {
                      key: 'a',
                      title: ta('admin.actions'),
                      width: 150,
                      render: (r: Role) => (
                        <span className="admin-actions">
                          <button
                            type="button"
                            className="btn btn-sm"
                            data-edit-role={r.key}
                            onClick={() => setEdit(r)}
                          >
                            {ta('admin.edit')}
                          </button>
                          {r.key !== 'admin' && (
                            <button type="button" className="btn btn-sm btn-danger" onClick={() => setDel(r)}>
                              {ta('admin.delete')}
                            </button>
                          )}
                        </span>
                      ),
                    },
                  ]
                : []),
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
          <Confirm
            open={!!del}
            danger
            title={ta('admin.delete')}
            text={ta('role.deleteConfirm', { title: del ? roleTitle(del) : '' })}
            onCancel={() => setDel(null)}
            onOk={async () => {
              const r = del!;
              setDel(null);
              try {
                await api.del(`/role/${r.id}`);
                toast.success(ta('admin.done'));
                await reload();
              } catch {
                /* shown */
              }
            }}
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
  const [busy, setBusy] = useState(false);
  const set = (p: Partial<Menu>) => setF({ ...f, ...p });
  const ok = async () => {
    setBusy(true);
    try {
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
      toast.success(ta('admin.saved'));
      onClose();
      onDone();
    } catch {
      /* shown */
    } finally {
      setBusy(false);
    }
  };
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
    <Modal
      open
      title={menu.id ? ta('menu.edit', { title: menu.title ?? '' }) : ta('menu.new')}
      onClose={onClose}
      width={640}
      footer={
        <ModalButtons
          onCancel={onClose}
          onOk={ok}
          busy={busy || !f.title || !f.path || !f.module}
          okText={ta('admin.save')}
        />
      }
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
    </Modal>
  );
}

export function ManageRouterPage() {
  const [menus, reload, busy] = useLoad(() => api.post<Menu[]>('/menu/list'), []);
  const [edit, setEdit] = useState<Partial<Menu> | null>(null);
  const [del, setDel] = useState<Menu | null>(null);
  return (
    <AdminPage
      path="manageRouter"
      tools={
        <button
          type="button"
          className="btn btn-primary btn-sm"
          data-testid="menu-new"
          onClick={() => setEdit({})}
        >
          {ta('menu.new')}
        </button>
      }
    >
      {(canWrite) => (
        <>
          <p className="admin-muted">{ta('menu.hint')}</p>
          <Table
            rowKey={(m) => m.id}
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
              ...(canWrite
                ? [
                    {
                      key: 'x',
                      title: ta('admin.actions'),
                      width: 150,
                      render: (m: Menu) => (
                        <span className="admin-actions">
                          <button type="button" className="btn btn-sm" onClick={() => setEdit(m)}>
                            {ta('admin.edit')}
                          </button>
                          <button type="button" className="btn btn-sm btn-danger" onClick={() => setDel(m)}>
                            {ta('admin.delete')}
                          </button>
                        </span>
                      ),
                    },
                  ]
                : []),
            ]}
          />
          {edit && <MenuDialog menu={edit} onClose={() => setEdit(null)} onDone={reload} />}
          <Confirm
            open={!!del}
            danger
            title={ta('admin.delete')}
            text={ta('menu.deleteConfirm', { title: del ? menuLabel(del) : '' })}
            onCancel={() => setDel(null)}
            onOk={async () => {
              const m = del!;
              setDel(null);
              try {
                await api.del(`/menu/${m.id}`);
                toast.success(ta('admin.done'));
                await reload();
              } catch {
                /* shown */
              }
            }}
          />
        </>
      )}
    </AdminPage>
  );
}

interface AuditRow {
  id: number;
  actorId: number;
  actorEmail: string;
  method: string;
  route: string;
  module: string;
  targetKind: string | null;
  targetId: string | null;
  code: number;
  message: string;
  request: unknown;
  before: unknown;
  after: unknown;
  ip: string | null;
  createdAt: number;
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
  const [actor, setActor] = useState('');
  const [module, setModule] = useState('');
  const [route, setRoute] = useState('');
  const [failedOnly, setFailedOnly] = useState(false);
  const [applied, setApplied] = useState({ actor: '', module: '', route: '', failedOnly: false });
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<AuditRow | null>(null);
  const [data, , busy] = useLoad(
    () =>
      api.post<{ list: AuditRow[]; total: number }>('/audit/search', {
        page,
        size: 20,
        ...(applied.actor ? { actor: applied.actor } : {}),
        ...(applied.module ? { module: applied.module } : {}),
        ...(applied.route ? { route: applied.route } : {}),
        ...(applied.failedOnly ? { failedOnly: true } : {}),
      }),
    [page, applied],
  );
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
          <form
            className="admin-filters"
            onSubmit={(e) => {
              e.preventDefault();
              setPage(1);
              setApplied({ actor: actor.trim(), module, route: route.trim(), failedOnly });
            }}
          >
            <input
              className="input"
              placeholder={ta('audit.actorFilter')}
              value={actor}
              data-testid="audit-actor"
              onChange={(e) => setActor(e.target.value)}
            />
            <select
              className="input"
              value={module}
              onChange={(e) => setModule(e.target.value)}
              aria-label={ta('audit.module')}
            >
              <option value="">{`${ta('audit.module')}: ${ta('admin.all')}`}</option>
              {modules.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
            <input
              className="input"
              data-testid="audit-route"
              placeholder={ta('audit.routeFilter')}
              value={route}
              onChange={(e) => setRoute(e.target.value)}
            />
            <label className="admin-check">
              <input type="checkbox" checked={failedOnly} onChange={(e) => setFailedOnly(e.target.checked)} />
              {ta('audit.failedOnly')}
            </label>
            <button type="submit" className="btn btn-primary btn-sm" data-testid="audit-search">
              {ta('admin.search')}
            </button>
          </form>
          <Table
            rowKey={(r) => r.id}
            rows={data?.list ?? []}
            loading={busy}
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
                  <span className={`admin-pill ${r.code === 0 ? 'ok' : 'danger'}`}>
                    {r.code === 0 ? ta('audit.ok') : ta('audit.failed', { code: r.code })}
                  </span>
                ),
                width: 100,
              },
            ]}
          />
          <div className="admin-foot">
            <span className="admin-muted">{ta('admin.total', { n: data?.total ?? 0 })}</span>
            <Pager page={page} pages={Math.ceil((data?.total ?? 0) / 20)} go={setPage} />
          </div>
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
