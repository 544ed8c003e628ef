/** manageTomokage: every digital human with its owner; hide from / show to its owner, delete (issue 21, 24). */
import type { AdminTomokage, Deleted, Tomokage } from '@mocap/contracts';
import { useState } from 'react';
import { ta } from '../../i18n/admin.ts';
import { api } from '../../lib/api.ts';
import { type Column, fmtTime } from './Console.tsx';
import {
  act,
  Btn,
  ConfirmAct,
  ListPage,
  OkPill,
  type PageOf,
  searchBody,
  TextInput,
  thumbColumn,
  usePaged,
} from './kit.tsx';

/** A row of `/admin/tomokage/search` (the contract's). */
type Human = AdminTomokage;

/** Scheme · joints mapped, then the joints missing (the owner may map them) and those the rig has none of. */
const rigText = (h: Human): string =>
  [
    `${h.scheme} · ${h.mapped}`,
    h.missing.length ? ta('tomo.missing', { n: h.missing.length }) : '',
    h.absent.length ? ta('tomo.absent', { n: h.absent.length }) : '',
  ]
    .filter(Boolean)
    .join('; ');

export function ManageTomokagePage() {
  const [keyword, setKeyword] = useState('');
  const [del, setDel] = useState<Human | null>(null);
  const paged = usePaged('', (p, k) =>
    api.post<PageOf<Human>>('/admin/tomokage/search', searchBody(p, { keyword: k })),
  );
  const columns: Column<Human>[] = [
    thumbColumn((h) => h.front, 60, true),
    { key: 'id', title: 'ID', render: (h) => h.id, width: 56 },
    { key: 'n', title: ta('tomo.name'), render: (h) => h.name },
    { key: 'o', title: ta('video.owner'), render: (h) => h.ownerEmail ?? `#${h.userId}` },
    {
      key: 'fmt',
      title: ta('tomo.format'),
      render: (h) => `${h.format} · ${(h.sizeBytes / 1048576).toFixed(1)} MB`,
    },
    {
      key: 's',
      title: ta('tomo.rig'),
      render: (h) => (
        <span data-testid="tomo-rig">
          {h.scheme} · {h.mapped}
          {(['missing', 'absent'] as const).map(
            (note) =>
              h[note].length > 0 && (
                <span
                  key={note}
                  className={`admin-rig-note ${note}`}
                  title={ta(`tomo.${note}Title`, { list: h[note].join(', ') })}
                >
                  {ta(`tomo.${note}`, { n: h[note].length })}
                </span>
              ),
          )}
        </span>
      ),
      csv: (h) => rigText(h),
    },
    {
      key: 'h',
      title: ta('tomo.visible'),
      render: (h) => <OkPill ok={!h.hidden}>{ta(h.hidden ? 'tomo.hidden' : 'tomo.shown')}</OkPill>,
      csv: (h) => (h.hidden ? 0 : 1),
    },
    { key: 'c', title: ta('admin.created'), render: (h) => fmtTime(h.createAt) },
  ];
  const actions = (h: Human) => (
    <span className="admin-actions">
      <Btn
        label={ta(h.hidden ? 'tomo.show' : 'tomo.hide')}
        action={h.hidden ? 'show' : 'hide'}
        onClick={() =>
          act(() => api.post<Tomokage>('/admin/tomokage/hide', { id: h.id, hidden: !h.hidden }), paged.reload)
        }
      />
      <Btn label={ta('admin.delete')} danger onClick={() => setDel(h)} />
    </span>
  );
  return (
    <ListPage
      path="manageTomokage"
      paged={paged}
      columns={columns}
      actions={actions}
      csv="digital-humans.csv"
      testId="tomokage-table"
      onSearch={() => paged.apply(keyword.trim())}
      filters={<TextInput value={keyword} set={setKeyword} placeholder={ta('tomo.keyword')} />}
    >
      <ConfirmAct
        item={del}
        text={(h) => ta('tomo.deleteConfirm', { name: h.name, email: h.ownerEmail ?? '' })}
        close={() => setDel(null)}
        run={(h) => api.post<Deleted>('/admin/tomokage/delete', { ids: [h.id] })}
        after={paged.reload}
      />
    </ListPage>
  );
}
