/** manageVideo, videoDownHistory, manageVideoTag and manageCompany (issue 21). */
import type { DownloadEntry as DownloadRow, VideoPreview, VideoAdmin as VideoRow } from '@mocap/contracts';
import { type ReactNode, useState } from 'react';
import { Modal } from '../../components/Modal.tsx';
import { type AdminKey, ta } from '../../i18n/admin.ts';
import { api } from '../../lib/api.ts';
import { AdminPage, type Column, Field, fmtDate, fmtTime, useLoad } from './Console.tsx';
import {
  act,
  Btn,
  Choice,
  ConfirmAct,
  EditDelete,
  FormDialog,
  type Level,
  LevelFields,
  ListPage,
  OkPill,
  type PageOf,
  searchBody,
  TextInput,
  thumbColumn,
  useFiltered,
  usePaged,
  validDays,
} from './kit.tsx';
import { type AdminUser, UserDetail } from './Users.tsx';

export function ManageVideoPage() {
  const [preview, setPreview] = useState<{ v: VideoRow; url: string } | null>(null);
  const [confirm, setConfirm] = useState<{ kind: 'rerun' | 'delete'; v: VideoRow } | null>(null);
  const paged = useFiltered({ keyword: '', status: '', feedback: '' }, (p, a) =>
    api.post<PageOf<VideoRow>>(
      '/admin/video/search',
      searchBody(p, { ...a, status: a.status ? Number(a.status) : undefined }),
    ),
  );
  const { reload, field } = paged;
  const run = (path: string, body: unknown) => act(() => api.post(path, body), reload);
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
    thumbColumn((v) => v.thumbnail, 72),
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
            <OkPill ok={v.feedbackStatus !== 0}>
              {ta(v.feedbackStatus ? 'video.feedbackHandled' : 'video.feedbackOpen')}
            </OkPill>{' '}
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
    <ListPage
      path="manageVideo"
      paged={paged}
      columns={columns}
      actions={(v, canWrite) => (
        <span className="admin-actions">
          <Btn
            label={ta('video.preview')}
            action="preview"
            onClick={async () => {
              try {
                const r = await api.get<VideoPreview>(`/admin/video/${v.id}/preview`);
                setPreview({ v, url: r.source });
              } catch {
                /* shown */
              }
            }}
          />
          {canWrite && v.feedback && (
            <Btn
              label={ta(v.feedbackStatus ? 'video.reopen' : 'video.markHandled')}
              action="feedback"
              onClick={() =>
                run('/admin/video/feedbackStatus', { id: v.id, status: v.feedbackStatus ? 0 : 1 })
              }
            />
          )}
          {canWrite && (v.inSquare || v.status === 2) && (
            <Btn
              label={ta(v.inSquare ? 'video.offSquare' : 'video.onSquare')}
              action="square"
              onClick={() => run('/admin/video/square', { id: v.id, flag: !v.inSquare })}
            />
          )}
          {canWrite && (v.status === 2 || v.status === 3) && (
            <Btn label={ta('video.rerun')} action="rerun" onClick={() => setConfirm({ kind: 'rerun', v })} />
          )}
          {canWrite && v.status !== 1 && (
            <Btn
              label={ta('admin.delete')}
              action="delete"
              danger
              onClick={() => setConfirm({ kind: 'delete', v })}
            />
          )}
        </span>
      )}
      actionsForAll
      csv="videos.csv"
      testId="video-table"
      onSearch={paged.search}
      filters={
        <>
          <TextInput wide {...field('keyword')} placeholder={ta('video.keyword')} testId="video-keyword" />
          <Choice
            {...field('status')}
            label={ta('video.status')}
            all
            options={['0', '1', '2', '3'].map((v) => [v, ta(`video.status.${v}` as AdminKey)] as const)}
          />
          <Choice
            {...field('feedback')}
            label={ta('video.feedback')}
            all
            options={[
              ['open', ta('video.feedbackOpen')],
              ['handled', ta('video.feedbackHandled')],
              ['any', ta('video.feedbackAny')],
            ]}
          />
        </>
      }
    >
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
      <ConfirmAct
        item={confirm}
        danger={confirm?.kind === 'delete'}
        title={confirm?.kind === 'delete' ? ta('admin.delete') : ta('video.rerun')}
        text={(c) =>
          c.kind === 'delete'
            ? ta('video.deleteConfirm', { name: c.v.name, email: c.v.email })
            : ta('video.rerunConfirm', { name: c.v.name })
        }
        close={() => setConfirm(null)}
        run={(c) =>
          c.kind === 'delete'
            ? api.post('/admin/video/delete', { ids: [c.v.id] })
            : api.post('/admin/video/rerun', { id: c.v.id })
        }
        after={reload}
      />
    </ListPage>
  );
}

const dayStart = (d: string) => (d ? new Date(`${d}T00:00:00`).getTime() : undefined);

function DateInput({ label, value, set }: { label: string; value: string; set: (v: string) => void }) {
  return (
    <label className="admin-check">
      {label}
      <input className="input admin-date" type="date" value={value} onChange={(e) => set(e.target.value)} />
    </label>
  );
}

export function VideoDownHistoryPage() {
  const paged = useFiltered({ keyword: '', from: '', to: '' }, (p, a) =>
    api.post<PageOf<DownloadRow> & { coins: number }>(
      '/admin/download/search',
      searchBody(
        p,
        {
          keyword: a.keyword,
          from: dayStart(a.from),
          to: a.to ? (dayStart(a.to) ?? 0) + 86_400_000 : undefined,
        },
        20,
      ),
    ),
  );
  const { data, field } = paged;
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
    <ListPage
      path="videoDownHistory"
      paged={paged}
      columns={columns}
      csv="downloads.csv"
      testId="download-table"
      size={20}
      onSearch={paged.search}
      filters={
        <>
          <TextInput {...field('keyword')} placeholder={ta('download.keyword')} />
          <DateInput label={ta('audit.from')} {...field('from')} />
          <DateInput label={ta('audit.to')} {...field('to')} />
        </>
      }
      foot={
        <span className="admin-muted" data-testid="download-total">
          {ta('download.totalCoins', { n: data?.total ?? 0, coins: data?.coins ?? 0 })}
        </span>
      }
    />
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
            <Btn label={ta('tag.addChild')} onClick={() => setEdit({ parent: n })} />
            <EditDelete onEdit={() => setEdit({ node: n })} onDelete={() => setDel(n)} />
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
          <Btn
            primary
            label={ta('tag.addRoot')}
            testId={`${kind}-add`}
            onClick={() => setEdit({ parent: null })}
          />
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
      <ConfirmAct
        item={del}
        text={(n) => ta('tag.deleteConfirm', { name: n.name })}
        close={() => setDel(null)}
        run={(n) => api.del(`/category/${n.id}`)}
        after={reload}
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
    <FormDialog
      title={
        edit.node
          ? ta('tag.editTitle', { name: edit.node.name })
          : edit.parent
            ? ta('tag.newChildTitle', { name: edit.parent.name })
            : ta('tag.newTitle')
      }
      onClose={onClose}
      width={420}
      onOk={ok}
      busy={!name.trim() || name.length > 64}
    >
      <Field label="tag.name">
        <TextInput maxLength={64} value={name} set={setName} testId="tag-name" />
      </Field>
      <Field label="tag.sort">
        <TextInput type="number" value={sort} set={setSort} />
      </Field>
    </FormDialog>
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
  const [detail, setDetail] = useState<AdminUser | null>(null);
  const [level, setLevel] = useState<AdminUser | null>(null);
  const paged = usePaged('', (p, k) =>
    api.post<PageOf<AdminUser & { company: string | null; contact: string | null; emailNotice: boolean }>>(
      '/company/search',
      searchBody(p, { keyword: k }),
    ),
  );
  const { apply, data, reload } = paged;
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
    <ListPage
      path="manageCompany"
      paged={paged}
      columns={columns}
      actions={(u, canWrite) => (
        <span className="admin-actions">
          <Btn label={ta('user.detail')} onClick={() => setDetail(u)} />
          {canWrite && <Btn label={ta('user.setLevel')} onClick={() => setLevel(u)} />}
        </span>
      )}
      actionsForAll
      csv="companies.csv"
      testId="company-table"
      onSearch={() => apply(keyword.trim())}
      filters={<TextInput value={keyword} set={setKeyword} placeholder={ta('admin.keyword')} />}
    >
      {detail && <UserDetail u={detail} company onClose={() => setDetail(null)} />}
      {level && <CompanyLevel u={level} onClose={() => setLevel(null)} onDone={reload} />}
    </ListPage>
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
  const [level, setLevel] = useState<Level>(u.level === 'free' ? 'monthly' : u.level);
  const [days, setDays] = useState('30');
  const d = Number(days);
  return (
    <FormDialog
      title={ta('user.levelTitle', { email: u.email })}
      onClose={onClose}
      width={440}
      busy={!validDays(level, d)}
      onOk={() => {
        onClose();
        void act(
          () => api.put('/company/update/vip/level', { id: u.id, level, days: level === 'free' ? 0 : d }),
          onDone,
        );
      }}
    >
      <LevelFields level={level} setLevel={setLevel} days={days} setDays={setDays} />
    </FormDialog>
  );
}
