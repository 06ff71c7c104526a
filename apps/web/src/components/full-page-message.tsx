import { createContext, type ReactNode, useContext } from 'react';
import { useDrawnPageTakeover } from '../lib/use-drawn-page-takeover.ts';
import { useMerchantStore } from '../stores/merchant.ts';
import styles from './full-page-message.module.css';

interface FullPageMessageProps {
  title: string;
  detail?: ReactNode;
  /** An illustration above the title, as an image address or drawn inline; decorative, the title says what happened. */
  image?: string | ReactNode;
  actions?: ReactNode;
}

/**
 * True below a layout's own <main> (the signed-in layout): a full-page message drawn there is a
 * section of that main, since a page has one main landmark.
 */
export const InsideMainContext = createContext(false);

/** A whole page that tells the visitor one thing and offers a way on: not found, offline, errors. */
export function FullPageMessage({ title, detail, image, actions }: FullPageMessageProps) {
  // an error, not-found or unavailable page can be the first screen instead of a drawn one's
  useDrawnPageTakeover();
  const inLayout = useContext(InsideMainContext);
  // a page of its own still says whose site it is
  const merchant = useMerchantStore((state) => state.merchant);
  const Landmark = inLayout ? 'section' : 'main';
  const body = (
    <Landmark className={styles.page}>
      {typeof image === 'string' ? <img className={styles.image} src={image} alt="" width={320} height={220} /> : null}
      {image && typeof image !== 'string' ? <div className={styles.image}>{image}</div> : null}
      <h1 className={styles.title}>{title}</h1>
      {detail ? <p className={styles.detail}>{detail}</p> : null}
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </Landmark>
  );
  if (inLayout || !merchant) return body;
  return (
    <>
      <header className={styles.header}>
        <img className={styles.logo} src={merchant.dark_logo} alt={merchant.name} height={32} />
      </header>
      {body}
    </>
  );
}
