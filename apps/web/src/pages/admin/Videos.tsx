/** manageVideo, videoDownHistory, manageVideoTag and manageCompany (issue 21). */
import { type ReactNode, useState } from 'react';
import { Confirm, Modal, ModalButtons } from '../../components/Modal.tsx';
import { Pager } from '../../components/Pager.tsx';
import { type AdminKey, ta } from '../../i18n/admin.ts';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/messages.ts';
import { AdminPage, type Column, ExportButton, Field, fmtDate, fmtTime, Table, useLoad } from './Console.tsx';
import { type AdminUser, UserDetail } from './Users.tsx';

interface VideoRow {
  id: number;
  name: string;
  serialNo: string;
  userId: number;
  email: string;
  status: number;
  progress: number;
  error: string | null;
  inSquare: boolean;
  durationMs: number;
  boneType: string;
  downloads: number;
  feedback: string | null;
  feedbackStatus: number;
  thumbnail: string | null;
  createdAt: number;
}

const SIZE = 15;
const act = async (fn: () => Promise<unknown>, after: () => Promise<void>) => {
  try {
    await fn();
    toast.success(ta('admin.done'));
    await after();
  } catch {
    /* shown */
  }
};

export function ManageVideoPage() {
  const [keyword, setKeyword] = useState('');
  const [status, setStatus] = useState('');
  const [feedback, setFeedback] = useState('');
  const [applied, setApplied] = useState({ keyword: '', status: '', feedback: '' });
  const [page, setPage] = useState(1);
  const [preview, setPreview] = useState<{ v: VideoRow; url: string } | null>(null);
  const [confirm, setConfirm] = useState<{ kind: 'rerun' | 'delete'; v: VideoRow } | null>(null);
  const [data, reload, busy] = useLoad(
    () =>
      api.post<{ list: VideoRow[]; total: number }>('/admin/video/search', {
        page,
        size: SIZE,
        ...(applied.keyword ? { keyword: applied.keyword } : {}),
        ...(applied.status ? { status: Number(applied.status) } : {}),
        ...(applied.feedback ? { feedback: applied.feedback } : {}),
      }),
    [page, applied],
  );
  const statusPill = (v: VideoRow) => (
    <span
      className={`admin-pill ${v.status === 2 ? 'ok' : v.status === 3 ? 'danger' : ''}`}
      title={v.error ?? undefined}
    >
      {ta(`video.status.${v.status}` as AdminKey)}
      {v.status === 1 ? ` ${v.progress}%` : ''}
    </span>
  );
  const columns: Column<VideoRow>[] = [
    {
      key: 'thumb',
      title: '',
      width: 72,
      csv: () => null,
      render: (v) =>
        v.thumbnail ? (
          <img className="admin-thumb" src={v.thumbnail} alt="" />
        ) : (
          <span className="admin-thumb" />
        ),
    },
    { key: 'id', title: 'ID', render: (v) => v.id, width: 56 },
    { key: 'name', title: ta('video.name'), render: (v) => v.name },
    { key: 'owner', title: ta('video.owner'), render: (v) => v.email },
    {
      key: 'status',
      title: ta('video.status'),
      render: statusPill,
      csv: (v) => ta(`video.status.${v.status}` as AdminKey),
    },
    {
      key: 'len',
      title: ta('video.duration'),
      render: (v) => `${(v.durationMs / 1000).toFixed(1)} s`,
      align: 'right',
    },
    { key: 'bone', title: ta('video.boneType'), render: (v) => v.boneType },
    { key: 'sq', title: ta('video.square'), render: (v) => ta(v.inSquare ? 'admin.yes' : 'admin.no') },
    {
      key: 'fb',
      title: ta('video.feedback'),
      render: (v) =>
        v.feedback ? (
          <span className="admin-feedback" title={v.feedback}>
            <span className={`admin-pill ${v.feedbackStatus ? 'ok' : 'danger'}`}>
              {ta(v.feedbackStatus ? 'video.feedbackHandled' : 'video.feedbackOpen')}
            </span>{' '}
            {v.feedback}
          </span>
        ) : (
          '—'
        ),
      csv: (v) => v.feedback ?? '',
    },
    { key: 'dl', title: ta('video.downloads'), render: (v) => v.downloads, align: 'right' },
    { key: 'c', title: ta('admin.created'), render: (v) => fmtTime(v.createdAt) },
  ];
  return (
    <AdminPage path="manageVideo">
      {(canWrite) => (
        <>
          <form
            className="admin-filters"
            onSubmit={(e) => {
              e.preventDefault();
              setPage(1);
              setApplied({ keyword: keyword.trim(), status, feedback });
            }}
          >
            <input
              className="input admin-wide"
              placeholder={ta('video.keyword')}
              value={keyword}
              data-testid="video-keyword"
              onChange={(e) => setKeyword(e.target.value)}
            />
            <select
              className="input"
              value={status}
              onChange={(e) => setStatus(e.target.value)}
              aria-label={ta('video.status')}
            >
              <option value="">{`${ta('video.status')}: ${ta('admin.all')}`}</option>
              {[0, 1, 2, 3].map((s) => (
                <option key={s} value={s}>
                  {ta(`video.status.${s}` as AdminKey)}
                </option>
              ))}
            </select>
            <select
              className="input"
              value={feedback}
              onChange={(e) => setFeedback(e.target.value)}
              aria-label={ta('video.feedback')}
            >
              <option value="">{`${ta('video.feedback')}: ${ta('admin.all')}`}</option>
              <option value="open">{ta('video.feedbackOpen')}</option>
              <option value="handled">{ta('video.feedbackHandled')}</option>
              <option value="any">{ta('video.feedbackAny')}</option>
            </select>
            <button type="submit" className="btn btn-primary btn-sm">
              {ta('admin.search')}
            </button>
            <span className="admin-grow" />
            <ExportButton name="videos.csv" columns={columns} rows={data?.list ?? []} />
          </form>
          <Table
            rowKey={(v) => v.id}
            rows={data?.list ?? []}
            loading={busy}
            testId="video-table"
            columns={[
              ...columns,
              {
                key: 'a',
                title: ta('admin.actions'),
                render: (v) => (
                  <span className="admin-actions">
                    <button
                      type="button"
                      className="btn btn-sm"
                      data-action="preview"
                      onClick={async () => {
                        try {
                          const r = await api.get<{ source: string }>(`/admin/video/${v.id}/preview`);
                          setPreview({ v, url: r.source });
                        } catch {
                          /* shown */
                        }
                      }}
                    >
                      {ta('video.preview')}
                    </button>
                    {canWrite && v.feedback && (
                      <button
                        type="button"
                        className="btn btn-sm"
                        data-action="feedback"
                        onClick={() =>
                          act(
                            () =>
                              api.post('/admin/video/feedbackStatus', {
                                id: v.id,
                                status: v.feedbackStatus ? 0 : 1,
                              }),
                            reload,
                          )
                        }
                      >
                        {ta(v.feedbackStatus ? 'video.reopen' : 'video.markHandled')}
                      </button>
                    )}
                    {canWrite && (v.inSquare || v.status === 2) && (
                      <button
                        type="button"
                        className="btn btn-sm"
                        data-action="square"
                        onClick={() =>
                          act(() => api.post('/admin/video/square', { id: v.id, flag: !v.inSquare }), reload)
                        }
                      >
                        {ta(v.inSquare ? 'video.offSquare' : 'video.onSquare')}
                      </button>
                    )}
                    {canWrite && (v.status === 2 || v.status === 3) && (
                      <button
                        type="button"
                        className="btn btn-sm"
                        data-action="rerun"
                        onClick={() => setConfirm({ kind: 'rerun', v })}
                      >
                        {ta('video.rerun')}
                      </button>
                    )}
                    {canWrite && v.status !== 1 && (
                      <button
                        type="button"
                        className="btn btn-sm btn-danger"
                        data-action="delete"
                        onClick={() => setConfirm({ kind: 'delete', v })}
                      >
                        {ta('admin.delete')}
                      </button>
                    )}
                  </span>
                ),
              },
            ]}
          />
          <div className="admin-foot">
            <span className="admin-muted">{ta('admin.total', { n: data?.total ?? 0 })}</span>
            <Pager page={page} pages={Math.ceil((data?.total ?? 0) / SIZE)} go={setPage} />
          </div>
          {preview && (
            <Modal
              open
              title={`${preview.v.name} · ${preview.v.email}`}
              onClose={() => setPreview(null)}
              width={820}
            >
              <video className="admin-video" src={preview.url} controls autoPlay muted />
            </Modal>
          )}
          <Confirm
            open={!!confirm}
            danger={confirm?.kind === 'delete'}
            title={confirm?.kind === 'delete' ? ta('admin.delete') : ta('video.rerun')}
            text={
              confirm
                ? confirm.kind === 'delete'
                  ? ta('video.deleteConfirm', { name: confirm.v.name, email: confirm.v.email })
                  : ta('video.rerunConfirm', { name: confirm.v.name })
                : ''
            }
            onCancel={() => setConfirm(null)}
            onOk={() => {
              const c = confirm!;
              setConfirm(null);
              void act(
                () =>
                  c.kind === 'delete'
                    ? api.post('/admin/video/delete', { ids: [c.v.id] })
                    : api.post('/admin/video/rerun', { id: c.v.id }),
                reload,
              );
            }}
          />
        </>
      )}
    </AdminPage>
  );
}

interface DownloadRow {
  id: number;
  videoId: number;
  videoName: string;
  userId: number;
  email: string;
  boneType: string;
  kind: string;
  coins: number;
  createdAt: number;
}

const dayStart = (d: string) => (d ? new Date(`${d}T00:00:00`).getTime() : undefined);

export function VideoDownHistoryPage() {
  const [keyword, setKeyword] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [applied, setApplied] = useState({ keyword: '', from: '', to: '' });
  const [page, setPage] = useState(1);
  const [data, , busy] = useLoad(
    () =>
      api.post<{ list: DownloadRow[]; total: number; coins: number }>('/admin/download/search', {
        page,
        size: 20,
        ...(applied.keyword ? { keyword: applied.keyword } : {}),
        ...(applied.from ? { from: dayStart(applied.from) } : {}),
        ...(applied.to ? { to: (dayStart(applied.to) ?? 0) + 86_400_000 } : {}),
      }),
    [page, applied],
  );
  const columns: Column<DownloadRow>[] = [
    { key: 't', title: ta('user.time'), render: (r) => fmtTime(r.createdAt) },
    { key: 'e', title: ta('user.email'), render: (r) => r.email },
    { key: 'v', title: ta('video.name'), render: (r) => `${r.videoName} (#${r.videoId})` },
    { key: 'b', title: ta('video.boneType'), render: (r) => r.boneType },
    {
      key: 'k',
      title: ta('download.kind'),
      render: (r) =>
        ['own', 'square', 'lower', 'bulk'].includes(r.kind)
          ? ta(`download.kind.${r.kind}` as AdminKey)
          : r.kind,
    },
    { key: 'c', title: ta('download.coins'), render: (r) => r.coins, align: 'right' },
  ];
  return (
    <AdminPage path="videoDownHistory">
      {() => (
        <>
          <form
            className="admin-filters"
            onSubmit={(e) => {
              e.preventDefault();
              setPage(1);
              setApplied({ keyword: keyword.trim(), from, to });
            }}
          >
            <input
              className="input"
              placeholder={ta('download.keyword')}
              value={keyword}
              onChange={(e) => setKeyword(e.target.value)}
            />
            <label className="admin-check">
              {ta('audit.from')}
              <input
                className="input admin-date"
                type="date"
                value={from}
                onChange={(e) => setFrom(e.target.value)}
              />
            </label>
            <label className="admin-check">
              {ta('audit.to')}
              <input
                className="input admin-date"
                type="date"
                value={to}
                onChange={(e) => setTo(e.target.value)}
              />
            </label>
            <button type="submit" className="btn btn-primary btn-sm">
              {ta('admin.search')}
            </button>
            <span className="admin-grow" />
            <ExportButton name="downloads.csv" columns={columns} rows={data?.list ?? []} />
          </form>
          <Table
            rowKey={(r) => r.id}
            rows={data?.list ?? []}
            loading={busy}
            testId="download-table"
            columns={columns}
          />
          <div className="admin-foot">
            <span className="admin-muted" data-testid="download-total">
              {ta('download.totalCoins', { n: data?.total ?? 0, coins: data?.coins ?? 0 })}
            </span>
            <Pager page={page} pages={Math.ceil((data?.total ?? 0) / 20)} go={setPage} />
          </div>
        </>
      )}
    </AdminPage>
  );
}

interface TagNode {
  id: number;
  parentId: number | null;
  kind: 'category' | 'tag';
  name: string;
  sort: number;
  children: TagNode[];
}

function TagTree({ kind, canWrite }: { kind: 'category' | 'tag'; canWrite: boolean }) {
  const [tree, reload, busy] = useLoad(() => api.post<TagNode[]>(`/${kind}/search`, {}), [kind]);
  const [edit, setEdit] = useState<{ node?: TagNode; parent?: TagNode | null } | null>(null);
  const [del, setDel] = useState<TagNode | null>(null);
  const rows = (nodes: TagNode[], depth: number): ReactNode[] =>
    nodes.flatMap((n) => [
      <div key={n.id} className="admin-tree-row" style={{ paddingLeft: 12 + depth * 22 }} data-node={n.name}>
        <span className="admin-tree-name">
          {depth > 0 && <span className="admin-muted">└ </span>}
          {n.name}
        </span>
        <span className="admin-muted">
          {ta('tag.sort')} {n.sort}
        </span>
        {canWrite && (
          <span className="admin-actions">
            <button type="button" className="btn btn-sm" onClick={() => setEdit({ parent: n })}>
              {ta('tag.addChild')}
            </button>
            <button type="button" className="btn btn-sm" onClick={() => setEdit({ node: n })}>
              {ta('admin.edit')}
            </button>
            <button type="button" className="btn btn-sm btn-danger" onClick={() => setDel(n)}>
              {ta('admin.delete')}
            </button>
          </span>
        )}
      </div>,
      ...rows(n.children, depth + 1),
    ]);
  return (
    <section className="admin-card">
      <div className="admin-card-head">
        <h2>{ta(kind === 'tag' ? 'tag.tags' : 'tag.categories')}</h2>
        {canWrite && (
          <button
            type="button"
            className="btn btn-primary btn-sm"
            data-testid={`${kind}-add`}
            onClick={() => setEdit({ parent: null })}
          >
            {ta('tag.addRoot')}
          </button>
        )}
      </div>
      <div className="admin-tree" data-testid={`${kind}-tree`}>
        {(tree ?? []).length === 0 ? (
          <div className="admin-empty-box">{busy ? ta('admin.loading') : ta('admin.none')}</div>
        ) : (
          rows(tree ?? [], 0)
        )}
      </div>
      {edit && <TagDialog kind={kind} edit={edit} onClose={() => setEdit(null)} onDone={reload} />}
      <Confirm
        open={!!del}
        danger
        title={ta('admin.delete')}
        text={ta('tag.deleteConfirm', { name: del?.name ?? '' })}
        onCancel={() => setDel(null)}
        onOk={() => {
          const n = del!;
          setDel(null);
          void act(() => api.del(`/category/${n.id}`), reload);
        }}
      />
    </section>
  );
}

function TagDialog({
  kind,
  edit,
  onClose,
  onDone,
}: {
  kind: 'category' | 'tag';
  edit: { node?: TagNode; parent?: TagNode | null };
  onClose: () => void;
  onDone: () => Promise<void>;
}) {
  const [name, setName] = useState(edit.node?.name ?? '');
  const [sort, setSort] = useState(String(edit.node?.sort ?? 0));
  const ok = () => {
    onClose();
    void act(
      () =>
        edit.node
          ? api.put('/category', { id: edit.node.id, name: name.trim(), sort: Number(sort) || 0 })
          : api.post('/category', {
              name: name.trim(),
              sort: Number(sort) || 0,
              kind,
              parentId: edit.parent?.id ?? null,
            }),
      onDone,
    );
  };
  return (
    <Modal
      open
      title={
        edit.node
          ? ta('tag.editTitle', { name: edit.node.name })
          : edit.parent
            ? ta('tag.newChildTitle', { name: edit.parent.name })
            : ta('tag.newTitle')
      }
      onClose={onClose}
      width={420}
      footer={
        <ModalButtons
          onCancel={onClose}
          onOk={ok}
          busy={!name.trim() || name.length > 64}
          okText={ta('admin.save')}
        />
      }
    >
      <Field label="tag.name">
        <input
          className="input"
          maxLength={64}
          value={name}
          data-testid="tag-name"
          onChange={(e) => setName(e.target.value)}
        />
      </Field>
      <Field label="tag.sort">
        <input className="input" type="number" value={sort} onChange={(e) => setSort(e.target.value)} />
      </Field>
    </Modal>
  );
}

export function ManageVideoTagPage() {
  return (
    <AdminPage path="manageVideoTag">
      {(canWrite) => (
        <div className="admin-grid2">
          <TagTree kind="category" canWrite={canWrite} />
          <TagTree kind="tag" canWrite={canWrite} />
        </div>
      )}
    </AdminPage>
  );
}

export function ManageCompanyPage() {
  const [keyword, setKeyword] = useState('');
  const [applied, setApplied] = useState('');
  const [page, setPage] = useState(1);
  const [detail, setDetail] = useState<AdminUser | null>(null);
  const [level, setLevel] = useState<AdminUser | null>(null);
  const [data, reload, busy] = useLoad(
    () =>
      api.post<{
        list: (AdminUser & { company: string | null; contact: string | null; emailNotice: boolean })[];
        total: number;
      }>('/company/search', { page, size: SIZE, ...(applied ? { keyword: applied } : {}) }),
    [page, applied],
  );
  type Co = NonNullable<typeof data>['list'][number];
  const columns: Column<Co>[] = [
    { key: 'id', title: 'ID', render: (u) => u.id, width: 56 },
    { key: 'e', title: ta('user.email'), render: (u) => u.email },
    { key: 'n', title: ta('company.name'), render: (u) => u.company || '—' },
    { key: 'c', title: ta('company.contact'), render: (u) => u.contact || '—' },
    { key: 'cv', title: ta('company.cv'), render: (u) => u.cvCoin, align: 'right' },
    { key: 'l', title: ta('user.level'), render: (u) => ta(`level.${u.level}` as AdminKey) },
    {
      key: 'x',
      title: ta('user.expires'),
      render: (u) => (u.level === 'free' ? '—' : fmtDate(u.vexpiredAt)),
    },
    { key: 'm', title: ta('company.notice'), render: (u) => ta(u.emailNotice ? 'admin.on' : 'admin.off') },
    { key: 'd', title: ta('admin.created'), render: (u) => fmtDate(u.createdAt) },
  ];
  return (
    <AdminPage path="manageCompany">
      {(canWrite) => (
        <>
          <form
            className="admin-filters"
            onSubmit={(e) => {
              e.preventDefault();
              setPage(1);
              setApplied(keyword.trim());
            }}
          >
            <input
              className="input"
              placeholder={ta('admin.keyword')}
              value={keyword}
              onChange={(e) => setKeyword(e.target.value)}
            />
            <button type="submit" className="btn btn-primary btn-sm">
              {ta('admin.search')}
            </button>
            <span className="admin-grow" />
            <ExportButton name="companies.csv" columns={columns} rows={data?.list ?? []} />
          </form>
          <Table
            rowKey={(u) => u.id}
            rows={data?.list ?? []}
            loading={busy}
            testId="company-table"
            columns={[
              ...columns,
              {
                key: 'a',
                title: ta('admin.actions'),
                render: (u) => (
                  <span className="admin-actions">
                    <button type="button" className="btn btn-sm" onClick={() => setDetail(u)}>
                      {ta('user.detail')}
                    </button>
                    {canWrite && (
                      <button type="button" className="btn btn-sm" onClick={() => setLevel(u)}>
                        {ta('user.setLevel')}
                      </button>
                    )}
                  </span>
                ),
              },
            ]}
          />
          <div className="admin-foot">
            <span className="admin-muted">{ta('admin.total', { n: data?.total ?? 0 })}</span>
            <Pager page={page} pages={Math.ceil((data?.total ?? 0) / SIZE)} go={setPage} />
          </div>
          {detail && <UserDetail u={detail} company onClose={() => setDetail(null)} />}
          {level && <CompanyLevel u={level} onClose={() => setLevel(null)} onDone={reload} />}
        </>
      )}
    </AdminPage>
  );
}

function CompanyLevel({
  u,
  onClose,
  onDone,
}: {
  u: AdminUser;
  onClose: () => void;
  onDone: () => Promise<void>;
}) {
  const [level, setLevel] = useState<AdminUser['level']>(u.level === 'free' ? 'monthly' : u.level);
  const [days, setDays] = useState('30');
  const d = Number(days);
  return (
    <Modal
      open
      title={ta('user.levelTitle', { email: u.email })}
      onClose={onClose}
      width={440}
      footer={
        <ModalButtons
          onCancel={onClose}
          busy={level !== 'free' && !(Number.isInteger(d) && d >= 1 && d <= 3650)}
          okText={ta('admin.save')}
          onOk={() => {
            onClose();
            void act(
              () => api.put('/company/update/vip/level', { id: u.id, level, days: level === 'free' ? 0 : d }),
              onDone,
            );
          }}
        />
      }
    >
      <Field label="user.level">
        <select
          className="input"
          value={level}
          onChange={(e) => setLevel(e.target.value as AdminUser['level'])}
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
