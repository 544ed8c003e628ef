/**
 * Company pages (issue 20): userDetailCompany (account, e-mail notices, API keys, webhooks and their delivery
 * log), recharge (CV packs through the company payment variants), consume (the CV ledger), tutorial (the API
 * guide whose curl steps the server suite runs).
 */

import type {
  ApiKey,
  CompanyNotice,
  CreatedKey,
  Delivery,
  LedgerEntry,
  Page,
  Webhook,
} from '@mocap/contracts';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { Pager } from '../components/Pager.tsx';
import { PayModal } from '../components/PayModal.tsx';
import { TableHead } from '../components/Tabs.tsx';
import { type CompanyKey, tc } from '../i18n/company.ts';
import { API_BASE, api } from '../lib/api.ts';
import {
  TUTORIAL_JS,
  TUTORIAL_PY,
  TUTORIAL_STEPS,
  TUTORIAL_TS,
  WEBHOOK_VERIFY_JS,
} from '../lib/companyTutorial.ts';
import { getLang } from '../lib/i18n.ts';
import { toast } from '../lib/messages.ts';
import { companyProducts, type Goods, yuan } from '../lib/pay.ts';
import { useSession } from '../lib/session.tsx';

const when = (ms: number | null): string =>
  ms ? new Date(ms).toLocaleString(getLang() === 'zh' ? 'zh-CN' : 'en-GB') : tc('co.keys.never');

/** The company endpoints' shapes are the contract's. */
type Notice = CompanyNotice;
/** `/company/surplus/record`: a page of the CV ledger with the balance. */
type LedgerPage = Page<LedgerEntry> & { balance: number };

/** A card of the company pages: its title, the lead under it (when there is one), then what it holds. */
function CoCard({
  title,
  lead,
  testId,
  children,
}: {
  title: string;
  lead?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <section className="panel co-card" data-testid={testId}>
      <h3>{title}</h3>
      {lead && <p className="muted">{lead}</p>}
      {children}
    </section>
  );
}

/** A table of the company page: its column heads (their text keys), a "none" row when it is empty, then its rows. */
function CoTable({ heads, empty, children }: { heads: CompanyKey[]; empty: boolean; children: ReactNode }) {
  return (
    <table className="price-table co-table">
      <TableHead heads={heads.map((k) => tc(k))} />
      <tbody>
        {empty && (
          <tr>
            <td colSpan={heads.length} className="muted">
              {tc('co.none')}
            </td>
          </tr>
        )}
        {children}
      </tbody>
    </table>
  );
}

function NoticeCard() {
  const [n, setN] = useState<Notice | null>(null);
  useEffect(() => {
    api
      .get<Notice>('/company/emailNotice')
      .then(setN)
      .catch(() => undefined);
  }, []);
  if (!n) return null;
  const save = async () => {
    setN(await api.put<Notice>('/company/emailNotice', { ...n, enabled: n.emailNotice }));
    toast.success(tc('co.saved'));
  };
  const box = (k: 'emailNotice' | 'made' | 'failed' | 'lowBalance', label: CompanyKey) => (
    <label className="co-check">
      <input
        type="checkbox"
        data-testid={`notice-${k}`}
        checked={n[k]}
        disabled={k !== 'emailNotice' && !n.emailNotice}
        onChange={(e) => setN({ ...n, [k]: e.target.checked })}
      />
      {tc(label)}
    </label>
  );
  return (
    <CoCard title={tc('co.notices')} testId="co-notices">
      <div className="co-row">
        {box('emailNotice', 'co.notice.all')}
        {box('made', 'co.notice.made')}
        {box('failed', 'co.notice.failed')}
        {box('lowBalance', 'co.notice.low')}
        <label className="co-check">
          {tc('co.notice.threshold')}
          <input
            type="number"
            min={0}
            className="input co-num"
            value={n.lowBalanceThreshold}
            onChange={(e) => setN({ ...n, lowBalanceThreshold: Math.max(0, Number(e.target.value) || 0) })}
          />
        </label>
        <button type="button" className="btn btn-primary btn-sm" onClick={() => void save()}>
          {tc('co.save')}
        </button>
      </div>
    </CoCard>
  );
}

/**
 * The operations of a read-only key (the server checks every name against the public API: a name it does not know
 * is refused): the account, status, lists and downloads — no upload, remake or delete.
 */
const READ_ONLY_ROUTES = [
  'GET /product/auth/company/info',
  'POST /product/company/surplus/record',
  'GET /product/company/emailNotice',
  'POST /product/video/queryVideoById',
  'POST /product/video/checkWaiting/{id}',
  'GET /product/video/progress/{id}',
  'POST /product/video/center',
  'GET /product/motion/boneTypes',
  'GET /product/motion/video/{id}',
  'GET /product/motion/download/{bodyType}/{id}/{boneType}',
];

const accessOf = (routes: string[] | null): string => {
  if (routes === null) return tc('co.keys.access.all');
  if (routes.length === READ_ONLY_ROUTES.length && READ_ONLY_ROUTES.every((r) => routes.includes(r)))
    return tc('co.keys.access.read');
  return tc('co.keys.access.n', { n: routes.length });
};

function KeysCard() {
  const [keys, setKeys] = useState<ApiKey[]>([]);
  const [name, setName] = useState('');
  const [rate, setRate] = useState(120);
  const [access, setAccess] = useState<'all' | 'read'>('all');
  const [shown, setShown] = useState<string | null>(null);
  const load = useCallback(() => api.get<ApiKey[]>('/company/apiKeys').then(setKeys), []);
  useEffect(() => {
    load().catch(() => undefined);
  }, [load]);
  const create = async () => {
    const k = await api.post<CreatedKey>('/company/apiKeys', {
      name: name.trim(),
      ratePerMinute: rate,
      routes: access === 'read' ? READ_ONLY_ROUTES : null,
    });
    setShown(k.key);
    setName('');
    setAccess('all');
    await load();
  };
  const revoke = async (id: number) => {
    if (!window.confirm(tc('co.keys.confirm'))) return;
    await api.del(`/company/apiKeys/${id}`);
    await load();
  };
  return (
    <CoCard title={tc('co.keys')} lead={tc('co.keys.lead')} testId="co-keys">
      <div className="co-row">
        <input
          className="input co-name"
          data-testid="key-name"
          placeholder={tc('co.keys.name')}
          maxLength={64}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <label className="co-check">
          {tc('co.keys.rate')}
          <input
            type="number"
            className="input co-num"
            min={1}
            max={600}
            value={rate}
            onChange={(e) => setRate(Math.min(600, Math.max(1, Number(e.target.value) || 1)))}
          />
        </label>
        <label className="co-check">
          {tc('co.keys.access')}
          <select
            className="input co-access"
            data-testid="key-access"
            value={access}
            onChange={(e) => setAccess(e.target.value === 'read' ? 'read' : 'all')}
          >
            <option value="all">{tc('co.keys.access.all')}</option>
            <option value="read">{tc('co.keys.access.read')}</option>
          </select>
        </label>
        <button
          type="button"
          className="btn btn-primary btn-sm"
          data-testid="key-create"
          disabled={!name.trim()}
          onClick={() => void create()}
        >
          {tc('co.keys.create')}
        </button>
      </div>
      {shown && (
        <div className="co-secret" data-testid="key-shown">
          <span>{tc('co.keys.shown')}</span>
          <code>{shown}</code>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => {
              void navigator.clipboard?.writeText(shown).then(() => toast.success(tc('co.keys.copied')));
            }}
          >
            {tc('co.keys.copy')}
          </button>
        </div>
      )}
      <CoTable
        heads={[
          'co.keys.name',
          'co.keys.prefix',
          'co.keys.rate',
          'co.keys.access',
          'co.keys.created',
          'co.keys.lastUsed',
          'co.actions',
        ]}
        empty={keys.length === 0}
      >
        {keys.map((k) => (
          <tr key={k.id} data-testid="key-row" className={k.revokedAt ? 'co-revoked' : ''}>
            <td>{k.name}</td>
            <td>
              <code>{k.prefix}…</code>
            </td>
            <td className="num">{k.ratePerMinute}</td>
            <td title={k.routes?.join('\n')}>{accessOf(k.routes)}</td>
            <td>{when(k.createdAt)}</td>
            <td>{when(k.lastUsedAt)}</td>
            <td>
              {k.revokedAt ? (
                tc('co.keys.revoked')
              ) : (
                <button type="button" className="btn btn-sm" onClick={() => void revoke(k.id)}>
                  {tc('co.keys.revoke')}
                </button>
              )}
            </td>
          </tr>
        ))}
      </CoTable>
    </CoCard>
  );
}

const EVENTS = ['video.made', 'video.failed', 'balance.low'] as const;

function HooksCard() {
  const [hooks, setHooks] = useState<Webhook[]>([]);
  const [log, setLog] = useState<Delivery[]>([]);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([...EVENTS]);
  const load = useCallback(async () => {
    setHooks(await api.get<Webhook[]>('/company/webhooks'));
    setLog((await api.get<Page<Delivery>>('/company/webhooks/deliveries', { query: { size: 10 } })).list);
  }, []);
  useEffect(() => {
    load().catch(() => undefined);
  }, [load]);
  const add = async () => {
    await api.post('/company/webhooks', { url: url.trim(), events });
    setUrl('');
    await load();
  };
  return (
    <CoCard title={tc('co.hooks')} lead={tc('co.hooks.lead')} testId="co-hooks">
      <div className="co-row">
        <input
          className="input co-url"
          placeholder={tc('co.hooks.url')}
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
        {EVENTS.map((e) => (
          <label key={e} className="co-check">
            <input
              type="checkbox"
              checked={events.includes(e)}
              onChange={(ev) => setEvents(ev.target.checked ? [...events, e] : events.filter((x) => x !== e))}
            />
            <code>{e}</code>
          </label>
        ))}
        <button
          type="button"
          className="btn btn-primary btn-sm"
          disabled={!url.trim() || events.length === 0}
          onClick={() => void add()}
        >
          {tc('co.hooks.add')}
        </button>
      </div>
      {hooks.map((h) => (
        <div key={h.id} className="co-hook" data-testid="hook-row">
          <code className="co-hook-url">{h.url}</code>
          <span className="muted">{h.events.join(', ')}</span>
          <span>
            {tc('co.hooks.secret')}: <code>{h.secret}</code>
          </span>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => void api.del(`/company/webhooks/${h.id}`).then(load)}
          >
            {tc('co.hooks.delete')}
          </button>
        </div>
      ))}
      <h4>{tc('co.hooks.log')}</h4>
      <CoTable
        heads={['co.time', 'co.hooks.events', 'co.hooks.attempts', 'co.hooks.response', 'co.actions']}
        empty={log.length === 0}
      >
        {log.map((d) => (
          <tr key={d.id} data-testid="delivery-row">
            <td>{when(d.createdAt)}</td>
            <td>
              <code>{d.event}</code>
            </td>
            <td className="num">{d.attempts}</td>
            <td>
              <span className={`co-state co-state-${d.state}`}>{tc(`co.hooks.state.${d.state}`)}</span>{' '}
              {d.responseCode ?? d.error ?? ''}
            </td>
            <td>
              <button
                type="button"
                className="btn btn-sm"
                onClick={() => void api.post(`/company/webhooks/deliveries/${d.id}/redeliver`).then(load)}
              >
                {tc('co.hooks.redeliver')}
              </button>
            </td>
          </tr>
        ))}
      </CoTable>
    </CoCard>
  );
}

/** `/index/userDetailCompany`. */
export function UserDetailCompanyPage() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <div className="co-page" data-testid="co-detail">
      <CoCard title={tc('co.account')}>
        <dl className="co-dl">
          <dt>{tc('co.email')}</dt>
          <dd>{user.email}</dd>
          <dt>{tc('co.name')}</dt>
          <dd>{user.companyName || '—'}</dd>
          <dt>{tc('co.cv')}</dt>
          <dd data-testid="co-cv">{user.cvCoin}</dd>
        </dl>
      </CoCard>
      <NoticeCard />
      <KeysCard />
      <HooksCard />
    </div>
  );
}

/** `/index/recharge`: CV packs, paid through the company variants of WeChat Pay / Alipay. */
export function RechargePage() {
  const { user } = useSession();
  const [rows, setRows] = useState<Goods[]>([]);
  const [buying, setBuying] = useState<Goods | null>(null);
  useEffect(() => {
    companyProducts()
      .then(setRows)
      .catch(() => undefined);
  }, []);
  return (
    <div className="co-page" data-testid="co-recharge">
      <CoCard title={tc('co.recharge')} lead={tc('co.recharge.lead')}>
        <p data-testid="co-balance">{tc('co.balance', { n: user?.cvCoin ?? 0 })}</p>
        <div className="co-packs">
          {rows.map((g) => (
            <div key={g.id} className="co-pack" data-testid="co-pack">
              <div className="co-pack-coins">{tc('co.recharge.per', { n: g.coins })}</div>
              <div className="co-pack-price">¥{yuan(g.price)}</div>
              <button type="button" className="btn btn-primary" onClick={() => setBuying(g)}>
                {tc('co.recharge.buy')}
              </button>
            </div>
          ))}
        </div>
      </CoCard>
      <PayModal goods={buying} open={buying !== null} onClose={() => setBuying(null)} company />
    </div>
  );
}

const reasonLabel = (r: string): string =>
  (['company_upload', 'purchase', 'refund', 'admin'] as const).includes(r as never)
    ? tc(`co.reason.${r}` as CompanyKey)
    : r;

/** `/index/consume`: the CV ledger. */
export function ConsumePage() {
  const [page, setPage] = useState(1);
  const [data, setData] = useState<LedgerPage | null>(null);
  useEffect(() => {
    api
      .post<LedgerPage>('/company/surplus/record', {
        page,
        size: 20,
      })
      .then(setData)
      .catch(() => undefined);
  }, [page]);
  const pages = data ? Math.max(1, Math.ceil(data.total / 20)) : 1;
  return (
    <div className="co-page" data-testid="co-consume">
      <CoCard title={tc('co.balance', { n: data?.balance ?? 0 })} lead={tc('co.consume.lead')}>
        <CoTable
          heads={['co.time', 'co.reason', 'co.amount', 'co.balanceAfter', 'co.note']}
          empty={data?.list.length === 0}
        >
          {data?.list.map((r) => (
            <tr key={r.id} data-testid="ledger-row">
              <td>{when(r.createdAt)}</td>
              <td>{reasonLabel(r.reason)}</td>
              <td className={`num ${r.amount < 0 ? 'co-neg' : 'co-pos'}`}>
                {r.amount > 0 ? `+${r.amount}` : r.amount}
              </td>
              <td className="num">{r.balanceAfter}</td>
              <td className="muted">{r.note ?? ''}</td>
            </tr>
          ))}
        </CoTable>
        <Pager page={page} pages={pages} go={setPage} prev="‹" next="›" />
      </CoCard>
    </div>
  );
}

interface OaSchema {
  type?: string | string[];
  enum?: unknown[];
  items?: OaSchema;
  anyOf?: OaSchema[];
  nullable?: boolean;
  description?: string;
  properties?: Record<string, OaSchema>;
  required?: string[];
}
interface OaOperation {
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: OaSchema }[];
  requestBody?: { content?: Record<string, { schema?: OaSchema }> };
}
interface OaDocument {
  paths: Record<string, Record<string, OaOperation>>;
}

const typeOf = (s: OaSchema | undefined): string => {
  if (!s) return '';
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.anyOf) return s.anyOf.map(typeOf).join(' | ');
  const t = Array.isArray(s.type) ? s.type.join(' | ') : (s.type ?? 'object');
  const base = t === 'array' ? `${typeOf(s.items)}[]` : t;
  return s.nullable ? `${base} | null` : base;
};

/** The fields of one operation: path and query parameters, then the JSON body's properties. */
function fieldsOf(op: OaOperation) {
  const rows: { name: string; where: string; type: string; required: boolean; description: string }[] = [];
  for (const p of op.parameters ?? [])
    if (p.in === 'path' || p.in === 'query')
      rows.push({
        name: p.name,
        where: p.in,
        type: typeOf(p.schema),
        required: Boolean(p.required),
        description: p.description ?? p.schema?.description ?? '',
      });
  const body = op.requestBody?.content?.['application/json']?.schema;
  for (const [name, s] of Object.entries(body?.properties ?? {}))
    rows.push({
      name,
      where: 'body',
      type: typeOf(s),
      required: Boolean(body?.required?.includes(name)),
      description: s.description ?? '',
    });
  return rows;
}

/** Every operation of the public API, rendered from its OpenAPI document (`GET /product/company/openapi.json`). */
function ApiReference() {
  const [doc, setDoc] = useState<OaDocument | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    fetch(`${API_BASE}/company/openapi.json`)
      .then((r) => (r.ok ? (r.json() as Promise<OaDocument>) : Promise.reject(new Error(String(r.status)))))
      .then((d) => live && setDoc(d))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, []);
  if (failed) return <p className="muted">{tc('co.tut.ref.failed')}</p>;
  if (!doc) return <p className="muted">{tc('co.loading')}</p>;
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );
  return (
    <div className="co-ref" data-testid="tut-ref">
      {ops.map(({ path, method, op }) => {
        const fields = fieldsOf(op);
        return (
          <details key={`${method} ${path}`} className="co-op" data-testid="tut-op">
            <summary>
              <span className={`co-method co-method-${method}`}>{method.toUpperCase()}</span>
              <code className="co-op-path">{path.replace(/^\/product/, '')}</code>
              <span className="co-op-summary">{op.summary}</span>
            </summary>
            {op.description && <p className="co-op-desc">{op.description}</p>}
            {fields.length > 0 && (
              <table className="table co-fields">
                <TableHead
                  heads={[
                    tc('co.tut.ref.field'),
                    tc('co.tut.ref.in'),
                    tc('co.tut.ref.type'),
                    tc('co.tut.ref.about'),
                  ]}
                />
                <tbody>
                  {fields.map((f) => (
                    <tr key={`${f.where}:${f.name}`}>
                      <td>
                        <code>{f.name}</code>
                        {f.required && <span className="co-req">*</span>}
                      </td>
                      <td>{f.where}</td>
                      <td>
                        <code>{f.type}</code>
                      </td>
                      <td>{f.description}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </details>
        );
      })}
    </div>
  );
}

/** `/index/tutorial`: the API guide (the curl, JavaScript and TypeScript examples are run by the server suite). */
export function TutorialPage() {
  const base = `${window.location.origin}${API_BASE}`;
  return (
    <div className="co-page" data-testid="co-tutorial">
      <CoCard title={tc('co.tut.title')}>
        <p>{tc('co.tut.lead')}</p>
        <pre className="co-code">{`BASE=${base}\nKEY=mck_…   # ${tc('co.tut.key')}\nVIDEO=walk.mp4`}</pre>
        {TUTORIAL_STEPS.map((s) => (
          <div key={s.key} className="co-step">
            <h4>{tc(s.key)}</h4>
            <pre className="co-code" data-testid="tut-curl">
              {s.key === 'co.tut.s3' || s.key === 'co.tut.s4' ? `ID=123\n${s.curl}` : s.curl}
            </pre>
          </div>
        ))}
        <div className="co-step">
          <h4>{tc('co.tut.js')}</h4>
          <pre className="co-code" data-testid="tut-js">
            {TUTORIAL_JS}
          </pre>
          <h4>{tc('co.tut.py')}</h4>
          <pre className="co-code" data-testid="tut-py">
            {TUTORIAL_PY}
          </pre>
          <h4>{tc('co.tut.ts')}</h4>
          <p className="muted">{tc('co.tut.ts.text')}</p>
          <pre className="co-code" data-testid="tut-ts">
            {TUTORIAL_TS}
          </pre>
        </div>
        <div className="co-step">
          <h4>{tc('co.tut.s5')}</h4>
          <p>{tc('co.tut.s5.text')}</p>
          <pre className="co-code">{WEBHOOK_VERIFY_JS}</pre>
        </div>
      </CoCard>
      <CoCard title={tc('co.tut.ref')}>
        <p className="muted">
          {tc('co.tut.ref.lead')}{' '}
          <a href={`${API_BASE}/company/openapi.json`} target="_blank" rel="noreferrer">
            {tc('co.tut.docs')}
          </a>
        </p>
        <ApiReference />
      </CoCard>
    </div>
  );
}
