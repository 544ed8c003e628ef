/** briefing (information report) and extension (promotion report): /sysInfo over a period, charts and CSV. */
import type { Briefing, CashbackPaid, Extension, Invoice } from '@mocap/contracts';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef, useState } from 'react';
import { type AdminKey, ta } from '../../i18n/admin.ts';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/messages.ts';
import { AdminPage, type Column, ExportButton, fmtTime, Table, useLoad, yuan } from './Console.tsx';
import {
  act,
  actionsColumn,
  Btn,
  ConfirmAct,
  PagedTable,
  type PageOf,
  searchBody,
  usePaged,
} from './kit.tsx';

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  Legend,
);
Chart.defaults.color = '#8a92a9';
Chart.defaults.borderColor = '#2c3244';
Chart.defaults.font.family = 'inherit';

type Day = Briefing['days'][number];
type Inviter = Extension['inviters'][number];

const DAY = 86_400_000;
const COLORS = ['#6d5dfc', '#36d1c4', '#f5b74f', '#f0566b', '#3ccf8e', '#9aa4bf'];

/** A chart.js chart that follows its config. */
export function ChartBox({
  config,
  testId,
  height = 260,
}: {
  config: ChartConfiguration;
  testId?: string;
  height?: number;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart | null>(null);
  useEffect(() => {
    if (!canvas.current) return;
    chart.current?.destroy();
    chart.current = new Chart(canvas.current, {
      ...config,
      options: { responsive: true, maintainAspectRatio: false, animation: false, ...config.options },
    });
    return () => {
      chart.current?.destroy();
      chart.current = null;
    };
  }, [config]);
  return (
    <div className="admin-chart" style={{ height }}>
      {/* The first series' values, for tests and assistive tools (the canvas itself has no text). */}
      <canvas
        ref={canvas}
        data-testid={testId}
        data-values={JSON.stringify(config.data.datasets[0]?.data ?? [])}
        role="img"
        aria-label={config.data.datasets.map((d) => d.label).join(', ')}
      />
    </div>
  );
}

type Range = 7 | 30 | 90 | 'custom';
const isoDay = (ms: number) => {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
};
const localMidnight = (iso: string) => new Date(`${iso}T00:00:00`).getTime();

/** Period picker: last 7/30/90 days or custom dates; gives [from, to) in local days. */
/** A row of chips, one on. */
function Chips<V extends string | number>({
  value,
  set,
  options,
}: {
  value: V;
  set: (v: V) => void;
  options: readonly (readonly [V, string])[];
}) {
  return (
    <>
      {options.map(([v, label]) => (
        <button
          key={String(v) || 'all'}
          type="button"
          className={`chip${value === v ? ' chip-on' : ''}`}
          data-range={typeof v === 'number' ? v : undefined}
          onClick={() => set(v)}
        >
          {label}
        </button>
      ))}
    </>
  );
}

function usePeriod() {
  const [range, setRange] = useState<Range>(7);
  const today = isoDay(Date.now());
  const [custom, setCustom] = useState({ from: isoDay(Date.now() - 29 * DAY), to: today });
  const period =
    range === 'custom'
      ? { from: localMidnight(custom.from), to: localMidnight(custom.to) + DAY }
      : { from: localMidnight(today) - (range - 1) * DAY, to: localMidnight(today) + DAY };
  const picker = (
    <div className="admin-filters">
      <Chips<Range>
        value={range}
        set={setRange}
        options={[
          ...([7, 30, 90] as const).map((r) => [r, ta(`report.last${r}` as AdminKey)] as const),
          ['custom', ta('report.custom')],
        ]}
      />
      {range === 'custom' && (
        <>
          <input
            className="input admin-date"
            type="date"
            value={custom.from}
            max={custom.to}
            onChange={(e) => setCustom({ ...custom, from: e.target.value })}
          />
          <span className="admin-muted">→</span>
          <input
            className="input admin-date"
            type="date"
            value={custom.to}
            min={custom.from}
            max={today}
            onChange={(e) => setCustom({ ...custom, to: e.target.value })}
          />
        </>
      )}
    </div>
  );
  return { period: { ...period, tzOffsetMin: -new Date().getTimezoneOffset() }, picker };
}

function Kpi({ label, value, testId }: { label: string; value: string | number; testId?: string }) {
  return (
    <div className="admin-kpi">
      <div className="admin-kpi-value" data-testid={testId}>
        {value}
      </div>
      <div className="admin-kpi-label">{label}</div>
    </div>
  );
}

const methodName = (k: string) =>
  k === 'wechat' || k === 'alipay' ? ta(`report.method.${k}` as AdminKey) : k;

export function BriefingPage() {
  const { period, picker } = usePeriod();
  const [data] = useLoad(() => api.post<Briefing>('/sysInfo/briefing', period), [period.from, period.to]);
  const [activity, setActivity] = useState<ChartConfiguration | null>(null);
  const [money, setMoney] = useState<ChartConfiguration | null>(null);
  useEffect(() => {
    if (!data) return;
    const labels = data.days.map((d) => d.date.slice(5));
    setActivity({
      type: 'bar',
      data: {
        labels,
        datasets: [
          {
            type: 'bar',
            label: ta('report.uploads'),
            data: data.days.map((d) => d.uploads),
            backgroundColor: COLORS[0],
            yAxisID: 'y',
          },
          {
            type: 'bar',
            label: ta('report.failures'),
            data: data.days.map((d) => d.failures),
            backgroundColor: COLORS[3],
            yAxisID: 'y',
          },
          {
            type: 'line',
            label: ta('report.newUsers'),
            data: data.days.map((d) => d.newUsers),
            borderColor: COLORS[1],
            backgroundColor: COLORS[1],
            yAxisID: 'y',
          },
          {
            type: 'line',
            label: ta('report.activeUsers'),
            data: data.days.map((d) => d.activeUsers),
            borderColor: COLORS[2],
            backgroundColor: COLORS[2],
            yAxisID: 'y',
          },
        ],
      },
      options: {
        scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
        plugins: { legend: { position: 'bottom' } },
      },
    } as ChartConfiguration);
    setMoney({
      type: 'bar',
      data: {
        labels,
        datasets: [
          {
            type: 'bar',
            label: ta('report.revenue'),
            data: data.days.map((d) => d.revenue / 100),
            backgroundColor: COLORS[4],
            yAxisID: 'y',
          },
          {
            type: 'line',
            label: ta('report.orders'),
            data: data.days.map((d) => d.orders),
            borderColor: COLORS[0],
            backgroundColor: COLORS[0],
            yAxisID: 'y1',
          },
        ],
      },
      options: {
        scales: {
          y: { beginAtZero: true, position: 'left' },
          y1: {
            beginAtZero: true,
            position: 'right',
            grid: { drawOnChartArea: false },
            ticks: { precision: 0 },
          },
        },
        plugins: { legend: { position: 'bottom' } },
      },
    } as ChartConfiguration);
  }, [data]);
  const columns: Column<Day>[] = [
    { key: 'date', title: ta('report.date'), render: (d) => d.date },
    { key: 'nu', title: ta('report.newUsers'), render: (d) => d.newUsers, align: 'right' },
    { key: 'au', title: ta('report.activeUsers'), render: (d) => d.activeUsers, align: 'right' },
    { key: 'up', title: ta('report.uploads'), render: (d) => d.uploads, align: 'right' },
    { key: 'md', title: ta('report.made'), render: (d) => d.made, align: 'right' },
    { key: 'sp', title: ta('report.seconds'), render: (d) => d.secondsProcessed, align: 'right' },
    { key: 'fa', title: ta('report.failures'), render: (d) => d.failures, align: 'right' },
    { key: 'or', title: ta('report.orders'), render: (d) => d.orders, align: 'right' },
    {
      key: 'rv',
      title: ta('report.revenue'),
      render: (d) => yuan(d.revenue),
      csv: (d) => (d.revenue / 100).toFixed(2),
      align: 'right',
    },
    { key: 'fp', title: ta('report.firstPaid'), render: (d) => d.firstPaid, align: 'right' },
  ];
  const t = data?.totals;
  return (
    <AdminPage
      path="briefing"
      tools={
        <ExportButton
          name={`briefing-${isoDay(period.from)}.csv`}
          columns={columns}
          rows={data?.days ?? []}
        />
      }
    >
      {(canWrite) => (
        <>
          {picker}
          <div className="admin-kpis">
            <Kpi label={ta('report.newUsers')} value={t?.newUsers ?? '—'} />
            <Kpi label={ta('report.activeUsers')} value={t?.activeUsers ?? '—'} />
            <Kpi label={ta('report.uploads')} value={t?.uploads ?? '—'} testId="kpi-uploads" />
            <Kpi label={ta('report.seconds')} value={t?.secondsProcessed ?? '—'} />
            <Kpi label={ta('report.failures')} value={t?.failures ?? '—'} />
            <Kpi label={ta('report.revenue')} value={t ? yuan(t.revenue) : '—'} testId="kpi-revenue" />
            <Kpi
              label={ta('report.conversion')}
              value={data ? `${(data.conversion.rate * 100).toFixed(1)}%` : '—'}
            />
          </div>
          <div className="admin-grid2">
            <section className="admin-card">
              <h2>{ta('report.activity')}</h2>
              {activity && <ChartBox config={activity} testId="briefing-chart" />}
            </section>
            <section className="admin-card">
              <h2>{ta('report.money')}</h2>
              {money && <ChartBox config={money} />}
              <div className="admin-grid2 admin-split">
                <div>
                  <h3>{ta('report.byPlan')}</h3>
                  {(data?.revenueByPlan ?? []).map((r) => (
                    <div key={r.key} className="admin-kv">
                      <span>{r.key}</span>
                      <span>
                        {r.orders} · ¥{yuan(r.amount)}
                      </span>
                    </div>
                  ))}
                  {data?.revenueByPlan.length === 0 && <div className="admin-muted">{ta('admin.none')}</div>}
                </div>
                <div>
                  <h3>{ta('report.byMethod')}</h3>
                  {(data?.revenueByMethod ?? []).map((r) => (
                    <div key={r.key} className="admin-kv">
                      <span>{methodName(r.key)}</span>
                      <span>
                        {r.orders} · ¥{yuan(r.amount)}
                      </span>
                    </div>
                  ))}
                  {data?.revenueByMethod.length === 0 && (
                    <div className="admin-muted">{ta('admin.none')}</div>
                  )}
                </div>
              </div>
              {data && (
                <div className="admin-muted">
                  {ta('report.conversion')}:{' '}
                  {ta('report.conversionText', {
                    paid: data.conversion.paid,
                    registered: data.conversion.registered,
                    rate: `${(data.conversion.rate * 100).toFixed(1)}%`,
                  })}
                </div>
              )}
            </section>
          </div>
          <Table
            rowKey={(d) => d.date}
            rows={[...(data?.days ?? [])].reverse()}
            testId="briefing-table"
            columns={columns}
          />
          <PageViewReport period={period} />
          <Invoices canWrite={canWrite} />
        </>
      )}
    </AdminPage>
  );
}

export function ExtensionPage() {
  const { period, picker } = usePeriod();
  const [data, reload] = useLoad(
    () => api.post<Extension>('/sysInfo/extension', period),
    [period.from, period.to],
  );
  const [payout, setPayout] = useState<Inviter | null>(null);
  const [config, setConfig] = useState<ChartConfiguration | null>(null);
  useEffect(() => {
    if (!data) return;
    setConfig({
      type: 'bar',
      data: {
        labels: data.days.map((d) => d.date.slice(5)),
        datasets: [
          {
            label: ta('report.referrals'),
            data: data.days.map((d) => d.referrals),
            backgroundColor: COLORS[1],
          },
        ],
      },
      options: {
        scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
        plugins: { legend: { display: false } },
      },
    });
  }, [data]);
  const columns: Column<Inviter>[] = [
    { key: 'e', title: ta('report.inviter'), render: (r) => r.email },
    {
      key: 's',
      title: ta('report.staff'),
      render: (r) =>
        r.extensionStaff ? <span className="admin-pill accent">{ta('user.flag.staff')}</span> : '—',
      csv: (r) => (r.extensionStaff ? 1 : 0),
    },
    { key: 'r', title: ta('report.referrals'), render: (r) => r.referrals, align: 'right' },
    { key: 'p', title: ta('report.paidReferrals'), render: (r) => r.paidReferrals, align: 'right' },
    { key: 'co', title: ta('report.cashbackOrders'), render: (r) => r.cashbackOrders, align: 'right' },
    {
      key: 'oa',
      title: ta('report.orderAmount'),
      render: (r) => yuan(r.orderAmount),
      csv: (r) => (r.orderAmount / 100).toFixed(2),
      align: 'right',
    },
    {
      key: 'cb',
      title: ta('report.cashback'),
      render: (r) => yuan(r.cashback),
      csv: (r) => (r.cashback / 100).toFixed(2),
      align: 'right',
    },
    {
      key: 'cp',
      title: ta('report.cashbackPaid'),
      render: (r) => yuan(r.cashbackPaid),
      csv: (r) => (r.cashbackPaid / 100).toFixed(2),
      align: 'right',
    },
  ];
  const t = data?.totals;
  return (
    <AdminPage
      path="extension"
      tools={
        <ExportButton
          name={`extension-${isoDay(period.from)}.csv`}
          columns={columns}
          rows={data?.inviters ?? []}
        />
      }
    >
      {(canWrite) => (
        <>
          {picker}
          <div className="admin-kpis">
            <Kpi label={ta('report.referrals')} value={t?.referrals ?? '—'} />
            <Kpi label={ta('report.paidReferrals')} value={t?.paidReferrals ?? '—'} />
            <Kpi label={ta('report.orderAmount')} value={t ? yuan(t.orderAmount) : '—'} />
            <Kpi label={ta('report.cashback')} value={t ? yuan(t.cashback) : '—'} />
            <Kpi label={ta('report.cashbackPaid')} value={t ? yuan(t.cashbackPaid) : '—'} />
            <Kpi label={ta('report.staff')} value={t?.staff ?? '—'} />
          </div>
          <section className="admin-card">
            <h2>{ta('report.referrals')}</h2>
            {config && <ChartBox config={config} testId="extension-chart" height={220} />}
          </section>
          <Table
            rowKey={(r) => r.inviterId}
            rows={data?.inviters ?? []}
            testId="extension-table"
            columns={[
              ...columns,
              ...actionsColumn(canWrite, (r: Inviter) =>
                r.cashback > r.cashbackPaid ? (
                  <Btn label={ta('report.payOut')} action="payout" onClick={() => setPayout(r)} />
                ) : (
                  '—'
                ),
              ),
            ]}
          />
          <ConfirmAct
            item={payout}
            danger={false}
            title={ta('report.payOut')}
            text={(p) =>
              ta('report.payOutConfirm', { email: p.email, amount: yuan(p.cashback - p.cashbackPaid) })
            }
            close={() => setPayout(null)}
            run={async (p) => {
              const r = await api.post<CashbackPaid>('/companyOrder/sendCashBack', {
                userId: p.inviterId,
              });
              toast.success(ta('report.paidOut', { count: r.count, amount: yuan(r.amount) }));
            }}
            after={reload}
          />
        </>
      )}
    </AdminPage>
  );
}

/** Invoices requested by buyers (finance): issue or reject. */
function Invoices({ canWrite }: { canWrite: boolean }) {
  const paged = usePaged<'' | Invoice['status'], PageOf<Invoice>>('pending', (p, status) =>
    api.post<PageOf<Invoice>>('/invoice/search', searchBody(p, { status }, 10)),
  );
  const set = (i: Invoice, to: Invoice['status']) =>
    act(() => api.put(`/invoice/${i.id}/${to}`), paged.reload);
  return (
    <section className="admin-card">
      <div className="admin-card-head">
        <h2>{ta('invoice.title')}</h2>
        <div className="admin-filters">
          <Chips
            value={paged.applied}
            set={paged.apply}
            options={(['pending', 'issued', 'rejected', ''] as const).map(
              (s) => [s, s ? ta(`invoice.${s}` as AdminKey) : ta('admin.all')] as const,
            )}
          />
        </div>
      </div>
      <PagedTable
        paged={paged}
        size={10}
        testId="invoice-table"
        columns={[
          { key: 'o', title: ta('invoice.order'), render: (i) => <code>{i.orderNo}</code> },
          { key: 'k', title: ta('invoice.kind'), render: (i) => ta(`invoice.${i.kind}` as AdminKey) },
          { key: 'h', title: ta('invoice.header'), render: (i) => i.title },
          { key: 't', title: ta('invoice.taxNo'), render: (i) => i.taxNo ?? '—' },
          { key: 'e', title: ta('invoice.email'), render: (i) => i.email },
          { key: 'a', title: ta('invoice.amount'), render: (i) => yuan(i.amount), align: 'right' },
          { key: 's', title: ta('invoice.status'), render: (i) => ta(`invoice.${i.status}` as AdminKey) },
          { key: 'c', title: ta('admin.created'), render: (i) => fmtTime(i.createdAt) },
          ...actionsColumn(canWrite, (i: Invoice) =>
            i.status === 'pending' ? (
              <span className="admin-actions">
                <Btn label={ta('invoice.issue')} onClick={() => set(i, 'issued')} />
                <Btn label={ta('invoice.reject')} danger onClick={() => set(i, 'rejected')} />
              </span>
            ) : (
              '—'
            ),
          ),
        ]}
      />
    </section>
  );
}

interface PageViews {
  days: { date: string; views: number; actions: number; digitalHuman: number; users: number }[];
  pages: { page: string; views: number; users: number; anonymous: number }[];
  actions: {
    kind: 'page' | 'action' | 'digital_human';
    page: string;
    action: string;
    count: number;
    users: number;
  }[];
}

/**
 * The page-view report (issue 25; POST /sysInfo/pageView, what /pageView/addBehavior and addDigitalHumanBehavior
 * recorded) for the briefing's period: views, actions and digital-human actions per day, the pages most viewed,
 * and the actions done.
 */
function PageViewReport({ period }: { period: { from: number; to: number; tzOffsetMin: number } }) {
  const [data] = useLoad(() => api.post<PageViews>('/sysInfo/pageView', period), [period.from, period.to]);
  const [config, setConfig] = useState<ChartConfiguration | null>(null);
  useEffect(() => {
    if (!data) return;
    const series = (label: AdminKey, pick: (d: PageViews['days'][number]) => number, color: string) => ({
      label: ta(label),
      data: data.days.map(pick),
      backgroundColor: color,
    });
    setConfig({
      type: 'bar',
      data: {
        labels: data.days.map((d) => d.date.slice(5)),
        datasets: [
          series('pv.views', (d) => d.views, COLORS[0]!),
          series('pv.actions', (d) => d.actions, COLORS[1]!),
          series('pv.digitalHuman', (d) => d.digitalHuman, COLORS[2]!),
        ],
      },
      options: {
        scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
        plugins: { legend: { position: 'bottom' } },
      },
    } as ChartConfiguration);
  }, [data]);
  const sum = (k: 'views' | 'actions' | 'digitalHuman') =>
    data ? data.days.reduce((a, d) => a + d[k], 0) : '—';
  const kind = (k: PageViews['actions'][number]['kind']) =>
    ta(k === 'digital_human' ? 'pv.kindDigitalHuman' : k === 'action' ? 'pv.kindAction' : 'pv.kindPage');
  const pageColumns: Column<PageViews['pages'][number]>[] = [
    { key: 'p', title: ta('pv.page'), render: (r) => <code>{r.page}</code>, csv: (r) => r.page },
    { key: 'v', title: ta('pv.views'), render: (r) => r.views, align: 'right' },
    { key: 'u', title: ta('pv.users'), render: (r) => r.users, align: 'right' },
    { key: 'a', title: ta('pv.anonymous'), render: (r) => r.anonymous, align: 'right' },
  ];
  return (
    <section className="admin-card" data-testid="pageview-report">
      <div className="admin-card-head">
        <h2>{ta('pv.title')}</h2>
        <ExportButton
          name={`page-views-${new Date(period.from).toISOString().slice(0, 10)}.csv`}
          columns={pageColumns}
          rows={data?.pages ?? []}
        />
      </div>
      <div className="admin-kpis">
        <Kpi label={ta('pv.views')} value={sum('views')} testId="kpi-views" />
        <Kpi label={ta('pv.actions')} value={sum('actions')} testId="kpi-actions" />
        <Kpi label={ta('pv.digitalHuman')} value={sum('digitalHuman')} testId="kpi-digital-human" />
      </div>
      {config && <ChartBox config={config} testId="pageview-chart" height={220} />}
      <div className="admin-grid2">
        <div>
          <h3>{ta('pv.pages')}</h3>
          <Table
            rowKey={(r) => r.page}
            rows={data?.pages ?? []}
            testId="pageview-pages"
            columns={pageColumns}
          />
        </div>
        <div>
          <h3>{ta('pv.actionsDone')}</h3>
          <Table
            rowKey={(r) => `${r.kind} ${r.page} ${r.action}`}
            rows={(data?.actions ?? []).filter((a) => a.kind !== 'page')}
            testId="pageview-actions"
            columns={[
              { key: 'k', title: ta('pv.kind'), render: (r) => kind(r.kind) },
              { key: 'p', title: ta('pv.page'), render: (r) => <code>{r.page}</code> },
              { key: 'a', title: ta('pv.action'), render: (r) => r.action || '—' },
              { key: 'c', title: ta('pv.count'), render: (r) => r.count, align: 'right' },
              { key: 'u', title: ta('pv.users'), render: (r) => r.users, align: 'right' },
            ]}
          />
        </div>
      </div>
    </section>
  );
}
