/** The category/tag picker and the bone-type picker (upload, edit and remake dialogs). */
import { useEffect, useState } from 'react';
import type { BoneTypeInfo } from '../lib/bonetypes.ts';
import { boneTypes, searchCategories, searchTags } from '../lib/endpoints.ts';
import { t } from '../lib/i18n.ts';
import { toast } from '../lib/messages.ts';
import type { Plan } from '../lib/plans.ts';
import type { Category } from '../lib/types.ts';
import { checkTag } from '../lib/uploadValidation.ts';
import { FieldError } from './FieldError.tsx';
import { Icon } from './Icon.tsx';

let catCache: Promise<Category[]> | null = null;
let tagCache: Promise<Category[]> | null = null;
let boneCache: Promise<BoneTypeInfo[]> | null = null;

export function useCategories(): { categories: Category[]; tags: Category[] } {
  const [categories, setCategories] = useState<Category[]>([]);
  const [tags, setTags] = useState<Category[]>([]);
  useEffect(() => {
    catCache ??= searchCategories().catch(() => {
      catCache = null;
      return [];
    });
    tagCache ??= searchTags().catch(() => {
      tagCache = null;
      return [];
    });
    let live = true;
    void catCache.then((c) => live && setCategories(c));
    void tagCache.then((c) => live && setTags(c));
    return () => {
      live = false;
    };
  }, []);
  return { categories, tags };
}

export function useBoneTypes(): BoneTypeInfo[] {
  const [list, setList] = useState<BoneTypeInfo[]>([]);
  useEffect(() => {
    boneCache ??= boneTypes();
    let live = true;
    void boneCache.then((b) => live && setList(b));
    return () => {
      live = false;
    };
  }, []);
  return list;
}

/** Flattens the category tree into options ("Parent / Child"). */
export function categoryOptions(tree: Category[], prefix = ''): { id: string; label: string }[] {
  return tree.flatMap((c) => [
    { id: c.id, label: prefix + c.name },
    ...categoryOptions(c.children, `${prefix}${c.name} / `),
  ]);
}

export function CategoryTagPicker({
  category,
  tags,
  onCategory,
  onTags,
  error,
}: {
  category: string;
  tags: string[];
  onCategory: (id: string) => void;
  onTags: (tags: string[]) => void;
  error?: string | null;
}) {
  const { categories, tags: known } = useCategories();
  const [draft, setDraft] = useState('');
  const add = (raw: string) => {
    const tag = raw.trim();
    if (!tag) return;
    const bad = checkTag(tag);
    if (bad) {
      toast.error(t(bad.key));
      return;
    }
    if (tag.length > 20) {
      toast.error(t('upload.tagTooLong', { n: 20 }));
      return;
    }
    if (!tags.includes(tag)) onTags([...tags, tag].slice(0, 10));
    setDraft('');
  };
  const suggestions = categoryOptions(known)
    .map((o) => o.label.split(' / ').pop() ?? o.label)
    .filter((n) => !tags.includes(n))
    .slice(0, 12);
  return (
    <div className={`cat-tag${error ? ' has-error' : ''}`}>
      <div className="field">
        <span className="field-label">{t('upload.category')}</span>
        <select name="category" value={category} onChange={(e) => onCategory(e.target.value)}>
          <option value="">{t('upload.noCategory')}</option>
          {categoryOptions(categories).map((o) => (
            <option key={o.id} value={o.id}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <span className="field-label">{t('upload.tags')}</span>
        <div className="tag-input">
          {tags.map((tag) => (
            <span className="chip chip-on" key={tag}>
              {tag}
              <button
                type="button"
                aria-label={t('common.remove')}
                onClick={() => onTags(tags.filter((x) => x !== tag))}
              >
                <Icon name="close" size={12} />
              </button>
            </span>
          ))}
          <input
            name="tag"
            value={draft}
            placeholder={t('upload.tagPlaceholder')}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add(draft);
              }
            }}
            onBlur={() => draft.trim() && add(draft)}
          />
        </div>
        {suggestions.length > 0 && (
          <div className="tag-suggestions">
            {suggestions.map((s) => (
              <button type="button" className="chip" key={s} onClick={() => add(s)}>
                + {s}
              </button>
            ))}
          </div>
        )}
      </div>
      <FieldError>{error && t(error)}</FieldError>
    </div>
  );
}

export function BoneTypePicker({
  value,
  plan,
  onChange,
  compact,
}: {
  value: string;
  plan: Plan;
  onChange: (name: string) => void;
  compact?: boolean;
}) {
  const list = useBoneTypes();
  return (
    <div className={`bone-grid${compact ? ' compact' : ''}`}>
      {list.map((b) => {
        const locked = plan === 'free' && !b.free;
        return (
          <button
            type="button"
            aria-pressed={value === b.name}
            key={b.name}
            data-bone={b.name}
            className={`bone${value === b.name ? ' on' : ''}${locked ? ' locked' : ''}`}
            onClick={() => {
              if (locked) {
                toast.warning(t('upload.freeFbxOnly'));
                return;
              }
              onChange(b.name);
            }}
          >
            <span className="bone-name">{b.name}</span>
            <span className="bone-format">{locked ? t('upload.vipOnly') : b.format}</span>
          </button>
        );
      })}
    </div>
  );
}
