/** /index/square: shared videos — browse, search, filter by category and tag, preview, collect, download for coins. */

import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { DownloadDialog } from '../components/DownloadDialog.tsx';
import { Icon, IconButton } from '../components/Icon.tsx';
import { ListState } from '../components/ListState.tsx';
import { Pager } from '../components/Pager.tsx';
import { useCategories } from '../components/Pickers.tsx';
import { PreviewDialog } from '../components/Preview.tsx';
import { collectVideo, squareVideos } from '../lib/endpoints.ts';
import { t } from '../lib/i18n.ts';
import { toast } from '../lib/messages.ts';
import { squareDownloadCost } from '../lib/plans.ts';
import { useSession } from '../lib/session.tsx';
import type { Video } from '../lib/types.ts';
import { Thumb } from './MyPro.tsx';

const PAGE_SIZE = 16;

export function SquarePage() {
  const { user } = useSession();
  const { categories, tags } = useCategories();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const category = params.get('category') ?? '';
  const tag = params.get('tag') ?? '';
  const collected = params.get('collected') === '1';
  const [keyword, setKeyword] = useState(params.get('q') ?? '');
  const [list, setList] = useState<Video[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [preview, setPreview] = useState<Video | null>(null);
  const [download, setDownload] = useState<Video | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const res = await squareVideos(
        {
          page,
          size: PAGE_SIZE,
          keyword: params.get('q') || undefined,
          category: category || undefined,
          tag: tag || undefined,
          collected: collected || undefined,
        },
        user,
      );
      setList(res.list);
      setTotal(res.total);
    } catch {
      /* shown */
    } finally {
      setLoading(false);
    }
  }, [page, params, category, tag, collected, user]);
  useEffect(() => {
    void load();
  }, [load]);

  const setQuery = (next: Record<string, string | undefined>) => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next)) {
      if (v) p.set(k, v);
      else p.delete(k);
    }
    if (!('page' in next)) p.delete('page');
    setParams(p);
  };

  const collect = async (v: Video) => {
    try {
      const collected = await collectVideo(v.id);
      toast.success(collected ? t('square.collected') : t('square.uncollected'));
      setList((l) => l.map((x) => (x.id === v.id ? { ...x, collected } : x)));
    } catch {
      /* shown */
    }
  };

  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const tagNames = tags.flatMap((c) => [c.name, ...c.children.map((x) => x.name)]).slice(0, 30);
  return (
    <div className="square">
      <div className="toolbar">
        <form
          className="search search-wide"
          onSubmit={(e) => {
            e.preventDefault();
            setQuery({ q: keyword.trim() || undefined });
          }}
        >
          <Icon name="search" size={16} />
          <input
            value={keyword}
            placeholder={t('square.search')}
            onChange={(e) => setKeyword(e.target.value)}
          />
          <button type="submit" className="btn btn-sm btn-primary">
            {t('common.search')}
          </button>
        </form>
        <button
          type="button"
          className={`filter${collected ? ' on' : ''}`}
          onClick={() => setQuery({ collected: collected ? undefined : '1' })}
        >
          <Icon name={collected ? 'starOn' : 'star'} size={16} /> {t('square.myCollection')}
        </button>
      </div>
      <div className="filter-rows">
        <ChipRow
          label={t('upload.category')}
          options={categories.map((c) => [c.id, c.name])}
          current={category}
          pick={(v) => setQuery({ category: v })}
        />
        {tagNames.length > 0 && (
          <ChipRow
            label={t('upload.tags')}
            options={tagNames.map((n) => [n, n])}
            current={tag}
            pick={(v) => setQuery({ tag: v })}
          />
        )}
      </div>
      <ListState loading={loading} empty={list.length === 0} icon="square" text={t('square.empty')}>
        <div className="cards">
          {list.map((v) => (
            <article className="card" key={v.id} data-testid="square-card">
              <button
                type="button"
                className="card-media"
                onClick={() => setPreview(v)}
                aria-label={t('project.preview')}
              >
                <Thumb video={v} />
                <span className="play-overlay">
                  <Icon name="playOn" size={28} />
                </span>
                {v.duration > 0 && <span className="duration">{v.duration.toFixed(1)}s</span>}
              </button>
              <div className="card-body">
                <div className="card-title" title={v.titleInSquare || v.name}>
                  {v.titleInSquare || v.name}
                </div>
                <div className="card-meta">
                  {v.creatorName && <span>{v.creatorName}</span>}
                  {v.categoryName && <span className="chip">{v.categoryName}</span>}
                  {v.tags.slice(0, 3).map((x) => (
                    <span className="chip" key={x}>
                      #{x}
                    </span>
                  ))}
                </div>
                <div className="card-meta muted">
                  <span>
                    <Icon name="download" size={13} /> {v.downloadCount}
                  </span>
                  <span>
                    {v.isOwner
                      ? t('square.yours')
                      : t('coins.v', { n: v.price ?? squareDownloadCost(v.duration) })}
                  </span>
                </div>
              </div>
              <div className="card-actions">
                <IconButton icon="eye" title={t('project.preview')} onClick={() => setPreview(v)} />
                <IconButton
                  icon={v.collected ? 'starOn' : 'star'}
                  title={v.collected ? t('square.uncollect') : t('square.collect')}
                  on={v.collected}
                  onClick={() => void collect(v)}
                />
                <IconButton icon="download" title={t('download.button')} onClick={() => setDownload(v)} />
              </div>
            </article>
          ))}
        </div>
      </ListState>
      <Pager page={page} pages={pages} go={(p) => setQuery({ page: String(p) })} />
      <PreviewDialog
        video={preview}
        onClose={() => setPreview(null)}
        onDownload={(v) => {
          setPreview(null);
          setDownload(v);
        }}
      />
      <DownloadDialog video={download} onClose={() => setDownload(null)} />
    </div>
  );
}

/** A row of filter chips: "All" (on when nothing is picked), then each option [value, text]; `pick` gets the value. */
function ChipRow(props: {
  label: string;
  options: [string, string][];
  current: string;
  pick: (value: string | undefined) => void;
}) {
  const { label, options, current, pick } = props;
  const chip = (on: boolean) => `chip${on ? ' chip-on' : ''}`;
  return (
    <div className="filter-row">
      <span className="filter-label">{label}</span>
      <button type="button" className={chip(!current)} onClick={() => pick(undefined)}>
        {t('square.all')}
      </button>
      {options.map(([value, text]) => (
        <button type="button" key={value} className={chip(current === value)} onClick={() => pick(value)}>
          {text}
        </button>
      ))}
    </div>
  );
}
