import type { ReactNode } from 'react';

/**
 * A row of tabs (role tablist): a button per key, the current one `on` and aria-selected; `label` its text,
 * `pick` what a click does. `className` and `itemClass` give the row's and the buttons' look; `tagged` marks each
 * button with its key (data-tab).
 */
export function Tabs<K extends string>(props: {
  keys: readonly K[];
  current: K;
  label: (k: K) => ReactNode;
  pick: (k: K) => void;
  className?: string;
  itemClass?: string;
  tagged?: boolean;
}) {
  const { keys, current, label, pick, className = 'tabs', itemClass = 'tab-btn', tagged = false } = props;
  return (
    <div className={className} role="tablist">
      {keys.map((k) => (
        <button
          key={k}
          type="button"
          role="tab"
          aria-selected={current === k}
          className={`${itemClass}${current === k ? ' on' : ''}`}
          onClick={() => pick(k)}
          data-tab={tagged ? k : undefined}
        >
          {label(k)}
        </button>
      ))}
    </div>
  );
}

/** A table's head row: one column head per entry (an empty string for a column without one). */
export function TableHead({ heads }: { heads: readonly ReactNode[] }) {
  return (
    <thead>
      <tr>
        {heads.map((h, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the heads are fixed; their place is their identity
          <th key={i}>{h}</th>
        ))}
      </tr>
    </thead>
  );
}
