import { type KeyboardEvent, useRef } from 'react';
import styles from './tabs.module.css';

interface TabItem<K extends string> {
  key: K;
  label: string;
}

interface TabsProps<K extends string> {
  items: readonly TabItem<K>[];
  activeKey: K;
  onChange: (key: K) => void;
  /** Names the tab list for assistive technology. */
  label: string;
  /** Prefix of the tab ids; the panel names its tab with tabId(idPrefix, activeKey). */
  idPrefix: string;
  /** The id of the panel the tabs control. */
  panelId: string;
}

/**
 * A row of tabs (WAI-ARIA tabs pattern: arrow keys move between tabs). Kept small on purpose: the
 * sign-in screen needs two tabs, not antd Tabs' overflow menu and animations.
 */
export function Tabs<K extends string>({ items, activeKey, onChange, label, idPrefix, panelId }: TabsProps<K>) {
  const refs = useRef(new Map<K, HTMLButtonElement>());

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = items.findIndex((item) => item.key === activeKey);
    const step = { ArrowRight: 1, ArrowLeft: -1, Home: -index, End: items.length - 1 - index }[event.key];
    if (step === undefined || index < 0) return;
    event.preventDefault();
    const next = items[(index + step + items.length) % items.length];
    if (!next) return;
    onChange(next.key);
    refs.current.get(next.key)?.focus();
  };

  return (
    <div className={styles.list} role="tablist" aria-label={label} onKeyDown={onKeyDown}>
      {items.map((item) => {
        const selected = item.key === activeKey;
        return (
          <button
            key={item.key}
            ref={(node) => {
              if (node) refs.current.set(item.key, node);
              else refs.current.delete(item.key);
            }}
            id={tabId(idPrefix, item.key)}
            type="button"
            role="tab"
            className={styles.tab}
            aria-selected={selected}
            aria-controls={panelId}
            tabIndex={selected ? 0 : -1}
            onClick={() => {
              if (!selected) onChange(item.key);
            }}
          >
            {item.label}
          </button>
        );
      })}
    </div>
  );
}

/** The id a tab gets, for the panel's aria-labelledby. */
export const tabId = (idPrefix: string, key: string) => `${idPrefix}-tab-${key}`;
