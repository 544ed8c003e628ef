/**
 * /index/tomokage — digital humans (issue 24): the user's own rigged characters. Upload (FBX, GLB/glTF, VRM;
 * checked by the server) → the card with the two pictures the server rendered, the naming scheme, rest pose and
 * how many canonical joints were mapped → open it: the mapping editor (every canonical joint with a bone picker,
 * how each was found, required joints marked; save or map automatically again), apply one of my finished motions
 * (captures and dances), the 3D preview (rest pose, then the applied motion on the character's own mesh and
 * materials), downloads (FBX, GLB, VRMA for VRM characters, all as a zip). Star, search, delete.
 */

import type {
  Deleted,
  Page,
  Tomokage,
  TomokageApply,
  TomokageDetail,
  TomokageDownload,
  TomokageMotion,
  TomokagePictures,
  TomokageUrls,
} from '@mocap/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Icon, IconTextButton } from '../components/Icon.tsx';
import { ListState } from '../components/ListState.tsx';
import { Confirm, Modal } from '../components/Modal.tsx';
import { jointLabel, tomokageEn, tomokageZh } from '../i18n/tomokage.ts';
import { api, upload } from '../lib/api.ts';
import { getLang, translate } from '../lib/i18n.ts';
import { toast } from '../lib/messages.ts';
import { planOf } from '../lib/plans.ts';
import { useSession } from '../lib/session.tsx';
import { GltfViewer } from '../three/GltfViewer.ts';
import '../styles/studio.css';
import '../styles/tomokage.css';
import { saveUrl } from '../components/DownloadDialog.tsx';
import { Tabs } from '../components/Tabs.tsx';
import { useBusy } from '../lib/busy.ts';
import { useViewerIn } from '../three/useViewer.ts';

export function tt(key: keyof typeof tomokageEn, vars?: Record<string, string | number>): string {
  return translate(tomokageEn, tomokageZh, key, vars);
}

/** The server's limits by plan (modules/tomokage/service.ts CHARACTER_LIMITS). */
const LIMITS: Record<string, { mb: number; n: number }> = {
  free: { mb: 30, n: 3 },
  monthly: { mb: 100, n: 20 },
  yearly: { mb: 200, n: 100 },
};

/** The digital human's card, its detail, an applied motion and a motion to apply, as `/tomokage/*` answers them. */
export type TomoCard = Tomokage;
type Apply = TomokageApply;
type Detail = TomokageDetail;

const FORMAT_LABEL: Record<string, string> = {
  fbx: 'FBX',
  'fbx-ascii': 'FBX (ASCII)',
  glb: 'GLB',
  gltf: 'glTF',
  vrm0: 'VRM 0.x',
  vrm1: 'VRM 1.0',
};
const SCHEME_LABEL: Record<string, string> = {
  mixamo: 'Mixamo',
  ue4: 'Unreal 4',
  ue5: 'Unreal 5',
  cc: 'CC / iClone',
  biped: 'Biped',
  r15: 'Roblox R15',
  unity: 'Unity',
  mmd: 'MMD',
  vroid: 'VRoid',
  vrm0: 'VRM humanoid',
  vrm1: 'VRM humanoid',
  c4d: 'Cinema 4D',
};

const poseLabel = (p: TomoCard['restPose']) =>
  !p
    ? ''
    : p.kind === 'A'
      ? tt('tomo.poseA', { deg: Math.round(p.armDownDeg) })
      : tt('tomo.pose', { kind: p.kind });

/** The card's two pictures (signed URLs fetched per card). */
function Pictures({ id }: { id: number }) {
  const [urls, setUrls] = useState<TomokagePictures | null>(null);
  useEffect(() => {
    let live = true;
    api
      .get<TomokagePictures>(`/tomokage/pictures/${id}`, {
        silent: true,
      })
      .then((u) => live && setUrls(u))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [id]);
  return (
    <div className="tomo-pics">
      {urls?.front && <img src={urls.front} alt={tt('tomo.front')} data-testid="tomo-front" />}
      {urls?.threeQuarter && (
        <img src={urls.threeQuarter} alt={tt('tomo.threeQuarter')} data-testid="tomo-tq" />
      )}
    </div>
  );
}

function groupOf(joint: string): 'body' | 'left' | 'right' {
  if (/^(left|right)(Thumb|Index|Middle|Ring|Pinky)\d$/.test(joint))
    return joint.startsWith('left') ? 'left' : 'right';
  return 'body';
}

function MappingEditor({ d, onSaved }: { d: Detail; onSaved: (d: Detail) => void }) {
  const [m, setM] = useState<Record<string, string>>(d.mapping);
  const [busy, whileBusy] = useBusy();
  useEffect(() => setM(d.mapping), [d.mapping]);
  const bones = useMemo(() => d.bones.map((b) => b.name), [d.bones]);
  // A namespace most bones share (Mixamo's "mixamorig:") is left out of the labels; values keep full names.
  const ns = useMemo(() => {
    const counts = new Map<string, number>();
    for (const b of bones) {
      const k = b.includes(':') ? b.slice(0, b.indexOf(':') + 1) : '';
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const [top, n] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
    return top && n >= bones.length * 0.8 ? top : '';
  }, [bones]);
  const label = (b: string) => (ns && b.startsWith(ns) ? b.slice(ns.length) : b);
  const dirty = JSON.stringify(m) !== JSON.stringify(d.mapping);
  const save = async (auto: boolean) => {
    await whileBusy(async () => {
      const r = await api.post<Detail>(`/tomokage/redone/${d.id}`, auto ? undefined : { mapping: m });
      onSaved(r);
      toast.success(tt('tomo.mapping.saved'));
    });
  };
  const groups: ('body' | 'left' | 'right')[] = ['body', 'left', 'right'];
  return (
    <div className="tomo-mapping" data-testid="tomo-mapping">
      <p className="tomo-note">{tt('tomo.mapping.lead')}</p>
      <div className="tomo-mapping-groups">
        {groups.map((g) => (
          <fieldset key={g} className="tomo-mapping-group">
            <legend>{tt(`tomo.mapping.group.${g}` as keyof typeof tomokageEn)}</legend>
            {d.joints
              .filter((j) => groupOf(j) === g)
              .map((j) => {
                const absent = !m[j] && d.absent.includes(j);
                const method = absent
                  ? 'absent'
                  : d.mapping[j] === m[j]
                    ? d.method[j]
                    : m[j]
                      ? 'user'
                      : undefined;
                return (
                  <label key={j} className={`tomo-joint${m[j] ? '' : absent ? ' absent' : ' missing'}`}>
                    <span className="tomo-joint-name" title={j}>
                      {jointLabel(j, getLang() === 'zh' ? 'zh' : 'en')}
                      {d.required.includes(j) ? ' *' : ''}
                    </span>
                    <select
                      data-joint={j}
                      title={m[j] ?? ''}
                      value={m[j] ?? ''}
                      onChange={(e) => {
                        const v = e.target.value;
                        setM((o) => {
                          const n = { ...o };
                          if (v) n[j] = v;
                          else delete n[j];
                          return n;
                        });
                      }}
                    >
                      <option value="">{tt('tomo.mapping.none')}</option>
                      {bones.map((b) => (
                        <option key={b} value={b}>
                          {label(b)}
                        </option>
                      ))}
                    </select>
                    {method && (
                      <span
                        className={`chip tomo-method tomo-method-${method}`}
                        title={absent ? tt('tomo.absentHint') : undefined}
                      >
                        {tt(`tomo.method.${method}` as keyof typeof tomokageEn)}
                      </span>
                    )}
                  </label>
                );
              })}
          </fieldset>
        ))}
      </div>
      <div className="tomo-actions">
        <IconTextButton
          icon="redo"
          size={16}
          className="btn"
          disabled={busy}
          action="tomo-automap"
          onClick={() => void save(true)}
        >
          {tt('tomo.mapping.auto')}
        </IconTextButton>
        <IconTextButton
          icon="check"
          size={16}
          className="btn btn-primary"
          disabled={busy || !dirty}
          action="tomo-save-mapping"
          onClick={() => void save(false)}
        >
          {tt('tomo.mapping.save')}
        </IconTextButton>
      </div>
    </div>
  );
}

function ApplyPanel({
  d,
  onApplied,
  onPreview,
}: {
  d: Detail;
  onApplied: () => void;
  onPreview: (a: Apply) => void;
}) {
  const [motions, setMotions] = useState<TomokageMotion[] | null>(null);
  const [pick, setPick] = useState('');
  const [busy, whileBusy] = useBusy();
  useEffect(() => {
    api
      .get<TomokageMotion[]>('/tomokage/motions')
      .then((list) => {
        setMotions(list);
        if (list[0]) setPick(`${list[0].kind}:${list[0].id}`);
      })
      .catch(() => setMotions([]));
  }, []);
  const go = async () => {
    const [kind, id] = pick.split(':');
    await whileBusy(async () => {
      const a = await api.post<Apply>(`/tomokage/apply/${d.id}`, { kind, id: Number(id) });
      toast.success(tt('tomo.apply.done', { name: a.name }));
      onApplied();
      onPreview(a);
    });
  };
  const download = async (a: Apply, format: string) => {
    try {
      const r = await api.get<TomokageDownload>(
        format === 'zip' ? `/tomokage/zip/${a.id}` : `/tomokage/download/${a.id}/${format}`,
      );
      if (r.paths[0]) saveUrl(r.paths[0]);
    } catch {
      /* shown */
    }
  };
  return (
    <div className="tomo-apply" data-testid="tomo-apply">
      {motions === null ? (
        <div className="spinner" />
      ) : motions.length === 0 ? (
        <p className="tomo-note">{tt('tomo.apply.none')}</p>
      ) : (
        <div className="tomo-apply-row">
          <label>
            <span>{tt('tomo.apply.pick')}</span>
            <select value={pick} onChange={(e) => setPick(e.target.value)} data-testid="tomo-motion">
              {motions.map((m) => (
                <option key={`${m.kind}:${m.id}`} value={`${m.kind}:${m.id}`}>
                  {m.name} · {tt(`tomo.kind.${m.kind}`)} · {m.duration.toFixed(1)}s
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy || !pick}
            onClick={() => void go()}
            data-action="tomo-apply"
          >
            {busy ? tt('tomo.apply.busy') : tt('tomo.apply.go')}
          </button>
        </div>
      )}
      {d.applies.length > 0 && (
        <div className="tomo-applies">
          <div className="tomo-sub">{tt('tomo.apply.list')}</div>
          {d.applies.map((a) => (
            <div className="tomo-applied" key={a.id} data-testid="tomo-applied" data-apply-id={a.id}>
              <span className="tomo-applied-name">
                {a.name}{' '}
                <span className="chip">{tt(`tomo.kind.${a.sourceKind}` as keyof typeof tomokageEn)}</span>{' '}
                {a.duration.toFixed(1)}s{a.charged > 0 ? ` · ${a.charged} V` : ''}
              </span>
              <IconTextButton icon="playOn" action="tomo-preview" onClick={() => onPreview(a)}>
                {tt('tomo.apply.preview')}
              </IconTextButton>
              {a.formats.map((f) => (
                <IconTextButton
                  key={f}
                  icon="download"
                  action={`tomo-download-${f}`}
                  onClick={() => void download(a, f)}
                >
                  {f.toUpperCase()}
                </IconTextButton>
              ))}
              <button
                type="button"
                className="btn btn-sm btn-ghost"
                onClick={() => void download(a, 'zip')}
                data-action="tomo-download-zip"
              >
                {tt('tomo.apply.zip')}
              </button>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

function Stage({ id, apply }: { id: number; apply: Apply | null }) {
  const holder = useRef<HTMLDivElement>(null);
  const viewer = useRef<GltfViewer | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [animated, setAnimated] = useState(false);
  useViewerIn(
    holder,
    viewer,
    (el) => new GltfViewer(el),
    () => setState('error'),
  );
  useEffect(() => {
    let live = true;
    setState('loading');
    api
      .get<TomokageUrls>(`/tomokage/cos_url/${id}`, {
        query: apply ? { applyId: apply.id } : undefined,
      })
      .then(async (u) => {
        const url = apply ? u.animated : u.preview;
        if (!url || !viewer.current) throw new Error('no model');
        const r = await viewer.current.load(url);
        if (!live) return;
        setAnimated(r.animated);
        setState('ready');
      })
      .catch(() => live && setState('error'));
    return () => {
      live = false;
    };
  }, [id, apply]);
  return (
    <div className="tomo-stage-wrap">
      <div
        className="tomo-stage"
        ref={holder}
        data-testid="tomo-stage"
        data-state={state}
        data-animated={animated}
      >
        {state === 'loading' && <div className="spinner" />}
        {state === 'error' && <div className="card-fail">{tt('tomo.preview.error')}</div>}
      </div>
      <div className="tomo-stage-label">
        {apply ? tt('tomo.preview.playing', { name: apply.name }) : tt('tomo.preview.rest')}
      </div>
    </div>
  );
}

function CharacterDialog({
  id,
  onClose,
  onChanged,
}: {
  id: number;
  onClose: () => void;
  onChanged: () => void;
}) {
  const [d, setD] = useState<Detail | null>(null);
  const [tab, setTab] = useState<'mapping' | 'apply'>('mapping');
  const [playing, setPlaying] = useState<Apply | null>(null);
  const load = useCallback(async () => {
    try {
      setD(await api.get<Detail>(`/tomokage/${id}`));
    } catch {
      onClose();
    }
  }, [id, onClose]);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <Modal open title={d?.name ?? ''} onClose={onClose} width={1320} className="tomo-dialog">
      {!d ? (
        <div className="spinner" />
      ) : (
        <div className="tomo-dialog-body">
          <div className="tomo-left">
            <Stage id={d.id} apply={playing} />
            <div className="card-meta">
              <span className="chip">{FORMAT_LABEL[d.format] ?? d.format}</span>
              <span className="chip">{SCHEME_LABEL[d.scheme] ?? tt('tomo.scheme.unknown')}</span>
              <span className="chip">{poseLabel(d.restPose)}</span>
              {d.height !== null && <span>{tt('tomo.height', { h: d.height.toFixed(2) })}</span>}
              {d.stats && (
                <span>
                  {tt('tomo.meta', {
                    b: d.stats.bones,
                    v: d.stats.vertices.toLocaleString(),
                    m: d.stats.materials,
                  })}
                </span>
              )}
            </div>
            {d.warnings.length > 0 && (
              <details className="tomo-warnings">
                <summary>{tt('tomo.warnings')}</summary>
                <ul>
                  {d.warnings.map((w) => (
                    <li key={w}>{w}</li>
                  ))}
                </ul>
              </details>
            )}
          </div>
          <div className="tomo-right">
            <Tabs
              keys={['mapping', 'apply'] as const}
              current={tab}
              label={(k) => tt(k === 'mapping' ? 'tomo.tab.mapping' : 'tomo.tab.apply')}
              pick={setTab}
              tagged
            />
            {tab === 'mapping' ? (
              <MappingEditor
                d={d}
                onSaved={(n) => {
                  setD(n);
                  onChanged();
                }}
              />
            ) : (
              <ApplyPanel d={d} onApplied={() => void load()} onPreview={setPlaying} />
            )}
          </div>
        </div>
      )}
    </Modal>
  );
}

export function TomokagePage() {
  const { user } = useSession();
  const plan = user ? planOf(user) : 'free';
  const lim = LIMITS[plan] ?? LIMITS.free;
  const [list, setList] = useState<TomoCard[]>([]);
  const [loading, setLoading] = useState(true);
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [sending, setSending] = useState<number | null>(null);
  const [keyword, setKeyword] = useState('');
  const [onlyStarred, setOnlyStarred] = useState(false);
  const [open, setOpen] = useState<number | null>(null);
  const [confirm, setConfirm] = useState<TomoCard | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const load = useCallback(async () => {
    try {
      const p = await api.post<Page<TomoCard>>(
        keyword.trim() ? '/tomokage/search' : '/tomokage/center',
        {
          page: 1,
          size: 60,
          ...(keyword.trim() ? { keyword: keyword.trim() } : {}),
          ...(onlyStarred ? { collected: true } : {}),
        },
        { silent: true },
      );
      setList(p.list);
    } catch {
      /* shown */
    } finally {
      setLoading(false);
    }
  }, [keyword, onlyStarred]);
  useEffect(() => {
    void load();
  }, [load]);

  const send = async () => {
    if (!file) return;
    const form = new FormData();
    if (name.trim()) form.append('name', name.trim());
    form.append('file', file);
    setSending(0);
    try {
      const card = await upload<TomoCard>('/tomokage/upload', form, (f) => setSending(Math.round(f * 100)))
        .promise;
      setFile(null);
      setName('');
      if (fileInput.current) fileInput.current.value = '';
      await load();
      setOpen(card.id);
    } catch {
      /* shown */
    } finally {
      setSending(null);
    }
  };
  const star = async (c: TomoCard) => {
    try {
      await api.post<TomoCard>(`/tomokage/collect/${c.id}`, { collect: !c.collected });
      await load();
    } catch {
      /* shown */
    }
  };
  const remove = async () => {
    if (!confirm) return;
    const c = confirm;
    setConfirm(null);
    try {
      await api.del<Deleted>('/tomokage', { ids: [c.id] });
      await load();
    } catch {
      /* shown */
    }
  };

  return (
    <div className="tomo-page">
      <section className="tomo-hero">
        <div>
          <h1>{tt('tomo.title')}</h1>
          <p className="tomo-lead">{tt('tomo.lead')}</p>
          <p className="tomo-limits" data-testid="tomo-limits">
            {tt('tomo.limits', { mb: lim.mb, n: lim.n })}
          </p>
        </div>
        <form
          className="tomo-upload"
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          <label className="tomo-file">
            <Icon name="upload" size={20} />
            <span>{file ? file.name : tt('tomo.pick')}</span>
            <input
              ref={fileInput}
              type="file"
              accept=".fbx,.glb,.gltf,.vrm"
              data-testid="tomo-file"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </label>
          <input
            className="tomo-name"
            value={name}
            maxLength={32}
            placeholder={tt('tomo.name')}
            onChange={(e) => setName(e.target.value)}
          />
          <button
            type="submit"
            className="btn btn-primary"
            disabled={!file || sending !== null}
            data-action="tomo-upload"
          >
            {sending === null
              ? tt('tomo.upload')
              : sending < 100
                ? tt('tomo.uploading', { n: sending })
                : tt('tomo.processing')}
          </button>
        </form>
      </section>
      <div className="tomo-toolbar">
        <input
          className="tomo-search"
          value={keyword}
          placeholder={tt('tomo.search')}
          onChange={(e) => setKeyword(e.target.value)}
          data-testid="tomo-search"
        />
        <label className="tomo-starred">
          <input type="checkbox" checked={onlyStarred} onChange={(e) => setOnlyStarred(e.target.checked)} />
          {tt('tomo.collected')}
        </label>
      </div>
      <ListState loading={loading} empty={list.length === 0} icon="human" text={tt('tomo.empty')}>
        <div className="tomo-cards">
          {list.map((c) => (
            <article className="tomo-card" key={c.id} data-testid="tomo-card" data-tomo-id={c.id}>
              <button
                type="button"
                className="tomo-card-pics"
                onClick={() => setOpen(c.id)}
                aria-label={tt('tomo.open')}
              >
                <Pictures id={c.id} />
              </button>
              <div className="tomo-card-head">
                <div className="tomo-card-title" title={c.fileName}>
                  {c.name}
                </div>
                <button
                  type="button"
                  className={`icon-btn${c.collected ? ' on' : ''}`}
                  title={c.collected ? tt('tomo.uncollect') : tt('tomo.collect')}
                  aria-pressed={c.collected}
                  onClick={() => void star(c)}
                  data-action="tomo-star"
                >
                  <Icon name={c.collected ? 'starOn' : 'star'} size={18} />
                </button>
              </div>
              <div className="card-meta">
                <span className="chip">{FORMAT_LABEL[c.format] ?? c.format}</span>
                <span className="chip">{SCHEME_LABEL[c.scheme] ?? tt('tomo.scheme.unknown')}</span>
                <span className="chip">{poseLabel(c.restPose)}</span>
              </div>
              <div
                className={`tomo-mapped${c.missing.length ? ' partial' : ''}`}
                data-testid="tomo-mapped"
                title={c.absent.length ? tt('tomo.absentTitle', { list: c.absent.join(', ') }) : undefined}
              >
                {c.missing.length
                  ? tt('tomo.mappedSome', { n: c.mapped, m: c.missing.length })
                  : c.absent.length
                    ? tt('tomo.mappedAllAbsent', { n: c.mapped, a: c.absent.length })
                    : tt('tomo.mappedAll', { n: c.mapped })}
              </div>
              <div className="tomo-card-actions">
                <button
                  type="button"
                  className="btn btn-sm btn-primary"
                  onClick={() => setOpen(c.id)}
                  data-action="tomo-open"
                >
                  {tt('tomo.open')}
                </button>
                <IconTextButton
                  icon="trash"
                  className="btn btn-sm btn-ghost"
                  action="tomo-delete"
                  onClick={() => setConfirm(c)}
                >
                  {tt('tomo.delete')}
                </IconTextButton>
              </div>
            </article>
          ))}
        </div>
      </ListState>
      {open !== null && (
        <CharacterDialog id={open} onClose={() => setOpen(null)} onChanged={() => void load()} />
      )}
      {confirm && (
        <Confirm
          open
          title={tt('tomo.delete')}
          text={tt('tomo.deleteConfirm')}
          danger
          onCancel={() => setConfirm(null)}
          onOk={() => void remove()}
        />
      )}
    </div>
  );
}
