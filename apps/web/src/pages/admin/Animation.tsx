/**
 * manageAnimation: the animation library's every animation (published and hidden); publish, hide, redo (made
 * again from its source: a shipped take from the product's take, a shared capture from its video — new picture, the
 * bone type zips made anew on the next download), delete (issue 22). The menu's `animationManage` path opens the same page.
 */
import { useState } from 'react';
import { ta } from '../../i18n/admin.ts';
import { api } from '../../lib/api.ts';
import { categoryLabel, type LibraryAnimation, tl } from '../Animation.tsx';
import type { Column } from './Console.tsx';
import {
  act,
  Btn,
  Choice,
  ConfirmAct,
  ListPage,
  OkPill,
  type PageOf,
  searchBody,
  TextInput,
  usePaged,
} from './kit.tsx';

export function ManageAnimationPage() {
  const [keyword, setKeyword] = useState('');
  const [status, setStatus] = useState<'' | '0' | '1'>('');
  const [del, setDel] = useState<LibraryAnimation | null>(null);
  // The status select searches at once; the keyword on submit.
  const paged = usePaged({ keyword: '', status: '' as '' | '0' | '1' }, (p, a) =>
    api.post<PageOf<LibraryAnimation>>(
      '/admin/animation/search',
      searchBody(p, { keyword: a.keyword, status: a.status ? Number(a.status) : undefined }),
    ),
  );
  const columns: Column<LibraryAnimation>[] = [
    { key: 'id', title: 'ID', render: (a) => a.id, width: 56 },
    { key: 'n', title: tl('animAdmin.name'), render: (a) => a.name },
    {
      key: 'c',
      title: tl('animAdmin.category'),
      render: (a) => categoryLabel(a.category),
      csv: (a) => a.category,
    },
    { key: 't', title: tl('animAdmin.tags'), render: (a) => a.tags.join(', ') },
    {
      key: 'l',
      title: tl('animAdmin.length'),
      render: (a) => tl('anim.seconds', { s: a.duration.toFixed(1) }),
      csv: (a) => a.duration,
    },
    { key: 'p', title: tl('animAdmin.price'), render: (a) => `${a.price} V`, csv: (a) => a.price },
    { key: 'd', title: tl('animAdmin.downloads'), render: (a) => a.downloads },
    {
      key: 's',
      title: tl('animAdmin.status'),
      render: (a) => (
        <OkPill ok={a.status === 1}>{tl(a.status === 1 ? 'animAdmin.published' : 'animAdmin.hidden')}</OkPill>
      ),
      csv: (a) => a.status,
    },
  ];
  const actions = (a: LibraryAnimation) => (
    <span className="admin-actions">
      <Btn
        label={tl(a.status === 1 ? 'animAdmin.hide' : 'animAdmin.publish')}
        action={a.status === 1 ? 'hide' : 'publish'}
        onClick={() =>
          act(
            () => api.post('/admin/animation/publish', { id: a.id, published: a.status !== 1 }),
            paged.reload,
          )
        }
      />
      <Btn
        label={tl('animAdmin.redone')}
        action="redone"
        onClick={() => act(() => api.post('/admin/animation/redone', { id: a.id }), paged.reload)}
      />
      <Btn label={ta('admin.delete')} danger onClick={() => setDel(a)} />
    </span>
  );
  return (
    <ListPage
      path="manageAnimation"
      paged={paged}
      columns={columns}
      actions={actions}
      csv="animations.csv"
      testId="animation-table"
      onSearch={() => paged.apply({ keyword: keyword.trim(), status })}
      filters={
        <>
          <TextInput value={keyword} set={setKeyword} placeholder={tl('animAdmin.keyword')} />
          <Choice
            value={status}
            set={(v) => {
              setStatus(v);
              paged.apply({ keyword: paged.applied.keyword, status: v });
            }}
            label={tl('animAdmin.status')}
            all={tl('animAdmin.all')}
            options={[
              ['1', tl('animAdmin.published')],
              ['0', tl('animAdmin.hidden')],
            ]}
          />
        </>
      }
    >
      <ConfirmAct
        item={del}
        text={(a) => tl('animAdmin.deleteConfirm', { name: a.name })}
        close={() => setDel(null)}
        run={(a) => api.post('/admin/animation/delete', { ids: [a.id] })}
        after={paged.reload}
      />
    </ListPage>
  );
}
